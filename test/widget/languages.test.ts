// Every language the widget speaks: complete dictionaries, every step rendered in each, right to
// left where the language is written so, and the language taken from the page.
import { expect } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import type { Strings, Translation } from '../../widget/i18n/en.js';
import hi from '../../widget/i18n/hi.js';
import bn from '../../widget/i18n/bn.js';
import gu from '../../widget/i18n/gu.js';
import mr from '../../widget/i18n/mr.js';
import ta from '../../widget/i18n/ta.js';
import te from '../../widget/i18n/te.js';
import ur from '../../widget/i18n/ur.js';
import ar from '../../widget/i18n/ar.js';
import {
  dialogOf,
  drawnPhoto,
  fakeProxy,
  mount,
  panelRoot,
  pickPhoto,
  reach,
  statusText,
  until,
  HELD_TWICE,
} from './helpers.js';

const DICTIONARIES: Record<string, Translation> = { en, hi, bn, gu, mr, ta, te, ur, ar };
const RIGHT_TO_LEFT = new Set(['ur', 'ar']);

const textKeys = (dictionary: Translation) =>
  Object.keys(dictionary)
    .filter((key) => !key.startsWith('$'))
    .sort();
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** A dictionary's text, as the panel fills it (no `{name}` may be left over). */
function text(dictionary: Translation, key: keyof Strings): string {
  const value = dictionary[key];
  if (value === undefined) throw new Error(`${dictionary.$code} lacks ${key}`);
  return value;
}

/** The words of a template around its placeholders: what must show whatever is filled in. */
const fragments = (template: string) =>
  template
    .split(/\{\w+\}/)
    .map((part) => part.trim())
    .filter(Boolean);

function expectTemplate(shown: string, template: string, what: string): void {
  for (const fragment of fragments(template)) expect(shown, what).to.contain(fragment);
}

function primary(el: TryonButton): HTMLButtonElement {
  const found = panelRoot(el).querySelector<HTMLButtonElement>('button[part="primary-button"]');
  if (!found) throw new Error(`no primary button in step ${el.status}`);
  return found;
}

function expectNoPlaceholderLeft(el: TryonButton): void {
  expect(panelRoot(el).textContent ?? '').to.not.match(/\{\w+\}/);
}

describe('dictionaries', () => {
  it('every language has every key of English, and no other', () => {
    const keys = textKeys(en);
    for (const [code, dictionary] of Object.entries(DICTIONARIES)) {
      expect(textKeys(dictionary), code).to.deep.equal(keys);
    }
  });

  it("every translation keeps English's {placeholders} exactly", () => {
    for (const [code, dictionary] of Object.entries(DICTIONARIES)) {
      for (const key of textKeys(en) as (keyof Strings)[]) {
        expect(placeholders(text(dictionary, key)), `${code}.${key}`).to.deep.equal(placeholders(en[key]));
      }
    }
  });

  it('each says its own code, name and writing direction; Urdu and Arabic right to left', () => {
    for (const [code, dictionary] of Object.entries(DICTIONARIES)) {
      expect(dictionary.$code).to.equal(code);
      expect(dictionary.$name).to.be.a('string').and.not.equal('');
      expect(dictionary.$dir, code).to.equal(RIGHT_TO_LEFT.has(code) ? 'rtl' : 'ltr');
    }
  });

  it('every language but English says "pixels" in its own word in the "too small" message, not "px" beside it', () => {
    // Both sizes in the message, the photo's and the smallest allowed, take the same local unit.
    const units: Record<string, string> = {
      hi: 'पिक्सेल',
      ur: 'پکسل',
      ar: 'بكسل',
      bn: 'পিক্সেল',
      gu: 'પિક્સેલ',
      mr: 'पिक्सेल',
      ta: 'பிக்சல்கள்',
      te: 'పిక్సెల్స్',
    };
    for (const [code, dictionary] of Object.entries(DICTIONARIES)) {
      if (code === 'en') continue;
      const unit = units[code];
      expect(unit, `${code}: its word for pixels is known to this test`).to.be.a('string');
      const message = text(dictionary, 'photoTooSmall');
      expect(message, dictionary.$code).to.not.match(/px/i);
      expect(message.split(unit!).length - 1, `${dictionary.$code}: "${unit}" after both sizes`).to.equal(2);
    }
  });

  it('translations are translations: no text is English left in place', () => {
    // Brand-like words (JPEG, PNG) appear inside sentences; a whole text equal to English is a miss.
    for (const [code, dictionary] of Object.entries(DICTIONARIES)) {
      if (code === 'en') continue;
      const untranslated = (textKeys(en) as (keyof Strings)[]).filter((key) => dictionary[key] === en[key]);
      expect(untranslated, code).to.deep.equal([]);
    }
  });
});

describe('each language renders each step', () => {
  beforeEach(() => sessionStorage.clear());

  for (const [code, dictionary] of Object.entries(DICTIONARIES)) {
    it(`${code}: consent, photo, uploading, queued, rendering, result and error, all in ${dictionary.$name}`, async () => {
      const fake = await fakeProxy({
        photoHold: true,
        steps: HELD_TWICE,
      });
      const el = await mount(fake, { lang: code });
      expect(el.shadowRoot!.querySelector('button')!.textContent!.trim()).to.equal(text(dictionary, 'label'));
      await el.open();
      await reach(el, 'consent');
      const dialog = dialogOf(el);
      expect(dialog.lang).to.equal(code);
      expect(getComputedStyle(dialog).direction).to.equal(dictionary.$dir);
      expect(panelRoot(el).getElementById('dialog-title')?.textContent).to.equal(text(dictionary, 'dialogTitle'));
      await until(() => panelRoot(el).querySelector('[part="retention"]'), 'the retention sentence');
      const consent = panelRoot(el).textContent ?? '';
      for (const key of ['consentTitle', 'consentCheckbox'] as const) expect(consent).to.contain(text(dictionary, key));
      expect(consent).to.contain(text(dictionary, 'consentBody').replace('{product}', 'Red Banarasi saree'));
      expectTemplate(consent, text(dictionary, 'retention'), 'retention');
      expect(consent).to.contain(text(dictionary, 'forgetPhoto'), 'the retention sentence names the forget control');
      expectNoPlaceholderLeft(el);
      if (RIGHT_TO_LEFT.has(code)) await expect(el).to.be.accessible();

      panelRoot(el).querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
      await reach(el, 'consent');
      await until(() => !primary(el).disabled, 'the continue button');
      primary(el).click();
      await reach(el, 'photo');
      const photo = panelRoot(el).textContent ?? '';
      for (const key of ['photoTitle', 'tipsTitle', 'tipOnePerson', 'choosePhoto', 'takePhoto', 'dropHint'] as const) {
        expect(photo, key).to.contain(text(dictionary, key));
      }
      if (RIGHT_TO_LEFT.has(code)) await expect(el).to.be.accessible();

      await pickPhoto(el, await drawnPhoto(600, 800));
      expect(panelRoot(el).querySelector<HTMLImageElement>('img[part="preview"]')!.alt).to.equal(
        text(dictionary, 'previewAlt'),
      );
      primary(el).click();
      await reach(el, 'uploading');
      expectTemplate(statusText(el), text(dictionary, 'uploading'), 'uploading');
      expectNoPlaceholderLeft(el);
      await fake.release();

      await reach(el, 'queued');
      await until(() => statusText(el) === text(dictionary, 'queued'), 'the queued text');
      expect(panelRoot(el).querySelector('h3')!.textContent).to.equal(
        text(dictionary, 'progressTitle').replace('{product}', 'Red Banarasi saree'),
      );
      expectTemplate(panelRoot(el).textContent ?? '', text(dictionary, 'timing'), 'timing');
      expect(panelRoot(el).textContent).to.contain(text(dictionary, 'cancel'));
      expectNoPlaceholderLeft(el);
      if (RIGHT_TO_LEFT.has(code)) await expect(el).to.be.accessible();
      await fake.release();

      await reach(el, 'rendering');
      expect(statusText(el)).to.equal(text(dictionary, 'rendering'));
      await fake.release();

      await reach(el, 'result');
      await until(() => statusText(el) === text(dictionary, 'ready'), 'the ready text');
      const result = panelRoot(el).textContent ?? '';
      for (const key of ['download', 'share', 'anotherPhoto', 'forgetPhoto'] as const)
        expect(result, key).to.contain(text(dictionary, key));
      expect(panelRoot(el).querySelector<HTMLImageElement>('img[part="image"]')!.alt).to.equal(
        text(dictionary, 'resultAlt').replace('{product}', 'Red Banarasi saree'),
      );
      expectNoPlaceholderLeft(el);
      // The try-on whole first, under its heading; the toggles in the language; "ready" only in the live region.
      expect(panelRoot(el).querySelector('h3')!.textContent!.trim()).to.equal(
        text(dictionary, 'resultTitle').replace('{product}', 'Red Banarasi saree'),
      );
      const toggles = [...panelRoot(el).querySelectorAll<HTMLButtonElement>('[part="before-after"] button')];
      expect(toggles.map((b) => b.textContent!.trim())).to.deep.equal([
        text(dictionary, 'showPhoto'),
        text(dictionary, 'compare'),
      ]);
      toggles[1]!.click();
      // The before/after comparison shows "before" from the start edge: the right, right to left.
      const before = await until(
        () => panelRoot(el).querySelector<HTMLElement>('.compare .before'),
        'the before/after comparison',
      );
      expect(before, 'the before/after comparison').to.exist;
      expect(getComputedStyle(before!).clipPath, 'before from the start edge').to.equal(
        RIGHT_TO_LEFT.has(code) ? 'inset(0px 0px 0px 50%)' : 'inset(0px 50% 0px 0px)',
      );
      if (RIGHT_TO_LEFT.has(code)) await expect(el).to.be.accessible();
      el.close();

      // The error step, from a refused try-on.
      const failing = await fakeProxy({ tryonErrors: [{ status: 429, code: 'rate_limited', retryAfter: 30 }] });
      const other = await mount(failing, { lang: code });
      await other.open();
      await reach(other, 'consent');
      panelRoot(other).querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
      await reach(other, 'consent');
      await until(() => !primary(other).disabled, 'the continue button');
      primary(other).click();
      await reach(other, 'photo');
      await pickPhoto(other, await drawnPhoto(600, 800));
      primary(other).click();
      await reach(other, 'error');
      const error = panelRoot(other).textContent ?? '';
      expect(error).to.contain(text(dictionary, 'errorTitle'));
      expect(error).to.contain(text(dictionary, 'error_rate_limited'));
      expectNoPlaceholderLeft(other);
      if (RIGHT_TO_LEFT.has(code)) await expect(other).to.be.accessible();
      other.close();
    });
  }
});

describe('the language, from the page', () => {
  const pageLang = document.documentElement.lang;
  afterEach(() => {
    document.documentElement.lang = pageLang;
  });

  it("speaks the page's language by its nearest match (bn-IN → bn) without a lang attribute", async () => {
    document.documentElement.lang = 'bn-IN';
    const el = await mount(await fakeProxy());
    expect(el.language).to.equal('bn');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('button')!.textContent!.trim()).to.equal(bn.label);
    await el.open();
    await reach(el, 'consent');
    expect(dialogOf(el).lang).to.equal('bn');
    expect(panelRoot(el).getElementById('dialog-title')?.textContent).to.equal(bn.dialogTitle);
    el.close();
  });

  it('takes ur_PK as Urdu, laid out right to left', async () => {
    document.documentElement.lang = 'ur_PK';
    const el = await mount(await fakeProxy());
    await el.open();
    await reach(el, 'consent');
    expect(dialogOf(el).getAttribute('dir')).to.equal('rtl');
    expect(panelRoot(el).getElementById('dialog-title')?.textContent).to.equal(ur.dialogTitle);
    el.close();
  });

  it("falls back to English for a language it lacks, and says so in the dialog's lang", async () => {
    document.documentElement.lang = 'pa-IN';
    const el = await mount(await fakeProxy());
    await el.open();
    await reach(el, 'consent');
    expect(dialogOf(el).lang).to.equal('en');
    expect(panelRoot(el).getElementById('dialog-title')?.textContent).to.equal(en.dialogTitle);
    el.close();
  });
});
