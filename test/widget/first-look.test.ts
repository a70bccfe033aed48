// The first look: the quick draft the proxy makes beside the full render. It shows in the progress
// step as soon as it succeeds, marked, with the time the full render still needs and the compare on
// it, never with Download or Share; the full render replaces it (a crossfade, none under reduced
// motion), said once; a failed full render keeps it; a reload shows it again; tryon-preview and
// tryon_preview say how long it took.
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import {
  button,
  control,
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
  submitTryon,
  reloadPage,
} from './helpers.js';
import { ar } from '../../widget/i18n/ar.js';
import { emulate } from './media.js';

/** queued → the first look in → (held) → the full render. */
const withFirstLook = [
  { status: 'queued' },
  { status: 'processing', preview: 'succeeded' as const },
  { hold: true },
  { status: 'succeeded' as const, outputs: ['front'] },
];

const firstLook = (el: TryonButton) =>
  el.shadowRoot?.querySelector('tryon-panel')?.shadowRoot?.querySelector<HTMLElement>('[part="first-look"]') ?? null;
const lookImage = (el: TryonButton) => firstLook(el)?.querySelector<HTMLImageElement>('img[part="image"]');
const buttonNames = (el: TryonButton) =>
  [...panelRoot(el).querySelectorAll('button')].map((b) => b.textContent!.trim());

/** The first-look tests' drawn photo is 400 × 500. */
const submit = (el: TryonButton) => submitTryon(el, { width: 400, height: 500 });

/** Waits for the first look to be painted (its image decoded). */
async function lookPainted(el: TryonButton): Promise<HTMLImageElement> {
  const image = await until(() => lookImage(el), 'the first look');
  await until(() => image.complete && image.naturalWidth > 0, 'the first look decoded');
  return image;
}

describe('first look', () => {
  beforeEach(async () => {
    sessionStorage.clear();
    await emulate({ reducedMotion: 'no-preference' });
  });

  it('shows the draft as soon as it succeeds, marked, with the time the full render still needs, and no Download or Share', async () => {
    const fake = await fakeProxy({ steps: withFirstLook });
    const el = await mount(fake);
    const seen = recordEvents(el);
    await submit(el);
    const image = await lookPainted(el);
    expect(el.status).to.equal('rendering');
    expect(image.src).to.contain('/files/preview-front.png');
    expect(image.alt).to.equal(en.previewImageAlt.replace('{product}', 'Red Banarasi saree'));
    const look = firstLook(el)!;
    expect(look.querySelector('[part="first-look-badge"]')!.textContent!.trim()).to.equal(en.previewBadge);
    // The full render's time so far against the time expected.
    expect(look.textContent).to.match(/\d+ seconds? so far; usually about 25 seconds/);
    expect(statusText(el)).to.equal(en.previewReady);
    expect(buttonNames(el)).to.not.include(en.download);
    expect(buttonNames(el)).to.not.include(en.share);
    const preview = await until(() => seen.find((e) => e.type === 'tryon-preview'), 'tryon-preview');
    expect(preview.detail.product).to.equal('saree-red');
    expect(preview.detail.ms).to.be.a('number').and.to.be.at.least(0).and.below(8000);
    expect(preview.detail.tryon).to.match(/^tr_/);
    await expect(el).to.be.accessible();
  });

  it('the compare works on the first look, then on the full render that replaces it, said once', async () => {
    const fake = await fakeProxy({ steps: withFirstLook });
    const el = await mount(fake);
    await submit(el);
    await lookPainted(el);
    // Whole first, as the result: the divide is asked for with "Before and after".
    expect(firstLook(el)!.querySelector('[role="slider"]')).to.equal(null);
    firstLook(el)!.querySelector<HTMLButtonElement>('[part~="compare-toggle"]')!.click();
    const slider = await until(
      () => firstLook(el)!.querySelector<HTMLElement>('[role="slider"]'),
      'the divide on the first look',
    );
    expect(slider.getAttribute('aria-valuenow')).to.equal('50');
    slider.focus();
    await sendKeys({ press: 'ArrowRight' });
    await until(() => slider.getAttribute('aria-valuenow') === '55', 'the divide at 55 % on the first look');

    await fake.release();
    await reach(el, 'result');
    const full = await until(
      () => panelRoot(el).querySelector<HTMLImageElement>('[part="result"] img[part="image"]'),
      'the full render',
    );
    expect(full.src).to.contain('/files/front.png');
    expect(firstLook(el)).to.equal(null);
    // The first look fades out over it: a short crossfade.
    const fading = panelRoot(el).querySelector<HTMLImageElement>('.fade-out')!;
    expect(fading.src).to.contain('/files/preview-front.png');
    expect(fading.getAttribute('aria-hidden')).to.equal('true');
    expect(getComputedStyle(fading).animationName).to.equal('fade-out');
    expect(statusText(el)).to.equal(en.ready);
    // The full render arrives whole, whatever the first look was toggled to; its divide is asked for again.
    expect(panelRoot(el).querySelector('[part="result"] [role="slider"]')).to.equal(null);
    panelRoot(el).querySelector<HTMLButtonElement>('[part="result"] [part~="compare-toggle"]')!.click();
    const resultSlider = await until(
      () => panelRoot(el).querySelector<HTMLElement>('[part="result"] [role="slider"]'),
      'the divide on the full render',
    );
    expect(resultSlider.getAttribute('aria-valuenow'), 'from the middle again').to.equal('50');
    resultSlider.focus();
    await sendKeys({ press: 'ArrowLeft' });
    await until(() => resultSlider.getAttribute('aria-valuenow') === '45', 'the divide moved on the full render');
    expect(buttonNames(el)).to.include(en.download);
    await expect(el).to.be.accessible();
  });

  it('no crossfade under prefers-reduced-motion', async function () {
    const fake = await fakeProxy({ steps: withFirstLook });
    const el = await mount(fake);
    if (!(await emulate({ reducedMotion: 'reduce' }))) this.skip();
    await submit(el);
    await lookPainted(el);
    await fake.release();
    await reach(el, 'result');
    const fading = await until(
      () => panelRoot(el).querySelector<HTMLImageElement>('.fade-out'),
      'the replaced first look',
    );
    // Not drawn at all: the full render appears at once.
    expect(getComputedStyle(fading).display).to.equal('none');
    expect(statusText(el)).to.equal(en.ready);
  });

  it('a failed first look shows nothing of it, and the full render goes on', async () => {
    const fake = await fakeProxy({
      steps: [
        { status: 'queued' },
        { status: 'processing', preview: 'failed' },
        { hold: true },
        { status: 'succeeded', outputs: ['front'] },
      ],
    });
    const el = await mount(fake);
    const seen = recordEvents(el);
    await submit(el);
    await reach(el, 'rendering');
    await until(async () => (await fake.log()).some((r) => r.held), 'the stream at its hold');
    expect(firstLook(el)).to.equal(null);
    expect(statusText(el)).to.equal(en.rendering);
    await fake.release();
    await reach(el, 'result');
    expect(seen.some((e) => e.type === 'tryon-preview')).to.equal(false);
    expect(statusText(el)).to.equal(en.ready);
  });

  it('when the full render fails after the first look, the shopper keeps it, is told plainly, and can try again', async () => {
    const fake = await fakeProxy({
      steps: [
        { status: 'queued' },
        { status: 'processing', preview: 'succeeded' },
        { hold: true },
        { status: 'failed', error: { code: 'render_failed', message: 'upstream', retryable: true } },
      ],
    });
    const el = await mount(fake);
    await submit(el);
    await lookPainted(el);
    await fake.release();
    await reach(el, 'error');
    const alert = panelRoot(el).querySelector('[role="alert"]')!;
    expect(alert.textContent!.trim()).to.equal(en.previewFullFailed);
    const kept = await lookPainted(el);
    expect(kept.src).to.contain('/files/preview-front.png');
    expect(buttonNames(el)).to.not.include(en.download);
    expect(buttonNames(el)).to.not.include(en.share);
    await expect(el).to.be.accessible();
    const tries = async () => (await fake.log()).filter((r) => r.method === 'POST' && r.path === '/tryons').length;
    expect(await tries()).to.equal(1);
    button(el, en.tryAgain).click();
    await until(async () => (await tries()) === 2, 'a new try-on sent');
  });

  it('a reload during the render resumes with the first look shown', async () => {
    const fake = await fakeProxy({
      steps: [
        { status: 'queued' },
        { status: 'processing', preview: 'succeeded' },
        { hold: true },
        { status: 'succeeded', outputs: ['front'] },
      ],
      // Polled: at the hold each poll answers the last step again (the first look in, the full render not).
      sse: false,
    });
    const first = await mount(fake);
    await submit(first);
    await lookPainted(first);
    const { again, seen } = await reloadPage(first, fake, {}, 50);
    again.product = 'saree-red';
    const image = await lookPainted(again);
    expect(image.src).to.contain('/files/preview-front.png');
    const preview = await until(() => seen.find((e) => e.type === 'tryon-preview'), 'tryon-preview after the reload');
    expect(preview.detail.ms).to.be.at.least(0);
    await fake.release();
    await reach(again, 'result');
    expect((await fake.log()).filter((r) => r.path === '/tryons')).to.have.length(1);
  });

  it('tryon_preview reaches the analytics with duration_ms', async () => {
    const fake = await fakeProxy({ steps: withFirstLook });
    const el = await mount(fake, { analytics: 'dataLayer' });
    (window as unknown as { dataLayer: unknown[] }).dataLayer = [];
    await submit(el);
    await lookPainted(el);
    const layer = () => (window as unknown as { dataLayer: Record<string, unknown>[] }).dataLayer;
    const pushed = await until(() => layer().find((e) => e['event'] === 'tryon_preview'), 'tryon_preview');
    expect(pushed['product']).to.equal('saree-red');
    expect(pushed['duration_ms']).to.be.a('number').and.to.be.at.least(0);
    expect(Object.keys(pushed).sort()).to.deep.equal(['duration_ms', 'event', 'product']);
    await fake.release();
    await reach(el, 'result');
    expect(layer().map((e) => e['event'])).to.deep.equal([
      'tryon_open',
      'tryon_submit',
      'tryon_preview',
      'tryon_result',
    ]);
    delete (window as unknown as { dataLayer?: unknown }).dataLayer;
  });

  it('Arabic: the first look reads right to left, axe-clean', async () => {
    const fake = await fakeProxy({ steps: withFirstLook });
    const el = await mount(fake, { lang: 'ar' });
    await openAndConsent(el, ar.continue!);
    const primary = () => panelRoot(el).querySelector<HTMLButtonElement>('button.primary')!;
    await pickPhoto(el, await drawnPhoto(400, 500));
    primary().click();
    await lookPainted(el);
    expect(getComputedStyle(firstLook(el)!).direction).to.equal('rtl');
    expect(firstLook(el)!.querySelector('[part="first-look-badge"]')!.textContent!.trim()).to.equal('معاينة سريعة');
    expect(control(el, 'إغلاق') ?? panelRoot(el).querySelector('.close')).to.exist;
    await expect(el).to.be.accessible();
    await fake.release();
  });
});
