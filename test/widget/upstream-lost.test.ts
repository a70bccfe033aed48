// The try-on service loses a try-on mid-render, or stops answering while making it: the proxy ends
// it as `failed` with its own code, and the shopper reads why, with "Try again", which makes a new
// try-on of the same uploaded photo (no second upload). A submit whose photo the service no
// longer has (410 photo_expired) asks for the photo again, the photo chosen on this page kept.
import { expect } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import { button, fakeProxy, mount, panelRoot, reach, recordEvents, submitTryon } from './helpers.js';
import type { FakeRequest, FakeStep } from './helpers.js';

const alertText = (el: TryonButton) => panelRoot(el).querySelector('[role="alert"]')!.textContent!.trim();
const uploads = (log: FakeRequest[]) => log.filter((r) => r.method === 'POST' && r.path === '/photos');
const submits = (log: FakeRequest[]) => log.filter((r) => r.method === 'POST' && r.path === '/tryons');

describe('when the try-on service loses or stops making a try-on', () => {
  beforeEach(() => sessionStorage.clear());

  const endings: [string, FakeStep['error'] & object, string][] = [
    [
      'lost mid-render (upstream_lost)',
      { code: 'upstream_lost', message: 'lost', retryable: true },
      en.error_upstream_lost,
    ],
    [
      'stopped answering past its bound (upstream_unavailable)',
      { code: 'upstream_unavailable', message: 'down', retryable: true },
      en.error_tryon_unfinished,
    ],
  ];
  for (const [what, error, words] of endings) {
    it(`says why and "Try again" makes a new try-on of the same photo, uploading nothing (${what})`, async () => {
      const fake = await fakeProxy({
        firstSteps: [{ status: 'queued' }, { status: 'processing' }, { status: 'failed', error }],
        steps: [{ status: 'processing' }, { status: 'succeeded', outputs: ['front'] }],
      });
      const el = await mount(fake);
      const events = recordEvents(el);
      await submitTryon(el);
      await reach(el, 'error', 10_000);
      expect(alertText(el)).to.equal(words);
      expect(events.find((e) => e.type === 'tryon-error')!.detail).to.deep.include({
        code: error.code,
        message: words,
      });
      const primary = panelRoot(el).querySelector<HTMLButtonElement>('[part="primary-button"]')!;
      expect(primary.textContent!.trim()).to.equal(en.tryAgain);
      await expect(el).to.be.accessible();

      primary.click();
      await reach(el, 'result', 10_000);
      const log = await fake.log();
      expect(uploads(log), 'the photo is uploaded once').to.have.length(1);
      const [first, second] = submits(log) as [FakeRequest, FakeRequest];
      expect(submits(log)).to.have.length(2);
      expect(second.body!.photo, 'the same photo handle').to.equal(first.body!.photo);
      // A new try-on: the lost one is final, its requestId would only find it again.
      expect(second.body!.requestId).to.not.equal(first.body!.requestId);
    });
  }

  it('a photo the service no longer has is asked for again: "Start again with your photo", then sent afresh', async () => {
    const fake = await fakeProxy({ tryonErrors: [{ status: 410, code: 'photo_expired', retryable: false }] });
    const el = await mount(fake);
    const events = recordEvents(el);
    await submitTryon(el);
    await reach(el, 'error');
    expect(alertText(el)).to.equal(en.error_photo_expired);
    expect(events.find((e) => e.type === 'tryon-error')!.detail.code).to.equal('photo_expired');
    const primary = panelRoot(el).querySelector<HTMLButtonElement>('[part="primary-button"]')!;
    expect(primary.textContent!.trim()).to.equal(en.startAgain);
    await expect(el).to.be.accessible();
    // Its handle is useless now: "Use my last photo" is not offered with it.
    expect(sessionStorage.length).to.equal(0);

    primary.click();
    await reach(el, 'photo');
    expect(panelRoot(el).querySelector('img[part="preview"]'), 'the photo chosen here is kept').to.exist;
    button(el, 'Try it on').click();
    await reach(el, 'result');
    const log = await fake.log();
    expect(uploads(log), 'sent again').to.have.length(2);
    const [first, second] = submits(log) as [FakeRequest, FakeRequest];
    expect(second.body!.photo).to.not.equal(first.body!.photo);
  });
});
