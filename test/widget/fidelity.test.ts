// What the shopper is told of the proxy's check of a result against the product: "checked" when it
// held, "may differ" with the product's own garment image beside the render when it did not,
// nothing when unchecked, a note while a view is made again; the alt text, the live region, the
// `tryon-fidelity` event and the `tryon_fidelity` conversion, in English and right to left.
import { expect } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import {
  dialogOf,
  drawnPhoto,
  fakeProxy,
  mount,
  panelRoot,
  pickPhoto,
  reach,
  recordEvents,
  statusText,
  submitTryon,
  until,
} from './helpers.js';
import type { FakeStep } from './helpers.js';

/** A saree in two colours, each with its garment image (GET /products' `swatch`). */
const saree = {
  views: ['front', 'back'],
  video: false,
  tier: 'standard',
  name: 'Banarasi saree',
  swatch: 'files/swatch-own.png',
  variants: [
    { id: 'ivory', name: 'Ivory', swatch: 'files/swatch-ivory.png' },
    { id: 'sindoor-red', name: 'Sindoor red', swatch: 'files/swatch-sindoor-red.png' },
  ],
};

const checked = (verdict: string, rerender?: 'running' | 'done' | 'failed') => ({
  verdict,
  views: [
    { view: 'front', colour: { deltaE: verdict === 'differs' ? 14.26 : 2.04 }, coverage: 'ok' },
    { view: 'back', colour: { deltaE: 3.5 }, coverage: 'ok' },
  ],
  ...(rerender ? { rerender } : {}),
});

const finished = (verdict: string): FakeStep[] => [
  { status: 'processing' },
  { status: 'succeeded', outputs: ['front', 'back'], fidelity: checked(verdict) },
];

const label = (el: TryonButton) => panelRoot(el).querySelector<HTMLElement>('[part="fidelity"]');
const swatch = (el: TryonButton) => panelRoot(el).querySelector<HTMLImageElement>('[part="fidelity-swatch"]');
const resultImage = (el: TryonButton) => panelRoot(el).querySelector<HTMLImageElement>('img[part="image"]');
const dataLayer = () => (window as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? [];
const fidelityEvents = (seen: { type: string; detail: unknown }[]) => seen.filter((e) => e.type === 'tryon-fidelity');

/** WCAG 2 contrast of two computed rgb() colours. */
function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r, g, b] = /rgba?\(([^)]+)\)/
      .exec(colour)![1]!
      .split(',')
      .map((part) => Number.parseFloat(part) / 255)
      .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('what the shopper is told of the check against the product', () => {
  beforeEach(() => {
    sessionStorage.clear();
    delete (window as { dataLayer?: unknown }).dataLayer;
  });

  it('says "Colours checked against the product" when it held, in the alt text too, readable, once to the page and analytics', async () => {
    const fake = await fakeProxy({ product: saree, steps: finished('true') });
    const el = await mount(fake, { variant: 'ivory', analytics: 'dataLayer' });
    const seen = recordEvents(el);
    await submitTryon(el);
    await reach(el, 'result');
    await until(() => label(el), 'the label');
    expect(label(el)!.textContent!.trim()).to.equal('Colours checked against the product');
    expect(label(el)!.dataset['verdict']).to.equal('true');
    // Nothing to compare with when the colours match: no garment image beside it.
    expect(swatch(el)).to.equal(null);
    expect(resultImage(el)!.alt).to.equal('You wearing Banarasi saree — Colours checked against the product');
    const colours = getComputedStyle(label(el)!);
    expect(contrast(colours.color, getComputedStyle(dialogOf(el)).backgroundColor)).to.be.at.least(4.5);
    // The live region says the result is ready, as ever: the label is beside the picture, not a second announcement.
    expect(statusText(el)).to.equal('Your try-on is ready.');

    const events = fidelityEvents(seen);
    const tryon = (events[0]?.detail as { tryon: string } | undefined)?.tryon;
    expect(tryon).to.match(/^tr_/);
    expect(events.map((e) => e.detail)).to.deep.equal([
      { product: 'saree-red', variant: 'ivory', tryon, ...checked('true') },
    ]);
    // After tryon-result, as the page would expect: the result first, then what was checked of it.
    expect(seen.map((e) => e.type).filter((t) => t === 'tryon-result' || t === 'tryon-fidelity')).to.deep.equal([
      'tryon-result',
      'tryon-fidelity',
    ]);
    expect(dataLayer().filter((e) => e['event'] === 'tryon_fidelity')).to.deep.equal([
      {
        event: 'tryon_fidelity',
        product: 'saree-red',
        variant: 'ivory',
        verdict: 'true',
        views: 'front,back',
        delta_e: 3.5,
      },
    ]);
    await expect(el).to.be.accessible();
  });

  it('says "Colours may differ from the product photo" with the tried colour\'s garment image beside the render', async () => {
    const fake = await fakeProxy({ product: saree, steps: finished('differs') });
    const el = await mount(fake, { variant: 'sindoor-red', analytics: 'dataLayer' });
    const seen = recordEvents(el);
    await submitTryon(el);
    await reach(el, 'result');
    await until(() => swatch(el)?.complete && swatch(el)!.naturalWidth > 0, 'the garment image');
    expect(label(el)!.textContent!.trim()).to.equal('Colours may differ from the product photo');
    expect(label(el)!.dataset['verdict']).to.equal('differs');
    // The variant's own garment image, not the product's, named for what it is.
    expect(new URL(swatch(el)!.src).pathname).to.equal(`${fake.endpoint}/files/swatch-sindoor-red.png`);
    expect(swatch(el)!.alt).to.equal('Product photo of Banarasi saree');
    const box = swatch(el)!.getBoundingClientRect();
    expect(box.width, 'seen, not a dot').to.be.at.least(44);
    expect(box.height).to.be.at.least(44);
    expect(resultImage(el)!.alt).to.equal('You wearing Banarasi saree — Colours may differ from the product photo');
    // Beside the render: under the image, above the actions.
    const image = resultImage(el)!.getBoundingClientRect();
    const actions = panelRoot(el).querySelector('[part="actions"]')!.getBoundingClientRect();
    expect(box.top).to.be.at.least(image.bottom - 1);
    expect(box.bottom).to.be.at.most(actions.top + 1);

    expect(fidelityEvents(seen).map((e) => (e.detail as { verdict: string }).verdict)).to.deep.equal(['differs']);
    expect(dataLayer().filter((e) => e['event'] === 'tryon_fidelity')).to.deep.equal([
      {
        event: 'tryon_fidelity',
        product: 'saree-red',
        variant: 'sindoor-red',
        verdict: 'differs',
        views: 'front,back',
        delta_e: 14.3,
      },
    ]);
    await expect(el).to.be.accessible();
  });

  it("right to left, in Arabic: the label in its words, the garment image at the line's start, axe-clean", async () => {
    const fake = await fakeProxy({ product: saree, steps: finished('differs') });
    const el = await mount(fake, { lang: 'ar' });
    await el.open();
    await reach(el, 'consent');
    panelRoot(el).querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    await reach(el, 'consent');
    panelRoot(el).querySelector<HTMLButtonElement>('button.primary')!.click();
    await reach(el, 'photo');
    await pickPhoto(el, await drawnPhoto(500, 700));
    panelRoot(el).querySelector<HTMLButtonElement>('button.primary')!.click();
    await reach(el, 'result');
    await until(() => swatch(el)?.complete && swatch(el)!.naturalWidth > 0, 'the garment image');
    expect(dialogOf(el).getAttribute('dir')).to.equal('rtl');
    expect(label(el)!.textContent!.trim()).to.equal('قد تختلف الألوان عن صورة المنتج');
    // No variant tried: the product's own garment image.
    expect(new URL(swatch(el)!.src).pathname).to.equal(`${fake.endpoint}/files/swatch-own.png`);
    expect(swatch(el)!.alt).to.equal('صورة المنتج Banarasi saree');
    expect(resultImage(el)!.alt).to.equal('إطلالتك في Banarasi saree — قد تختلف الألوان عن صورة المنتج');
    const words = label(el)!.querySelector('span')!.getBoundingClientRect();
    expect(swatch(el)!.getBoundingClientRect().left, 'the image on the right of the words').to.be.greaterThan(
      words.left,
    );
    await expect(el).to.be.accessible();
  });

  it('claims nothing when the check could not run, and says so to the page', async () => {
    const fake = await fakeProxy({
      product: saree,
      steps: [{ status: 'succeeded', outputs: ['front', 'back'], fidelity: { verdict: 'unchecked', views: [] } }],
    });
    const el = await mount(fake, { variant: 'ivory', analytics: 'dataLayer' });
    const seen = recordEvents(el);
    await submitTryon(el);
    await reach(el, 'result');
    await until(() => fidelityEvents(seen).length, 'tryon-fidelity');
    await el.updateComplete;
    expect(label(el)).to.equal(null);
    expect(panelRoot(el).textContent).to.not.contain('Colours');
    expect(resultImage(el)!.alt).to.equal('You wearing Banarasi saree');
    expect(fidelityEvents(seen).map((e) => e.detail)).to.deep.equal([
      {
        product: 'saree-red',
        variant: 'ivory',
        tryon: (fidelityEvents(seen)[0]!.detail as { tryon: string }).tryon,
        verdict: 'unchecked',
        views: [],
      },
    ]);
    // No colour difference is sent for what was not checked.
    expect(dataLayer().filter((e) => e['event'] === 'tryon_fidelity')).to.deep.equal([
      { event: 'tryon_fidelity', product: 'saree-red', variant: 'ivory', verdict: 'unchecked', views: '' },
    ]);
  });

  it('says the colours are being made again while a view that differed is re-rendered, then what the new one holds', async () => {
    const fake = await fakeProxy({
      product: saree,
      steps: [
        { status: 'processing', outputs: ['front', 'back'], fidelity: checked('differs', 'running') },
        { hold: true },
        { status: 'succeeded', outputs: ['front', 'back'], fidelity: checked('true', 'done') },
      ],
    });
    const el = await mount(fake, { variant: 'ivory' });
    const seen = recordEvents(el);
    await submitTryon(el);
    await until(() => label(el)?.dataset['verdict'] === 'running', 'the note');
    await until(() => statusText(el), 'the live region');
    const note = 'Making the colours again to match the product photo…';
    expect(label(el)!.textContent!.trim()).to.equal(note);
    // The region the panel has, and only it, says so.
    expect(statusText(el)).to.equal(note);
    expect(panelRoot(el).querySelectorAll('[role="status"], [aria-live]').length).to.equal(1);
    // The render shown meanwhile is the one that differed: its alt says so, and no "checked" is claimed yet.
    expect(resultImage(el)!.alt).to.equal('You wearing Banarasi saree — Colours may differ from the product photo');
    expect(panelRoot(el).textContent).to.not.contain('Colours checked');
    expect(fidelityEvents(seen)).to.deep.equal([]);
    await expect(el).to.be.accessible();

    await fake.release();
    await until(() => label(el)?.dataset['verdict'] === 'true', 'the checked label');
    expect(label(el)!.textContent!.trim()).to.equal('Colours checked against the product');
    await until(() => statusText(el) === 'Your try-on is ready.', 'ready');
    const events = fidelityEvents(seen);
    expect(events.length).to.equal(1);
    expect(events[0]!.detail).to.include({ verdict: 'true', rerender: 'done' });
  });

  it('says the colours are being made again under the first look shown meanwhile', async () => {
    const fake = await fakeProxy({
      product: saree,
      steps: [
        { status: 'processing', preview: 'succeeded', fidelity: checked('differs', 'running') },
        { hold: true },
        { status: 'succeeded', outputs: ['front', 'back'], fidelity: checked('true', 'done') },
      ],
    });
    const el = await mount(fake);
    await submitTryon(el);
    await until(
      () => panelRoot(el).querySelector('[part="first-look"] [part="fidelity"]'),
      'the note under the first look',
    );
    expect(el.status).to.equal('rendering');
    const note = panelRoot(el).querySelector('[part="first-look"] [part="fidelity"]')!;
    expect(note.textContent!.trim()).to.equal('Making the colours again to match the product photo…');
    await until(() => statusText(el) === note.textContent!.trim(), 'the live region');
    await fake.release();
    await reach(el, 'result');
    await until(() => label(el)?.dataset['verdict'] === 'true', 'the checked label');
  });
});
