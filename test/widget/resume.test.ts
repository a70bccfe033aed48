import { expect, fixture, html } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import { button, fakeProxy, mount, panelRoot, reach, until, tryOnUntil, reloadPage, HELD_TWICE } from './helpers.js';

const storedTryons = () => Object.keys(sessionStorage).filter((key) => key.endsWith(':tryon'));

describe('resume after reload', () => {
  beforeEach(() => sessionStorage.clear());

  it('a new page picks up the try-on being rendered, without uploading or submitting again', async () => {
    const fake = await fakeProxy({
      steps: HELD_TWICE,
    });
    const first = await mount(fake);
    await tryOnUntil(first, 'queued');
    await until(() => storedTryons().length === 1, 'the try-on in sessionStorage');
    const stored = JSON.parse(sessionStorage.getItem(storedTryons()[0]!)!);
    const submitted = (await fake.log()).find((r) => r.path === '/tryons')!.body!;
    expect(stored.requestId).to.equal(submitted['requestId']);
    // The page goes away, and the reloaded page's element carries on. As a framework would: the
    // element first, its product a moment later.
    const { again, seen } = await reloadPage(first, fake);
    await again.updateComplete;
    expect(again.status).to.equal('idle');
    again.product = 'saree-red';
    await reach(again, 'queued');
    expect(panelRoot(again).querySelector('dialog')!.open).to.equal(true);
    await expect(again).to.be.accessible();
    await fake.release();
    await reach(again, 'rendering');
    await fake.release();
    await reach(again, 'result');
    const result = seen.find((e) => e.type === 'tryon-result')!.detail;
    expect(result.requestId).to.equal(submitted['requestId']);
    const log = await fake.log();
    expect(log.filter((r) => r.path === '/photos')).to.have.length(1);
    expect(log.filter((r) => r.path === '/tryons')).to.have.length(1);
    expect(storedTryons()).to.deep.equal([]);
  });

  it('a stored try-on the proxy no longer knows leads back to the photo, not a dead end', async () => {
    const fake = await fakeProxy();
    const key = `tryon:${new URL(fake.endpoint, location.href).href}:saree-red:tryon`;
    sessionStorage.setItem(
      key,
      JSON.stringify({
        tryon: 'tr_gone',
        requestId: 'req-123456789',
        views: ['front'],
        output: 'image',
        submittedAt: Date.now(),
      }),
    );
    const el = await fixture<TryonButton>(
      html`<tryon-button product="saree-red" endpoint=${fake.endpoint} prefetch="interaction"></tryon-button>`,
    );
    el.pollInterval = 20;
    await reach(el, 'error');
    expect(panelRoot(el).querySelector('[role="alert"]')!.textContent!.trim()).to.equal(en.error_tryon_lost);
    expect(sessionStorage.getItem(key)).to.equal(null);
    // One press of the button named as the words name it.
    button(el, en.startAgain).click();
    await reach(el, 'photo');
    // Nothing of the old handles is offered: a fresh photo step.
    expect(button(el, 'Choose a photo')).to.exist;
    expect(panelRoot(el).querySelector('img[part="preview"]')).to.equal(null);
  });
});
