// Every error code the proxy can answer has its own words in every language, and a shopper never
// sees the generic "Something went wrong" for any of them. The codes come from the proxy's one
// list (proxy/http/errors.ts ERROR_CODES), so a new code without words fails here. The codes no "Try
// again" can get past today (the day's budget, the shopper's daily try-ons) offer only Close. And
// a product that cannot be tried on today has no button (or a disabled one, with the reason), and
// the dialog checks again each time it opens.
import { expect } from '@open-wc/testing';
import { ERROR_CODES } from '../../proxy/http/errors.js';
import { Texts, errorKey } from '../../widget/i18n/words/texts.js';
import { en } from '../../widget/i18n/en.js';
import { ar } from '../../widget/i18n/ar.js';
import { bn } from '../../widget/i18n/bn.js';
import { gu } from '../../widget/i18n/gu.js';
import { hi } from '../../widget/i18n/hi.js';
import { mr } from '../../widget/i18n/mr.js';
import { ta } from '../../widget/i18n/ta.js';
import { te } from '../../widget/i18n/te.js';
import { ur } from '../../widget/i18n/ur.js';
import type { TryonButton } from '../../widget/tryon-button.js';
import type { Translation } from '../../widget/i18n/en.js';
import { button, fakeProxy, mount, panelRoot, reach, until, tryOnUntil } from './helpers.js';
import type { Fake, Scenario } from './helpers.js';

const TRANSLATIONS: Translation[] = [ar, bn, gu, hi, mr, ta, te, ur];

/**
 * Answered only to a piece put over a finished try-on (`over`): "Complete the look" says them in
 * its own chunk's words, naming the piece (test/widget/outfit.test.ts shows each in its words and
 * checks them in every language); no other try-on can meet them.
 */
const OUTFIT_REFUSALS = ['not_a_pair', 'base_not_ready', 'outfit_too_long'];
const TRYON_CODES = ERROR_CODES.filter((code) => !OUTFIT_REFUSALS.includes(code));

function alertText(el: TryonButton): string {
  return panelRoot(el).querySelector('[role="alert"]')?.textContent?.trim() ?? '';
}

/** Gives the fake proxy a new scenario (its product's availability), as the proxy's day moves on. */
async function rescript(fake: Fake, scenario: Scenario): Promise<void> {
  const sid = /\/fake\/([\w-]+)\//.exec(fake.endpoint)![1];
  const response = await fetch(`/fake-control/${sid}`, { method: 'POST', body: JSON.stringify(scenario) });
  expect(response.ok).to.equal(true);
}

const PRODUCT = { product: 'saree-red', views: ['front'], video: false, tier: 'standard', name: 'Red Banarasi saree' };

describe('every error code the proxy can answer, in words', () => {
  it('has its words in English and a real translation in every language', () => {
    expect(TRYON_CODES.length).to.be.greaterThan(25);
    expect(ERROR_CODES).to.include.members(OUTFIT_REFUSALS);
    for (const code of TRYON_CODES) {
      // Codes that mean the same to a shopper share one sentence (texts.ts SAME_WORDS).
      const key = errorKey(code);
      expect(Object.hasOwn(en, key), `en has ${key}`).to.equal(true);
      for (const translation of TRANSLATIONS) {
        expect(Object.hasOwn(translation, key), `${translation.$code} has ${key}`).to.equal(true);
        const own = (translation as unknown as Record<string, string>)[key]!;
        expect(own, `${translation.$code} ${key} is translated`).to.not.equal(
          (en as unknown as Record<string, string>)[key],
        );
      }
    }
  });

  it('never falls back to the generic words, in any language', () => {
    for (const translation of [undefined, ...TRANSLATIONS]) {
      const texts = new Texts({}, translation);
      for (const code of TRYON_CODES) {
        expect(texts.errorMessage(code), `${translation?.$code ?? 'en'} ${code}`).to.not.equal(
          texts.t('error_generic'),
        );
      }
    }
  });

  for (const code of TRYON_CODES) {
    it(`a try-on refused with ${code} shows its own words, never "Something went wrong"`, async () => {
      const fake = await fakeProxy({ tryonErrors: [{ status: 400, code, retryable: false }] });
      const el = await mount(fake);
      await tryOnUntil(el, 'error');
      expect(alertText(el)).to.not.equal(en.error_generic);
      expect(alertText(el)).to.not.equal('');
    });
  }

  for (const code of ['daily_limit_reached', 'daily_budget_reached'] as const) {
    it(`${code} mid-flow: says so plainly and offers only Close, no Try again that cannot succeed today`, async () => {
      const fake = await fakeProxy({
        tryonErrors: [{ status: code === 'daily_limit_reached' ? 429 : 503, code, retryable: false }],
      });
      const el = await mount(fake);
      await tryOnUntil(el, 'error');
      expect(alertText(el)).to.equal(en[`error_${code}`]);
      const labels = [...panelRoot(el).querySelectorAll('.actions button')].map((b) => b.textContent?.trim());
      expect(labels).to.deep.equal(['Close']);
      expect(panelRoot(el).activeElement?.textContent?.trim() ?? button(el, 'Close').textContent?.trim()).to.equal(
        'Close',
      );
      await expect(el).to.be.accessible();
      button(el, 'Close').click();
      await reach(el, 'idle');
    });
  }
});

describe('a product that cannot be tried on today', () => {
  beforeEach(() => sessionStorage.clear());

  it('has no button by default (when-unavailable="hide"), before anything is uploaded', async () => {
    const fake = await fakeProxy({
      product: { ...PRODUCT, available: false, unavailableReason: 'daily_budget_reached' },
    });
    const el = await mount(fake);
    await until(() => el.getAttribute('unavailable') === 'daily_budget_reached', 'the availability answer');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="button"]')).to.equal(null);
    const log = await fake.log();
    expect(log.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['GET /products/saree-red'], 'nothing uploaded');
  });

  it('with when-unavailable="disable", shows a disabled button and the reason in words, and opens nothing', async () => {
    const fake = await fakeProxy({ product: { ...PRODUCT, available: false, unavailableReason: 'disabled' } });
    const el = await mount(fake, { 'when-unavailable': 'disable' });
    await until(() => el.getAttribute('unavailable') === 'disabled', 'the availability answer');
    await el.updateComplete;
    const shown = el.shadowRoot!.querySelector<HTMLButtonElement>('[part="button"]')!;
    expect(shown.getAttribute('aria-disabled')).to.equal('true');
    const reason = el.shadowRoot!.querySelector('[part="unavailable-reason"]')!;
    expect(reason.textContent?.trim()).to.equal('Try-on is not offered for this product.');
    expect(shown.getAttribute('aria-describedby')).to.equal(reason.id);
    shown.click();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('tryon-panel')).to.equal(null, 'no dialog');
    expect(el.status).to.equal('idle');
    await expect(el).to.be.accessible();
  });

  it('in Hindi, the reason is in Hindi', async () => {
    const fake = await fakeProxy({
      product: { ...PRODUCT, available: false, unavailableReason: 'daily_budget_reached' },
    });
    const el = await mount(fake, { 'when-unavailable': 'disable', lang: 'hi' });
    await until(
      () =>
        el.shadowRoot!.querySelector('[part="unavailable-reason"]')?.textContent?.trim() ===
        hi.unavailable_daily_budget_reached,
      'the Hindi reason',
    );
  });

  it('checks again when the dialog opens: the budget ran out since the page loaded', async () => {
    const fake = await fakeProxy({ product: PRODUCT });
    const el = await mount(fake);
    await until(async () => (await fake.log()).length === 1, 'the first check');
    expect(el.hasAttribute('unavailable')).to.equal(false);
    await rescript(fake, { product: { ...PRODUCT, available: false, unavailableReason: 'daily_budget_reached' } });
    await el.open();
    await reach(el, 'error');
    expect(alertText(el)).to.equal(en.error_daily_budget_reached);
    expect([...panelRoot(el).querySelectorAll('.actions button')].map((b) => b.textContent?.trim())).to.deep.equal([
      'Close',
    ]);
    expect((await fake.log()).every((r) => r.method === 'GET' && r.path === '/products/saree-red')).to.equal(
      true,
      'nothing uploaded',
    );
    button(el, 'Close').click();
    await reach(el, 'idle');
    expect(el.getAttribute('unavailable')).to.equal('daily_budget_reached');
    expect(el.shadowRoot!.querySelector('[part="button"]')).to.equal(null, 'the button is gone');
  });
});
