// The first look and the full render race upstream: when the full render is in first, the first
// look is late. It is then not shown, not announced and not reported: `tryon-preview` never comes
// after `tryon-result` (once seen in e2e, when the sandbox finished the full render before the draft).
import { expect } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import {
  button,
  drawnPhoto,
  fakeProxy,
  mount,
  openAndConsent,
  panelRoot,
  pickPhoto,
  reach,
  recordEvents,
  statusText,
  until,
} from './helpers.js';

const firstLookImage = (el: TryonButton) =>
  panelRoot(el).querySelector<HTMLImageElement>('[part="first-look"] img[part="image"]');

async function submit(el: TryonButton): Promise<void> {
  await openAndConsent(el);
  await pickPhoto(el, await drawnPhoto(400, 500));
  button(el, 'Try it on').click();
}

describe('a first look after the full render', () => {
  beforeEach(() => sessionStorage.clear());

  it('is neither shown, announced nor reported when the proxy answers the result first (the draft with it)', async () => {
    const fake = await fakeProxy({
      steps: [{ status: 'queued' }, { status: 'succeeded', outputs: ['front'], preview: 'succeeded' }],
    });
    const el = await mount(fake);
    const seen = recordEvents(el);
    await submit(el);
    await reach(el, 'result');
    await until(() => seen.some((e) => e.type === 'tryon-result'), 'tryon-result');
    expect(panelRoot(el).querySelector('[part="first-look"]')).to.equal(null);
    expect(statusText(el)).to.equal(en.ready);
    expect(seen.map((e) => e.type)).to.not.include('tryon-preview');
  });

  it('painted only once the result replaced it, it is not reported after tryon-result', async () => {
    const fake = await fakeProxy({
      steps: [
        { status: 'queued' },
        { status: 'processing', preview: 'succeeded' },
        { hold: true },
        { status: 'succeeded', outputs: ['front'], preview: 'succeeded' },
      ],
    });
    const el = await mount(fake);
    const seen = recordEvents(el);
    await submit(el);
    const image = await until(() => firstLookImage(el), 'the first look');
    await fake.release();
    await reach(el, 'result');
    await until(() => seen.some((e) => e.type === 'tryon-result'), 'tryon-result');
    expect(firstLookImage(el)).to.equal(null);
    // The detached image finishing its load now, as a slow one does after the result took its place.
    image.dispatchEvent(new Event('load'));
    const types = seen.map((e) => e.type);
    const preview = types.indexOf('tryon-preview');
    expect(preview === -1 || preview < types.indexOf('tryon-result'), types.join(', ')).to.equal(true);
    expect(types.filter((t) => t === 'tryon-preview').length).to.be.at.most(1);
  });
});
