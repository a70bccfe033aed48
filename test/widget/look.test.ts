import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { emulate, viewport } from './media.js';
import type { TryonButton } from '../../widget/tryon-button.js';
import {
  button,
  dialogOf,
  drawnPhoto,
  fakeProxy,
  mount,
  panelRoot,
  pickPhoto,
  reach,
  tryOnUntil,
  HELD_AFTER_QUEUED,
} from './helpers.js';

describe('languages, direction, theming and motion', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(async () => {
    await emulate({ reducedMotion: 'no-preference', colorScheme: 'light' });
    await setViewport({ width: 800, height: 600 });
  });

  it('speaks Hindi with lang="hi"', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake, { lang: 'hi' });
    expect(el.shadowRoot!.querySelector('slot')!.textContent).to.equal('पहनकर देखें');
    await el.open();
    await reach(el, 'consent');
    expect(panelRoot(el).getElementById('dialog-title')!.textContent).to.equal('वर्चुअल ट्राई-ऑन');
    expect(dialogOf(el).getAttribute('lang')).to.equal('hi');
    expect(panelRoot(el).querySelector('label')!.textContent!.trim()).to.equal(
      'मैं इस ट्राई-ऑन के लिए अपनी फ़ोटो अपलोड करने के लिए सहमत हूँ',
    );
    expect(button(el, 'आगे बढ़ें')).to.exist;
    await expect(el).to.be.accessible();
  });

  it('runs the whole flow in Hindi, accessible at the result', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake, { lang: 'hi' });
    await el.open();
    await reach(el, 'consent');
    panelRoot(el).querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    await reach(el, 'consent');
    button(el, 'आगे बढ़ें').click();
    await reach(el, 'photo');
    expect(button(el, 'फ़ोटो चुनें')).to.exist;
    await pickPhoto(el, await drawnPhoto(400, 600));
    button(el, 'पहनकर देखें').click();
    await reach(el, 'result');
    expect(panelRoot(el).querySelector<HTMLImageElement>('img[part="image"]')!.alt).to.equal(
      'आप Red Banarasi saree पहने हुए',
    );
    expect(button(el, 'दूसरी फ़ोटो आज़माएँ')).to.exist;
    await expect(el).to.be.accessible();
  });

  it("takes the page's language when the element has none", async () => {
    const fake = await fakeProxy();
    const container = await fixture<HTMLDivElement>(
      html`<div lang="hi-IN"><tryon-button product="saree-red" endpoint=${fake.endpoint} prefetch="interaction"></tryon-button></div>`,
    );
    const el = container.querySelector('tryon-button')!;
    // A language other than English brings its dictionary on demand; the element's update waits for it.
    await el.updateComplete;
    expect(el.language).to.equal('hi');
    expect(el.shadowRoot!.querySelector('slot')!.textContent).to.equal('पहनकर देखें');
  });

  it('lets the shop override any string, and the label through the slot', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    el.strings = { label: 'See it on you', consentTitle: 'May we use your photo?', continue: 'Yes, go on' };
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('slot')!.textContent).to.equal('See it on you');
    await el.open();
    await reach(el, 'consent');
    expect(panelRoot(el).querySelector('h3')!.textContent).to.equal('May we use your photo?');
    expect(button(el, 'Yes, go on')).to.exist;

    const slotted = await fixture<TryonButton>(
      html`<tryon-button product="saree-red" endpoint=${fake.endpoint} prefetch="interaction">Wear it virtually</tryon-button>`,
    );
    const assigned = slotted
      .shadowRoot!.querySelector('slot')!
      .assignedNodes()
      .map((n) => n.textContent)
      .join('');
    expect(assigned).to.equal('Wear it virtually');
    await expect(slotted).to.be.accessible();
  });

  it('lays out right to left on an RTL page', async () => {
    const fake = await fakeProxy();
    const container = await fixture<HTMLDivElement>(
      html`<div dir="rtl"><tryon-button product="saree-red" endpoint=${fake.endpoint} prefetch="interaction"></tryon-button></div>`,
    );
    const el = container.querySelector('tryon-button')!;
    await el.open();
    await reach(el, 'consent');
    const dialog = dialogOf(el);
    expect(getComputedStyle(dialog).direction).to.equal('rtl');
    const close = panelRoot(el).querySelector('[part="close-button"]')!.getBoundingClientRect();
    const title = panelRoot(el).querySelector('[part="title"]')!.getBoundingClientRect();
    expect(close.right).to.be.at.most(title.left);
    await expect(el).to.be.accessible();
  });

  it('honours prefers-reduced-motion', async function () {
    const fake = await fakeProxy({
      steps: HELD_AFTER_QUEUED,
    });
    const el = await mount(fake);
    await tryOnUntil(el, 'queued', { width: 400, height: 600 });
    const spinner = panelRoot(el).querySelector('.spinner')!;
    expect(getComputedStyle(spinner).animationName).to.equal('spin');
    if (!(await emulate({ reducedMotion: 'reduce' }))) {
      await fake.release();
      this.skip();
    }
    expect(getComputedStyle(spinner).animationName).to.equal('none');
    expect(getComputedStyle(el.shadowRoot!.querySelector('button')!).transitionDuration).to.equal('0s');
    await fake.release();
  });

  it("inherits the page's font and themes light and dark through custom properties", async () => {
    const fake = await fakeProxy();
    const container = await fixture<HTMLDivElement>(
      html`<div style="font-family: Georgia, serif"><tryon-button product="saree-red" endpoint=${fake.endpoint} prefetch="interaction"></tryon-button></div>`,
    );
    const el = container.querySelector('tryon-button')!;
    await el.open();
    await reach(el, 'consent');
    const dialog = dialogOf(el);
    expect(getComputedStyle(dialog).fontFamily).to.equal('Georgia, serif');
    expect(getComputedStyle(el.shadowRoot!.querySelector('button')!).fontFamily).to.equal('Georgia, serif');
    expect(getComputedStyle(dialog).backgroundColor).to.equal('rgb(255, 255, 255)');
    // The dark scheme only where the engine can emulate it (Chromium); the properties below everywhere.
    if (await emulate({ colorScheme: 'dark' }))
      expect(getComputedStyle(dialog).backgroundColor).to.equal('rgb(24, 24, 27)');
    el.style.setProperty('--tryon-background', 'rgb(10, 20, 30)');
    // Its own text colour too: the light scheme's dark text would not read on it (engines that stay light).
    el.style.setProperty('--tryon-text', 'rgb(240, 240, 240)');
    el.style.setProperty('--tryon-accent', 'rgb(200, 0, 80)');
    expect(getComputedStyle(dialog).backgroundColor).to.equal('rgb(10, 20, 30)');
    expect(getComputedStyle(el.shadowRoot!.querySelector('button')!).backgroundColor).to.equal('rgb(200, 0, 80)');
    await expect(el).to.be.accessible();
  });

  it('takes its accent from the accent attribute, in the button and the dialog; a value that is not a colour is said and ignored', async () => {
    const fake = await fakeProxy();
    const warned: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warned.push(args);
    try {
      const el = await mount(fake, { accent: '#8a1c4a' });
      const face = () => getComputedStyle(el.shadowRoot!.querySelector('[part="button"]')!).backgroundColor;
      expect(face()).to.equal('rgb(138, 28, 74)');
      await el.open();
      await reach(el, 'consent');
      const primary = panelRoot(el).querySelector<HTMLElement>('button.primary')!;
      expect(getComputedStyle(primary).backgroundColor).to.equal('rgb(138, 28, 74)');
      el.setAttribute('accent', '#0a6');
      await el.updateComplete;
      expect(face()).to.equal('rgb(0, 170, 102)');
      el.setAttribute('accent', 'red;background:url(x)');
      await el.updateComplete;
      // Back to the default accent, never a half-applied value.
      expect(face()).to.equal('rgb(29, 78, 216)');
      expect(
        warned.some((args) => String(args[0]).includes('accent ignored') && args[1] === 'red;background:url(x)'),
      ).to.equal(true);
      await expect(el).to.be.accessible();
    } finally {
      console.warn = warn;
    }
  });

  it('follows the window: a dialog on a laptop, a bottom sheet on a phone, and back, one element throughout', async () => {
    // The panel's styles are adopted once, at the first size; each resize must still reshape it.
    const measure = async (width: number, height: number) => {
      await setViewport({ width, height });
      const fake = await fakeProxy();
      const el = await mount(fake);
      await el.open();
      await reach(el, 'consent');
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const box = dialogOf(el).getBoundingClientRect();
      el.remove();
      return [Math.round(box.left), Math.round(box.top), Math.round(box.width), Math.round(box.bottom)];
    };
    const laptop = await measure(1366, 768);
    expect(laptop[2]).to.be.below(1366 / 2);
    expect(laptop[0]).to.be.above(0);
    const phone = await measure(390, 844);
    // WebKitGTK's window is at least 447 px wide; the sheet spans whatever the window is.
    expect([phone[0], phone[2], phone[3]]).to.deep.equal([0, innerWidth, 844]);
    expect(phone[1]).to.be.above(0);
    // The same dialog again (its height is its content's, which may differ by a line).
    const again = await measure(1366, 768);
    expect([again[0], again[2]]).to.deep.equal([laptop[0], laptop[2]]);
    expect(again[1]).to.be.above(0);
  });

  it('is a bottom sheet on a small screen, as tall as its step', async () => {
    await viewport({ width: 390, height: 700 });
    const fake = await fakeProxy();
    const el = await mount(fake);
    await el.open();
    await reach(el, 'consent');
    const box = dialogOf(el).getBoundingClientRect();
    expect([Math.round(box.left), Math.round(box.width), Math.round(box.bottom)]).to.deep.equal([0, innerWidth, 700]);
    expect(box.top).to.be.above(0);
  });

  it("adds no landmark that clashes with the shop page's own", async () => {
    const fake = await fakeProxy();
    const page = await fixture<HTMLDivElement>(html`<div><header><a href="/">The shop</a></header>
      <main><h1>Red saree</h1><tryon-button product="saree-red" endpoint=${fake.endpoint} prefetch="interaction"></tryon-button></main></div>`);
    const el = page.querySelector('tryon-button')!;
    await el.open();
    await reach(el, 'consent');
    await expect(page).to.be.accessible();
  });

  it('reflects its status for CSS and exposes parts', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    const style = document.createElement('style');
    style.textContent = 'tryon-button[status="consent"]::part(dialog) { outline: 7px solid rgb(1, 2, 3); }';
    document.head.append(style);
    try {
      await el.open();
      await reach(el, 'consent');
      expect(el.getAttribute('status')).to.equal('consent');
      expect(getComputedStyle(dialogOf(el)).outlineWidth).to.equal('7px');
    } finally {
      style.remove();
    }
  });
});
