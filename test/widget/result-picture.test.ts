// The result leads with the picture, measured in each engine at a 1366×768 laptop and a 390×844
// phone: the try-on shown whole (no half of it under the shopper's photo), "Show my photo" and
// "Before and after" as toggles from the keyboard, the divide's handle a thumb's size, "ready"
// said once in the one live region, Download saying the file's name, right to left, axe-clean,
// and the screenshots of the step under docs/screenshots/, named by engine and size.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import { ar } from '../../widget/i18n/ar.js';
import { emulate, engine, saveScreenshot, viewport } from './media.js';
import type { Fake } from './helpers.js';
import {
  button,
  dialogOf,
  drawnPhoto,
  fakeProxy,
  focused,
  openAndConsent,
  panelRoot,
  pickPhoto,
  reach,
  statusText,
  until,
} from './helpers.js';

const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
/** A portrait try-on (600×900), same-origin, as a real try-on's image is. */
const PORTRAIT = new URL('/test/widget/portrait.svg', location.href).href;
const saree = { views: ['front'], video: false, tier: 'standard', name: 'Red Banarasi saree' };

async function mountOn(fake: Fake, lang = 'en'): Promise<TryonButton> {
  const page = await fixture<HTMLDivElement>(html`<div></div>`);
  page.innerHTML = `<tryon-button product="saree-red" endpoint="${fake.endpoint}" prefetch="interaction" poll-interval="50" photo-check="off" lang="${lang}"></tryon-button>`;
  const el = page.querySelector('tryon-button')!;
  el.pollInterval = 50;
  await el.updateComplete;
  return el;
}

/** Consent, a drawn photo (the "before"), "Try it on": by parts, so it reads the same in Arabic. */
async function toResult(el: TryonButton, lang = 'en'): Promise<void> {
  await openAndConsent(el, lang === 'ar' ? ar.continue! : en.continue);
  await pickPhoto(el, await drawnPhoto(400, 600));
  panelRoot(el).querySelector<HTMLButtonElement>('[part="primary-button"]:not([disabled])')!.click();
  await reach(el, 'result');
  await decoded(el);
}

async function decoded(el: TryonButton): Promise<void> {
  const images = () => [...panelRoot(el).querySelectorAll<HTMLImageElement>('img')];
  await until(
    () => images().length > 0 && images().every((img) => img.complete && img.naturalWidth > 0),
    'the images decoded',
  );
}

const picture = (el: TryonButton) => panelRoot(el).querySelector<HTMLImageElement>('img[part="image"]')!;
const photo = (el: TryonButton) => panelRoot(el).querySelector<HTMLImageElement>('img.photo')!;
const photoToggle = (el: TryonButton) => panelRoot(el).querySelector<HTMLButtonElement>('[part~="photo-toggle"]')!;
const compareToggle = (el: TryonButton) => panelRoot(el).querySelector<HTMLButtonElement>('[part~="compare-toggle"]')!;

/** The box an object-fit: contain image is drawn in, from its natural size. */
function drawnBox(img: HTMLImageElement): { left: number; top: number; width: number; height: number } {
  const box = img.getBoundingClientRect();
  const scale = Math.min(box.width / img.naturalWidth, box.height / img.naturalHeight);
  const width = img.naturalWidth * scale;
  const height = img.naturalHeight * scale;
  return { left: box.left + (box.width - width) / 2, top: box.top + (box.height - height) / 2, width, height };
}

/**
 * What the shopper sees across the picture's drawn box: the element hit at nine points, from
 * near the start edge to near the end edge, at three heights. All of them one image: shown whole.
 */
function seenAcross(el: TryonButton, img: HTMLImageElement): (Element | null)[] {
  const box = drawnBox(img);
  const root = panelRoot(el);
  const hits: (Element | null)[] = [];
  for (const y of [0.2, 0.5, 0.8])
    for (const x of [0.05, 0.5, 0.95])
      hits.push(root.elementFromPoint(box.left + box.width * x, box.top + box.height * y));
  return hits;
}

/** Two frames: a render and its layout have reached the screen. */
const painted = () =>
  new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(undefined))));

/** Counts each text the live region takes, from now on. */
function liveRegionLog(el: TryonButton): { said: string[]; stop(): void } {
  const region = panelRoot(el).querySelector('[role="status"]')!;
  const said: string[] = [];
  let last = region.textContent!.trim();
  const observer = new MutationObserver(() => {
    const now = region.textContent!.trim();
    if (now !== last && now) said.push(now);
    last = now;
  });
  observer.observe(region, { childList: true, characterData: true, subtree: true });
  return { said, stop: () => observer.disconnect() };
}

describe('the result leads with the picture', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(async () => {
    await emulate({ reducedMotion: 'no-preference' });
    await viewport({ width: 800, height: 600 });
  });

  for (const size of [LAPTOP, PHONE]) {
    it(`shows the try-on whole and large at ${size.width}×${size.height}, axe-clean, and saves its screenshot`, async () => {
      await viewport(size);
      const fake = await fakeProxy({
        product: saree,
        steps: [{ status: 'succeeded', outputs: ['front'], url: PORTRAIT }],
      });
      const el = await mountOn(fake);
      await toResult(el);
      await painted();
      const img = picture(el);
      expect(panelRoot(el).querySelector('[role="slider"]'), 'no divide until asked for').to.equal(null);
      expect(getComputedStyle(img).visibility).to.equal('visible');
      expect(getComputedStyle(photo(el)).visibility, "the shopper's photo kept out of sight").to.equal('hidden');
      // Every point of the drawn box is the try-on: not half of it under the photo.
      expect(seenAcross(el, img).every((hit) => hit === img)).to.equal(true);
      const frame = img.closest('.frame')!.getBoundingClientRect();
      expect(img.getBoundingClientRect().width, "the picture spans the frame's width").to.be.closeTo(frame.width, 1);
      expect(drawnBox(img).height, 'large: most of the viewport left by the step').to.be.at.least(
        size === PHONE ? 300 : 340,
      );
      expect(panelRoot(el).querySelector('h3')!.textContent!.trim()).to.equal('Red Banarasi saree on you');
      await expect(el).to.be.accessible();
      // No focus ring in the picture: the shopper has not pressed a key.
      (focused(el) as HTMLElement | null)?.blur();
      await painted();
      const shot = await saveScreenshot(`result-${engine()}-${innerWidth}x${innerHeight}`);
      // The viewport, in CSS pixels (every engine here draws at a device pixel ratio of 1).
      expect([shot.width, shot.height]).to.deep.equal([innerWidth, innerHeight]);
      expect(shot.bytes)
        .to.be.above(1000)
        .and.below(400 * 1024);
    });
  }

  it('"Show my photo" shows the photo whole, then the try-on again, from the keyboard', async () => {
    await viewport(LAPTOP);
    const fake = await fakeProxy({
      product: saree,
      steps: [{ status: 'succeeded', outputs: ['front'], url: PORTRAIT }],
    });
    const el = await mountOn(fake);
    await toResult(el);
    const toggle = photoToggle(el);
    expect(toggle.textContent!.trim()).to.equal(en.showPhoto);
    expect(toggle.getAttribute('aria-pressed')).to.equal('false');
    toggle.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => toggle.getAttribute('aria-pressed') === 'true', 'the toggle pressed');
    await painted();
    const mine = photo(el);
    expect(getComputedStyle(mine).visibility).to.equal('visible');
    expect(mine.alt).to.equal(en.yourPhoto);
    expect(getComputedStyle(picture(el)).visibility).to.equal('hidden');
    expect(
      seenAcross(el, mine).every((hit) => hit === mine),
      'the photo whole',
    ).to.equal(true);
    // The frame does not move: both pictures keep their room.
    expect(focused(el)).to.equal(toggle);
    await expect(el).to.be.accessible();
    await sendKeys({ press: 'Space' });
    await until(() => toggle.getAttribute('aria-pressed') === 'false', 'the toggle released');
    await painted();
    expect(
      seenAcross(el, picture(el)).every((hit) => hit === picture(el)),
      'the try-on whole again',
    ).to.equal(true);
  });

  it('"Before and after" brings the divide, its handle at least 44 px on a phone, moved by keys; pressed again, the try-on whole', async () => {
    await viewport(PHONE);
    const fake = await fakeProxy({
      product: saree,
      steps: [{ status: 'succeeded', outputs: ['front'], url: PORTRAIT }],
    });
    const el = await mountOn(fake);
    await toResult(el);
    // WebKitGTK evaluates a stylesheet's @media again only once it is adopted anew (result-layout.test.ts).
    const adopted = panelRoot(el);
    adopted.adoptedStyleSheets = [...adopted.adoptedStyleSheets];
    expect(dialogOf(el).classList.contains('sheet')).to.equal(true);
    for (const toggle of [photoToggle(el), compareToggle(el)]) {
      const r = toggle.getBoundingClientRect();
      expect(Math.min(r.width, r.height), `${toggle.textContent!.trim()} is a 44 px target`).to.be.at.least(44);
    }
    const toggle = compareToggle(el);
    toggle.focus();
    await sendKeys({ press: 'Enter' });
    const slider = await until(
      () => panelRoot(el).querySelector<HTMLElement>('[role="slider"][part="compare-handle"]'),
      'the divide',
    );
    // The same button, still focused: a keyboard user stays where they pressed.
    expect(compareToggle(el)).to.equal(toggle);
    expect(focused(el)).to.equal(toggle);
    expect(toggle.getAttribute('aria-pressed')).to.equal('true');
    await decoded(el);
    await painted();
    const handle = slider.getBoundingClientRect();
    expect(handle.width, 'handle wide').to.be.at.least(44);
    expect(handle.height, 'handle tall').to.be.at.least(44);
    expect(slider.getAttribute('aria-valuenow')).to.equal('50');
    slider.focus();
    await sendKeys({ press: 'ArrowRight' });
    await until(() => slider.getAttribute('aria-valuenow') === '55', 'the divide at 55 %');
    await expect(el).to.be.accessible();
    compareToggle(el).click();
    await until(() => !panelRoot(el).querySelector('[role="slider"]'), 'the divide gone');
    await decoded(el);
    await painted();
    expect(seenAcross(el, picture(el)).every((hit) => hit === picture(el))).to.equal(true);
  });

  it('keeps the handle still under prefers-reduced-motion', async function () {
    await viewport(LAPTOP);
    if (!(await emulate({ reducedMotion: 'reduce' }))) this.skip();
    const fake = await fakeProxy({
      product: saree,
      steps: [{ status: 'succeeded', outputs: ['front'], url: PORTRAIT }],
    });
    const el = await mountOn(fake);
    await toResult(el);
    compareToggle(el).click();
    const slider = await until(() => panelRoot(el).querySelector<HTMLElement>('[role="slider"]'), 'the divide');
    expect(getComputedStyle(slider).transitionDuration).to.equal('0s');
  });

  it('says "ready" once, in the one live region, and Download says the name it saved the file under', async () => {
    await viewport(LAPTOP);
    const fake = await fakeProxy({
      product: saree,
      steps: [{ status: 'processing' }, { hold: true }, { status: 'succeeded', outputs: ['front'] }],
    });
    const el = await mountOn(fake);
    await openAndConsent(el);
    await pickPhoto(el, await drawnPhoto(400, 600));
    button(el, en.submit).click();
    await until(async () => (await fake.log()).some((r) => r.held), 'the render held');
    const log = liveRegionLog(el);
    await fake.release();
    await reach(el, 'result');
    await until(() => statusText(el) === en.ready, 'the ready text');
    const regions = panelRoot(el).querySelectorAll('[role="status"], [role="alert"], [aria-live]');
    expect(regions, 'one live region').to.have.length(1);
    // Said once, and nowhere else on screen: the heading names the try-on instead.
    expect(log.said.filter((text) => text === en.ready)).to.have.length(1);
    const shown = [...panelRoot(el).querySelectorAll('dialog *')].filter(
      (node) => node.children.length === 0 && node.textContent!.trim() === en.ready,
    );
    expect(shown, 'ready shown once').to.have.length(1);

    const clicked: string[] = [];
    const original = HTMLAnchorElement.prototype.click;
    // Stands in for the browser's download bar, which a headless test cannot see.
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    };
    try {
      button(el, en.download).click();
      await until(() => statusText(el).startsWith('Saved as'), 'the download said');
    } finally {
      HTMLAnchorElement.prototype.click = original;
    }
    expect(clicked).to.deep.equal(['saree-red-front.png']);
    expect(statusText(el)).to.equal(en.downloaded.replace('{file}', 'saree-red-front.png'));
    expect(log.said.filter((text) => text.startsWith('Saved as'))).to.have.length(1);
    log.stop();
  });

  it('Download that cannot fetch the file says so, not "saved"', async () => {
    await viewport(LAPTOP);
    const fake = await fakeProxy({
      product: saree,
      steps: [{ status: 'succeeded', outputs: ['front'], url: PORTRAIT }],
    });
    const el = await mountOn(fake);
    await toResult(el);
    const fetchBefore = window.fetch;
    window.fetch = () => Promise.reject(new TypeError('offline'));
    try {
      button(el, en.download).click();
      await until(() => statusText(el) === en.error_generic, 'the failure said');
    } finally {
      window.fetch = fetchBefore;
    }
    expect(statusText(el)).to.not.contain('Saved');
  });

  it('in Arabic: the toggles right to left, in Arabic words, 44 px on a phone, axe-clean', async () => {
    await viewport(PHONE);
    const fake = await fakeProxy({
      product: saree,
      steps: [{ status: 'succeeded', outputs: ['front'], url: PORTRAIT }],
    });
    const el = await mountOn(fake, 'ar');
    await toResult(el, 'ar');
    const adopted = panelRoot(el);
    adopted.adoptedStyleSheets = [...adopted.adoptedStyleSheets];
    const row = panelRoot(el).querySelector<HTMLElement>('[part="before-after"]')!;
    expect(getComputedStyle(row).direction).to.equal('rtl');
    const [mine, both] = [photoToggle(el), compareToggle(el)];
    expect([mine.textContent!.trim(), both.textContent!.trim()]).to.deep.equal([ar.showPhoto, ar.compare]);
    // The first toggle on the right.
    expect(mine.getBoundingClientRect().left).to.be.above(both.getBoundingClientRect().left);
    for (const toggle of [mine, both]) expect(toggle.getBoundingClientRect().height).to.be.at.least(44);
    const img = picture(el);
    await painted();
    expect(seenAcross(el, img).every((hit) => hit === img)).to.equal(true);
    await expect(el).to.be.accessible();
    mine.click();
    await until(() => mine.getAttribute('aria-pressed') === 'true', 'the photo shown');
    expect(photo(el).alt).to.equal(ar.yourPhoto);
    await expect(el).to.be.accessible();
  });
});
