// The photo step around the photo check, through the real widget and the real check (worker,
// models, opencv-doc photos): tips that say what the product needs, where the check looked drawn
// over the thumbnail (the figure's outline, the face's box) and described in words, a verdict that fits
// a 1366×768 laptop without scrolling, and, on a phone in a hand-off, no word of the check left
// once the photo has gone to the computer. Each verdict is awaited through `tryon-photo-check`.
import { expect } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import { ar } from '../../widget/i18n/ar.js';
import { checkEn } from '../../widget/photo/check/i18n/english.js';
import checkAr from '../../widget/photo/check/i18n/check-ar.js';
import { button, dialogOf, fakeProxy, mount, openAndConsent, panelRoot, statusText, until } from './helpers.js';
import { checked, checks, kurta, photo, pick, saree, verdict } from './check-photos.js';
import { viewport } from './media.js';

const tips = (el: TryonButton) =>
  [...panelRoot(el).querySelectorAll('[part="photo"] ul li')].map((li) => li.textContent!.trim());
const overlay = (el: TryonButton) => panelRoot(el).querySelector<SVGSVGElement>('.thumb svg.check-overlay');

/** The outline's points as [x, y] pairs of its 100 × 100 box. */
function outline(svg: SVGSVGElement): [number, number][] {
  const points = svg.querySelector('polygon')!.getAttribute('points')!.trim().split(/\s+/);
  return points.map((pair) => pair.split(',').map(Number) as [number, number]);
}

describe('the photo step with the photo check', function () {
  this.timeout(90_000);
  beforeEach(() => sessionStorage.clear());
  after(() => viewport({ width: 800, height: 600 }));

  it('tips follow the product: head to feet for a saree, upper body for a kurta', async () => {
    for (const [product, tip, other] of [
      [saree, en.tipWholeBody, en.tipUpperBody],
      [kurta, en.tipUpperBody, en.tipWholeBody],
    ] as const) {
      const fake = await fakeProxy({ product });
      const el = await mount(fake, { 'photo-check': 'strict', product: product.product });
      await openAndConsent(el);
      await until(() => tips(el).includes(tip), `the tip "${tip}"`);
      expect(tips(el)).to.not.include(other);
      expect(tips(el)).to.not.include(en.tipBody);
      el.remove();
    }
  });

  it('the tips in Arabic say the product needs the whole body', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { 'photo-check': 'strict', lang: 'ar' });
    await openAndConsent(el, 'متابعة');
    await until(() => tips(el).includes(ar.tipWholeBody!), 'the Arabic tip');
  });

  it('a padded half-length photo: the outline ends at the waist, the face boxed, both described', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { 'photo-check': 'warn' });
    const seen = checks(el);
    const detail = await checked(el, 'padded', seen);
    expect(detail).to.deep.include({ result: 'fail', reasons: ['not_full_body'], mode: 'warn' });
    const svg = overlay(el)!;
    expect(svg, 'the drawing over the thumbnail').to.exist;
    expect(svg.getAttribute('role')).to.equal('img');
    expect(svg.getAttribute('aria-label')).to.equal(`${checkEn.lookedFigure} ${checkEn.lookedFace}`);
    // The figure ends where the photo's content does (290 of 900 px), far above the blank below it.
    const lowest = Math.max(...outline(svg).map(([, y]) => y));
    expect(lowest).to.be.within(20, 45);
    const face = svg.querySelector('rect')!;
    expect(Number(face.getAttribute('y'))).to.be.below(lowest);
    // Drawn over the thumbnail, the same size as it.
    const image = panelRoot(el).querySelector('[part="preview"]')!.getBoundingClientRect();
    const drawn = svg.getBoundingClientRect();
    expect([drawn.left, drawn.top, drawn.width, drawn.height].map(Math.round)).to.deep.equal(
      [image.left, image.top, image.width, image.height].map(Math.round),
    );
    // "Use it anyway": the refusal goes, and its drawing with it.
    button(el, checkEn.useAnyway).click();
    await until(() => seen.length === 2, 'the overridden event');
    await until(() => !overlay(el), 'the drawing gone');
  });

  it('books: no person, the outline of what the segmentation found and no face box', async () => {
    const fake = await fakeProxy({ product: kurta });
    const el = await mount(fake, { 'photo-check': 'strict', product: 'kurta-white' });
    const seen = checks(el);
    const detail = await checked(el, 'books', seen);
    expect(detail).to.deep.include({ result: 'fail', reasons: ['no_person'] });
    expect(verdict(el)!.textContent).to.contain(checkEn.no_person);
    expect(overlay(el)!.getAttribute('aria-label')).to.equal(checkEn.lookedFigure);
    expect(overlay(el)!.querySelector('polygon')).to.exist;
    expect(overlay(el)!.querySelector('rect')).to.equal(null);
  });

  it('no drawing with a pass', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { 'photo-check': 'strict' });
    const seen = checks(el);
    expect(await checked(el, 'full', seen)).to.deep.include({ result: 'pass' });
    expect(overlay(el)).to.equal(null);
  });

  it('the drawing right to left: over the photo, not mirrored; the words in Arabic', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { 'photo-check': 'warn', lang: 'ar' });
    const seen = checks(el);
    await checked(el, 'padded', seen, 'متابعة');
    await until(() => overlay(el)?.getAttribute('aria-label')?.includes(checkAr.lookedFigure), 'the Arabic words');
    expect(dialogOf(el).getAttribute('dir')).to.equal('rtl');
    const svg = overlay(el)!;
    const image = panelRoot(el).querySelector('[part="preview"]')!.getBoundingClientRect();
    expect(Math.round(svg.getBoundingClientRect().left)).to.equal(Math.round(image.left));
    // The face box sits where the face is in the photo (left of centre in padded.jpg), not mirrored.
    const face = svg.querySelector('rect')!;
    expect(Number(face.getAttribute('x'))).to.be.below(50);
    await expect(el).to.be.accessible();
  });

  for (const [name, mode] of [
    ['padded', 'warn'],
    ['several', 'warn'],
    ['books', 'strict'],
  ] as const)
    it(`a verdict (${name}, ${mode}) fits a 1366×768 laptop without scrolling`, async () => {
      await viewport({ width: 1366, height: 768 });
      const fake = await fakeProxy({ product: saree });
      const el = await mount(fake, { 'photo-check': mode });
      const seen = checks(el);
      expect(await checked(el, name, seen)).to.deep.include({ result: 'fail' });
      const dialog = dialogOf(el);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(dialog.scrollHeight, 'the dialog scrolls').to.be.at.most(dialog.clientHeight);
      // And the verdict's first button is on screen, at least 44 px tall.
      const first = button(el, checkEn.chooseAnother).getBoundingClientRect();
      expect(first.bottom).to.be.at.most(innerHeight);
      expect(first.height).to.be.at.least(44);
    });

  it('on the phone in a hand-off: "could not be checked" is gone once the photo went to the computer', async () => {
    const fake = await fakeProxy({ product: saree });
    history.replaceState(null, '', `${location.pathname}${location.search}#tryon-handoff=K7QF3MZD9X`);
    const el = await mount(fake, { 'photo-check': 'strict' });
    const seen = checks(el);
    const RealWorker = window.Worker;
    // A phone whose browser cannot run the check.
    (window as { Worker?: unknown }).Worker = undefined;
    const warn = console.warn;
    console.warn = () => {};
    try {
      await openAndConsent(el);
      await pick(el, await photo('full'));
      await until(() => seen.length > 0, 'the check');
      expect(seen[0]).to.deep.include({ result: 'unavailable' });
      await until(() => statusText(el).includes(checkEn.unavailable), 'the check said unavailable');
      button(el, 'Send to my computer').click();
      await until(() => panelRoot(el).querySelector('[part="handoff-sent"]'), 'the number to type on the computer');
      expect(statusText(el)).to.not.contain(checkEn.unavailable);
      expect(panelRoot(el).textContent).to.not.contain(checkEn.unavailable);
    } finally {
      window.Worker = RealWorker;
      console.warn = warn;
      history.replaceState(null, '', `${location.pathname}${location.search}`);
    }
  });
});
