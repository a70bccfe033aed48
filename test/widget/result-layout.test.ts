// The result step measured in a real browser: colours computed for contrast, every control of the
// result inside the dialog's scroll box at a laptop's and a phone's viewport, the comparison's
// travel over the image's drawn box, the phone sheet and its touch targets.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { emulate, viewport } from './media.js';
import type { TryonButton } from '../../widget/tryon-button.js';
import type { Fake, Scenario } from './helpers.js';
import {
  button,
  control,
  dialogOf,
  drawnPhoto,
  fakeProxy,
  openAndConsent,
  panelRoot,
  pickPhoto,
  reach,
  until,
  tryOnUntil,
} from './helpers.js';

/** The demo shop's accent (Kapda & Co.'s vermilion). */
const DEMO_ACCENT = '#b3341f';
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
/** A portrait result (600×900), same-origin, as a real try-on's image is. */
const PORTRAIT = new URL('/test/widget/portrait.svg', location.href).href;
const catalog = {
  views: ['front', 'three_quarter_left', 'side', 'back'],
  video: true,
  tier: 'premium',
  name: 'Emerald Bridal Lehenga',
};

function channels(colour: string): number[] {
  const match = /rgba?\(([^)]+)\)/.exec(colour);
  if (!match) throw new Error(`not an rgb() colour: ${colour}`);
  return match[1]!.split(',').map((part) => Number.parseFloat(part));
}

/** WCAG 2 relative luminance and contrast ratio of two computed colours. */
function luminance(colour: string): number {
  const [r, g, b] = channels(colour)
    .map((c) => c / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

async function mountOn(fake: Fake, style = '', attributes = ''): Promise<TryonButton> {
  const page = await fixture<HTMLDivElement>(html`<div style=${style}></div>`);
  // The markup a shop writes; attributes as the page gives them.
  page.innerHTML = `<tryon-button product="saree-red" endpoint="${fake.endpoint}" prefetch="interaction" poll-interval="50" ${attributes}></tryon-button>`;
  const el = page.querySelector('tryon-button')!;
  el.pollInterval = 50;
  await el.updateComplete;
  return el;
}

const toResult = (el: TryonButton) => tryOnUntil(el, 'result', { width: 400, height: 600 });

const images = (el: TryonButton) => [...panelRoot(el).querySelectorAll<HTMLImageElement>('img')];

async function decoded(el: TryonButton): Promise<void> {
  await until(
    () => images(el).length > 0 && images(el).every((img) => img.complete && img.naturalWidth > 0),
    'the images to be decoded',
  );
}

/** Every control and text of the result step a shopper must be able to see or reach. */
function resultControls(el: TryonButton): { name: string; node: HTMLElement }[] {
  const root = panelRoot(el);
  const nodes = [
    ...root.querySelectorAll<HTMLElement>(
      '[part="result"] h3, [part="image"], [role="tab"], [role="slider"], [part="actions"] button, [part="before-after"] button, video, [role="status"]',
    ),
  ].filter((node) => node.getClientRects().length > 0);
  return nodes.map((node) => ({
    name: (node.getAttribute('aria-label') ?? node.textContent ?? node.tagName).trim().slice(0, 40) || node.tagName,
    node,
  }));
}

/** The dialog's visible scroll box (its padding box, without scrollbars), clipped to the viewport. */
function scrollBox(dialog: HTMLDialogElement): { top: number; left: number; right: number; bottom: number } {
  const box = dialog.getBoundingClientRect();
  const top = box.top + dialog.clientTop;
  const left = box.left + dialog.clientLeft;
  return {
    top: Math.max(0, top),
    left: Math.max(0, left),
    right: Math.min(innerWidth, left + dialog.clientWidth),
    bottom: Math.min(innerHeight, top + dialog.clientHeight),
  };
}

function inside(node: HTMLElement, box: { top: number; left: number; right: number; bottom: number }): boolean {
  const r = node.getBoundingClientRect();
  return (
    r.top >= box.top - 0.5 && r.left >= box.left - 0.5 && r.bottom <= box.bottom + 0.5 && r.right <= box.right + 0.5
  );
}

/** Each control, scrolled to within the dialog if it must be, lies whole inside the dialog's scroll box. */
function clipped(el: TryonButton): string[] {
  const dialog = dialogOf(el);
  const problems: string[] = [];
  for (const { name, node } of resultControls(el)) {
    if (!inside(node, scrollBox(dialog)))
      node.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
    if (!inside(node, scrollBox(dialog))) {
      const r = node.getBoundingClientRect();
      problems.push(
        `${name} at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`,
      );
    }
  }
  dialog.scrollTop = 0;
  return problems;
}

async function catalogResult(scenario: Scenario = {}, attributes = 'video'): Promise<{ el: TryonButton; fake: Fake }> {
  const fake = await fakeProxy({
    product: catalog,
    steps: [{ status: 'succeeded', outputs: catalog.views, url: PORTRAIT }],
    ...scenario,
  });
  const el = await mountOn(fake, '', attributes);
  await toResult(el);
  await decoded(el);
  return { el, fake };
}

describe("the result step's layout", () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(async () => {
    await emulate({ reducedMotion: 'no-preference', colorScheme: 'light' });
    await setViewport({ width: 800, height: 600 });
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`gives the demo accent's primary buttons text of at least 4.5:1 contrast, ${scheme}`, async function () {
      if (!(await emulate({ colorScheme: scheme })) && scheme === 'dark') this.skip();
      const fake = await fakeProxy();
      const el = await mountOn(fake, `--tryon-accent: ${DEMO_ACCENT}`);
      await openAndConsent(el);
      await pickPhoto(el, await drawnPhoto(400, 600));
      const primary = button(el, 'Try it on');
      await until(
        () => {
          const style = getComputedStyle(primary);
          return contrast(style.color, style.backgroundColor) >= 4.5;
        },
        `contrast ≥ 4.5 (now ${contrast(getComputedStyle(primary).color, getComputedStyle(primary).backgroundColor).toFixed(2)})`,
        2000,
      );
      expect(getComputedStyle(primary).backgroundColor).to.equal('rgb(179, 52, 31)');
    });
  }

  it("follows a change of accent and colour scheme, and keeps a shop's own --tryon-accent-text", async () => {
    const fake = await fakeProxy();
    const el = await mountOn(fake, '--tryon-accent: #fde047');
    await openAndConsent(el);
    await pickPhoto(el, await drawnPhoto(400, 600));
    const primary = button(el, 'Try it on');
    const ratio = () => contrast(getComputedStyle(primary).color, getComputedStyle(primary).backgroundColor);
    // A light yellow takes the near-black text, a deep blue white.
    await until(() => ratio() >= 4.5 && luminance(getComputedStyle(primary).color) < 0.1, 'dark text on yellow', 2000);
    el.style.setProperty('--tryon-accent', '#1e3a8a');
    await until(
      () => ratio() >= 4.5 && getComputedStyle(primary).color === 'rgb(255, 255, 255)',
      'white text on deep blue',
      2000,
    );
    if (await emulate({ colorScheme: 'dark' })) {
      el.style.removeProperty('--tryon-accent');
      await until(() => ratio() >= 4.5, "the dark scheme's own accent", 2000);
    }
    el.style.setProperty('--tryon-accent-text', 'rgb(1, 2, 3)');
    await until(() => getComputedStyle(primary).color === 'rgb(1, 2, 3)', "the shop's own text colour", 2000);
  });

  for (const size of [LAPTOP, PHONE]) {
    for (const kind of ['image', 'catalog'] as const) {
      it(`shows every control of a ${kind} result unclipped at ${size.width}×${size.height}`, async () => {
        await viewport(size);
        const views = kind === 'catalog' ? catalog.views : ['front'];
        const { el } = await catalogResult({
          product: { ...catalog, views },
          steps: [{ status: 'succeeded', outputs: views, url: PORTRAIT }],
        });
        expect(control(el, 'Make a video')).to.exist;
        expect(clipped(el)).to.deep.equal([]);
        if (size === LAPTOP) {
          // On a laptop the whole step fits: nothing to scroll for.
          const dialog = dialogOf(el);
          expect(dialog.scrollHeight, 'the dialog needs no scrolling').to.be.at.most(dialog.clientHeight + 1);
          for (const { name, node } of resultControls(el)) expect(inside(node, scrollBox(dialog)), name).to.equal(true);
        }
        const image = panelRoot(el).querySelector<HTMLImageElement>('[part="image"]')!.getBoundingClientRect();
        expect(image.height, 'the image keeps a useful size').to.be.at.least(240);
      });
    }

    it(`scrolls a new video into view at ${size.width}×${size.height}`, async () => {
      await viewport(size);
      // A catalog: the tabs push the video furthest down.
      const { el } = await catalogResult();
      button(el, 'Make a video').click();
      await reach(el, 'queued');
      await reach(el, 'result');
      const video = await until(
        () => panelRoot(el).querySelector<HTMLVideoElement>('video[part="video"]'),
        'the video',
      );
      const dialog = dialogOf(el);
      // Smooth scrolling takes a few frames; it ends in view.
      await until(() => inside(video, scrollBox(dialog)), 'the video in view', 3000);
      expect(clipped(el)).to.deep.equal([]);
    });
  }

  it('scrolls to the new video at once under prefers-reduced-motion', async function () {
    await viewport(LAPTOP);
    if (!(await emulate({ reducedMotion: 'reduce' }))) this.skip();
    const { el } = await catalogResult();
    button(el, 'Make a video').click();
    await reach(el, 'queued');
    await reach(el, 'result');
    const video = await until(() => panelRoot(el).querySelector<HTMLVideoElement>('video[part="video"]'), 'the video');
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(inside(video, scrollBox(dialogOf(el)))).to.equal(true);
  });

  for (const dir of ['ltr', 'rtl'] as const) {
    it(`moves the comparison over the image's drawn box, handle whole at both ends (${dir})`, async () => {
      await viewport(LAPTOP);
      const fake = await fakeProxy({
        product: { ...catalog, views: ['front'] },
        steps: [{ status: 'succeeded', outputs: ['front'], url: PORTRAIT }],
      });
      const el = await mountOn(fake, '', dir === 'rtl' ? 'lang="ar"' : '');
      if (dir === 'rtl') {
        // Arabic texts: the helpers find English names, so the flow is driven by parts.
        await el.open();
        await reach(el, 'consent');
        panelRoot(el).querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
        await reach(el, 'consent');
        panelRoot(el).querySelector<HTMLButtonElement>('[part="primary-button"]')!.click();
        await reach(el, 'photo');
        await pickPhoto(el, await drawnPhoto(400, 600));
        panelRoot(el).querySelector<HTMLButtonElement>('[part="primary-button"]:not([disabled])')!.click();
        await reach(el, 'result');
      } else {
        await toResult(el);
      }
      await decoded(el);
      const root = panelRoot(el);
      root.querySelector<HTMLButtonElement>('[part~="compare-toggle"]')!.click();
      const slider = await until(() => root.querySelector<HTMLElement>('[role="slider"]'), 'the divide');
      await decoded(el);
      const image = root.querySelector<HTMLImageElement>('[part="image"]')!;
      const frame = root.querySelector<HTMLElement>('.frame')!;
      // The drawn box of an object-fit: contain image, from its natural size.
      const box = image.getBoundingClientRect();
      const scale = Math.min(box.width / image.naturalWidth, box.height / image.naturalHeight);
      const drawn = {
        left: box.left + (box.width - image.naturalWidth * scale) / 2,
        width: image.naturalWidth * scale,
      };
      expect(drawn.width).to.be.below(box.width * 0.9, 'a portrait leaves margins beside it');
      const centre = () => {
        const r = slider.getBoundingClientRect();
        return r.left + r.width / 2;
      };
      const settle = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const ends: number[] = [];
      const whole: boolean[] = [];
      for (const key of ['Home', 'End']) {
        slider.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
        await el.updateComplete;
        await settle();
        await until(
          () => {
            const a = centre();
            return new Promise((r) => requestAnimationFrame(() => r(Math.abs(centre() - a) < 0.1)));
          },
          'the handle at rest',
          2000,
        );
        ends.push(centre());
        whole.push(inside(slider, frame.getBoundingClientRect()) && inside(slider, scrollBox(dialogOf(el))));
      }
      const [start, end] =
        dir === 'ltr' ? [drawn.left, drawn.left + drawn.width] : [drawn.left + drawn.width, drawn.left];
      expect(ends[0], "Home: the drawn box's start edge").to.be.closeTo(start, 1.5);
      expect(ends[1], "End: the drawn box's end edge").to.be.closeTo(end, 1.5);
      expect(whole, 'the handle whole inside the frame and the dialog at Home and End').to.deep.equal([true, true]);
      // Labels say which side is which: "Before" where the shopper's photo shows, at the start edge.
      const labels = [...root.querySelectorAll<HTMLElement>('.compare-label')];
      expect(labels.map((l) => l.textContent!.trim())).to.deep.equal(
        dir === 'ltr' ? ['Before', 'After'] : ['قبل', 'بعد'],
      );
      const [before, after] = labels.map((l) => l.getBoundingClientRect());
      if (dir === 'ltr') expect(before!.right).to.be.below(after!.left);
      else expect(after!.right).to.be.below(before!.left);
      for (const label of labels)
        expect(
          inside(label, { top: box.top, bottom: box.bottom, left: drawn.left, right: drawn.left + drawn.width }),
        ).to.equal(true);
      await expect(el).to.be.accessible();
    });
  }

  it('is a bottom sheet on a phone, with 44 px targets and no break inside "try-on"', async () => {
    await viewport(PHONE);
    const fake = await fakeProxy();
    // A shop page that hyphenates its own text automatically.
    const el = await mountOn(fake, 'hyphens: auto', 'lang="en"');
    const page = el.shadowRoot!.querySelector('button')!.getBoundingClientRect();
    expect(page.height, '"Try it on" on the page').to.be.at.least(44);
    await el.open();
    await reach(el, 'consent');
    // WebKitGTK does not evaluate @media again in a stylesheet adopted before its window was
    // resized (an earlier test loaded the panel at 1366 px); adopting it again makes it look.
    const adopted = panelRoot(el);
    adopted.adoptedStyleSheets = [...adopted.adoptedStyleSheets];
    const dialog = dialogOf(el);
    const sheet = dialog.getBoundingClientRect();
    expect(Math.round(sheet.width)).to.equal(innerWidth);
    expect(Math.round(sheet.bottom), 'on the bottom edge').to.equal(PHONE.height);
    expect(sheet.top, 'as tall as its content, the page showing above').to.be.above(PHONE.height / 4);
    const style = getComputedStyle(dialog);
    expect(Number.parseFloat(style.borderTopLeftRadius)).to.be.above(0);
    expect(Number.parseFloat(style.borderBottomLeftRadius)).to.equal(0);
    const close = panelRoot(el).querySelector('[part="close-button"]')!.getBoundingClientRect();
    expect(close.width, '× wide').to.be.at.least(44);
    expect(close.height, '× tall').to.be.at.least(44);
    const label = panelRoot(el).querySelector<HTMLElement>('label.check span')!;
    expect(getComputedStyle(label).hyphens).to.equal('manual');
    // "try-on" on one line: its characters' boxes share a top.
    const text = [...label.querySelectorAll('*'), label]
      .flatMap((n) => [...n.childNodes])
      .find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.includes('try-on'))!;
    const range = document.createRange();
    const at = text.textContent!.indexOf('try-on');
    // Narrow the label until "try-" just fits on the first line: the place where it broke on phones.
    label.style.whiteSpace = 'nowrap';
    range.setStart(label, 0);
    range.setEnd(text, at + 'try-'.length);
    const upToHyphen = range.getBoundingClientRect().right - label.getBoundingClientRect().left;
    label.style.whiteSpace = '';
    label.style.display = 'inline-block';
    label.style.inlineSize = `${Math.ceil(upToHyphen) + 1}px`;
    range.setStart(text, at);
    range.setEnd(text, at + 'try-on'.length);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    expect(tops.size, '"try-on" on one line').to.equal(1);
    label.removeAttribute('style');
    panelRoot(el).querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    await reach(el, 'consent');
    button(el, 'Continue').click();
    await reach(el, 'photo');
    await pickPhoto(el, await drawnPhoto(400, 600));
    expect(button(el, 'Try it on').getBoundingClientRect().height, '"Try it on" in the dialog').to.be.at.least(44);
    await expect(el).to.be.accessible();
  });
});
