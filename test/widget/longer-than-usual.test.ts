// How long a try-on usually takes comes from the proxy (GET /products' typicalSeconds): the
// progress step says "usually about" the proxy's figure (for the views asked, or the video), and
// once the try-on has taken twice that it says it is taking longer than usual, once in the live
// region, with "Keep waiting" (the note goes, the render goes on) beside "Cancel" (the run stops).
import { expect, fixture, html } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import {
  HELD_AFTER_QUEUED,
  button,
  control,
  fakeProxy,
  mount,
  panelRoot,
  reach,
  recordEvents,
  statusText,
  submitTryon,
  until,
} from './helpers.js';
import type { FakeStep } from './helpers.js';

const SAREE = {
  product: 'saree-red',
  views: ['front', 'side'],
  video: false,
  tier: 'premium',
  name: 'Red Banarasi saree',
  retention: { photoSeconds: 3600, resultSeconds: 86400, shareLinkSeconds: 86400 },
};

/** Every text the dialog's live region was given, in order. */
function recordAnnouncements(el: TryonButton): string[] {
  const said: string[] = [];
  const dialog = panelRoot(el).querySelector('dialog')!;
  new MutationObserver(() => {
    const text = statusText(el);
    if (text && text !== said.at(-1)) said.push(text);
  }).observe(dialog, { childList: true, characterData: true, subtree: true });
  return said;
}

const progressText = (el: TryonButton) =>
  panelRoot(el).querySelector('[part="progress"]')?.textContent?.replace(/\s+/g, ' ') ?? '';
const note = (el: TryonButton) => panelRoot(el).querySelector('.longer-than-usual');

/** Held while rendering, so the clock runs on until the test releases it. */
const HELD_RENDERING: FakeStep[] = [
  { status: 'queued' },
  { status: 'processing' },
  { hold: true },
  { status: 'succeeded', outputs: ['front', 'side'] },
];

describe("the progress step's time, from the proxy", function () {
  this.timeout(30_000);
  beforeEach(() => sessionStorage.clear());

  it("says the proxy's figure for the views asked, not the tier's slow case, and reports it in tryon-progress", async () => {
    const fake = await fakeProxy({
      product: { ...SAREE, typicalSeconds: { image: [4, 7] } },
      steps: HELD_RENDERING,
      holdPolls: true,
    });
    const el = await mount(fake);
    const events = recordEvents(el);
    await submitTryon(el);
    await reach(el, 'rendering');
    await until(() => progressText(el).includes('usually about'), 'the time so far against the usual time');
    expect(progressText(el)).to.contain('usually about 7 seconds');
    expect(progressText(el)).to.not.contain('60');
    const progress = events.filter((e) => e.type === 'tryon-progress' && e.detail.tryon);
    expect(progress.length).to.be.above(0);
    expect(progress.every((e) => e.detail.expectedMs === 7000)).to.equal(true);
    expect(note(el)).to.equal(null);
    await fake.release();
    await reach(el, 'result');
  });

  it('narrowed to one view, says the figure for one view', async () => {
    const fake = await fakeProxy({
      product: { ...SAREE, typicalSeconds: { image: [4, 7] } },
      steps: HELD_AFTER_QUEUED,
      holdPolls: true,
    });
    const el = await mount(fake, { views: 'front' });
    await submitTryon(el);
    await reach(el, 'queued');
    await until(() => progressText(el).includes('usually about'), 'the time so far against the usual time');
    expect(progressText(el)).to.contain('usually about 4 seconds');
    await fake.release();
  });

  it('after twice the figure: the note once in the live region, "Keep waiting" puts it away and the render goes on', async () => {
    const fake = await fakeProxy({
      product: { ...SAREE, typicalSeconds: { image: [1, 1] } },
      steps: HELD_RENDERING,
      holdPolls: true,
    });
    const el = await mount(fake);
    const events = recordEvents(el);
    await submitTryon(el);
    const said = recordAnnouncements(el);
    await reach(el, 'rendering');
    expect(progressText(el)).to.contain('usually about 1 second');
    await until(() => note(el), 'the "longer than usual" note', 10_000);
    // Not before twice the figure: the clock said at least 2 seconds when the note came.
    expect(Number(/(\d+) seconds? so far/.exec(progressText(el))?.[1])).to.be.at.least(2);
    expect(note(el)!.textContent!.trim()).to.equal(en.longerThanUsual);
    expect(statusText(el)).to.equal(en.longerThanUsual);
    const keep = button(el, en.keepWaiting);
    expect(button(el, en.cancel)).to.exist;
    await expect(el).to.be.accessible();

    keep.click();
    await until(() => !note(el), 'the note to go');
    expect(control(el, en.keepWaiting)).to.equal(undefined);
    // Focus stays in the step, on what is left to press.
    await until(() => panelRoot(el).activeElement === control(el, en.cancel), 'focus on "Cancel"');
    // The clock goes on, and the note does not come back for this try-on.
    const elapsed = () => Number(/(\d+) seconds? so far/.exec(progressText(el))?.[1] ?? NaN);
    const before = elapsed();
    await until(() => elapsed() > before, 'the clock to tick on');
    expect(note(el)).to.equal(null);
    expect(el.status).to.equal('rendering');

    await fake.release();
    await reach(el, 'result');
    expect(said.filter((text) => text === en.longerThanUsual)).to.have.length(1);
    expect(events.some((e) => e.type === 'tryon-result')).to.equal(true);
  });

  it('after twice the figure, "Cancel" cancels the try-on', async () => {
    const fake = await fakeProxy({
      product: { ...SAREE, typicalSeconds: { image: [1, 1] } },
      steps: HELD_RENDERING,
      holdPolls: true,
    });
    const el = await mount(fake);
    const events = recordEvents(el);
    await submitTryon(el);
    await until(() => note(el), 'the "longer than usual" note', 10_000);
    button(el, en.cancel).click();
    await reach(el, 'photo');
    expect(note(el)).to.equal(null);
    await fake.release();
    expect(events.some((e) => e.type === 'tryon-result')).to.equal(false);
    expect(el.status).to.equal('photo');
  });
});

describe('the usual time, from the real proxy', function () {
  this.timeout(60_000);
  beforeEach(() => sessionStorage.clear());

  it("reports the real proxy's typicalSeconds for the views asked as tryon-progress's expectedMs", async () => {
    const endpoint = '/real/tryon';
    const figure = async () => {
      const product = (await (await fetch(`${endpoint}/products/saree-test-red`)).json()) as {
        views: string[];
        typicalSeconds: { image: number[] };
      };
      return Math.max(1, product.typicalSeconds.image[product.views.length - 1]!) * 1000;
    };
    const before = await figure();
    const el = await fixture<TryonButton>(
      html`<tryon-button product="saree-test-red" endpoint=${endpoint} prefetch="interaction"></tryon-button>`,
    );
    el.pollInterval = 200;
    const seen = recordEvents(el);
    await submitTryon(el, { width: 600, height: 900 });
    const queued = await until(
      () => seen.find((e) => e.type === 'tryon-progress' && e.detail.tryon),
      'the first progress of the submitted try-on',
      30_000,
    );
    // Another test's try-on on this engine's proxy may finish meanwhile and move the median: before or after.
    expect([before, await figure()]).to.include(queued.detail.expectedMs);
    await until(() => seen.some((e) => e.type === 'tryon-result'), 'the result', 30_000);
  });
});
