// A picture that does not load (the result, the first look, a colour preview) is an error the
// shopper reads in words, in their language, with "Try again"; `tryon-error` and the analytics say
// `image_failed`. Never "ready" over a blank image: behind a reverse proxy that sends the files'
// URLs somewhere else, that is what the shopper used to see.
import { expect } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import { ar } from '../../widget/i18n/ar.js';
import { bn } from '../../widget/i18n/bn.js';
import { gu } from '../../widget/i18n/gu.js';
import { hi } from '../../widget/i18n/hi.js';
import { mr } from '../../widget/i18n/mr.js';
import { ta } from '../../widget/i18n/ta.js';
import { te } from '../../widget/i18n/te.js';
import { ur } from '../../widget/i18n/ur.js';
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
  until,
} from './helpers.js';
import type { Fake, Scenario } from './helpers.js';

const alertText = (el: TryonButton) => panelRoot(el).querySelector('[role="alert"]')?.textContent?.trim() ?? '';
const fileRequests = async (fake: Fake, name: string) =>
  (await fake.log()).filter((r) => r.path === `/files/${name}`).length;

async function start(
  scenario: Scenario,
  attributes: Record<string, string> = {},
): Promise<{ fake: Fake; el: TryonButton; seen: ReturnType<typeof recordEvents> }> {
  const fake = await fakeProxy(scenario);
  const el = await mount(fake, attributes);
  const seen = recordEvents(el);
  await openAndConsent(el, attributes['lang'] === 'ar' ? ar.continue! : en.continue);
  await pickPhoto(el, await drawnPhoto(400, 500));
  button(el, attributes['lang'] === 'ar' ? ar.submit! : en.submit).click();
  return { fake, el, seen };
}

describe('a picture that does not load', () => {
  beforeEach(() => {
    sessionStorage.clear();
    delete (window as { dataLayer?: unknown }).dataLayer;
  });

  it('is said as an error with Try again, never "ready" over a blank result, and reported as image_failed', async () => {
    const { fake, el, seen } = await start({ brokenFiles: ['front.png'] }, { analytics: 'dataLayer' });
    await reach(el, 'error');
    expect(alertText(el)).to.contain(en.error_image_failed);
    expect(panelRoot(el).querySelector('[part="result"]'), 'no result step').to.equal(null);
    expect(await fileRequests(fake, 'front.png')).to.be.greaterThan(0);
    const error = seen.find((e) => e.type === 'tryon-error');
    expect(error?.detail.code).to.equal('image_failed');
    expect(error?.detail.retryable).to.equal(true);
    expect(error?.detail.message).to.equal(en.error_image_failed);
    const layer = (window as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? [];
    expect(
      layer.some((entry) => entry['event'] === 'tryon_error' && entry['error_code'] === 'image_failed'),
      JSON.stringify(layer),
    ).to.equal(true);
    await expect(el).to.be.accessible();

    // "Try again" shows the result again; its picture still does not load, and that is said again.
    button(el, en.tryAgain).click();
    await until(() => seen.filter((e) => e.type === 'tryon-error').length === 2, 'the second failure');
    await reach(el, 'error');
    expect(alertText(el)).to.contain(en.error_image_failed);
  });

  it('is an error when the first look does not load, while the full render is being made', async () => {
    const steps = [
      { status: 'queued' as const },
      { status: 'processing' as const, preview: 'succeeded' as const },
      { hold: true },
      { status: 'succeeded' as const, outputs: ['front'] },
    ];
    const { fake, el, seen } = await start({ steps, brokenFiles: ['preview-front.png'] });
    await reach(el, 'error');
    expect(alertText(el)).to.contain(en.error_image_failed);
    expect(seen.filter((e) => e.type === 'tryon-error').map((e) => e.detail.code)).to.deep.equal(['image_failed']);
    expect(await fileRequests(fake, 'preview-front.png')).to.be.greaterThan(0);
  });

  it("is an error when a colour preview does not load, in the page's language (Arabic, right to left)", async () => {
    const product = {
      views: ['front'],
      video: false,
      tier: 'standard',
      name: 'Bridal lehenga',
      colourPreviews: 3,
      variants: [
        { id: 'ivory', name: 'Ivory' },
        { id: 'emerald', name: 'Emerald' },
      ],
    };
    const { el, seen } = await start(
      { product, brokenFiles: ['draft-emerald-front.png'] },
      { variant: 'ivory', lang: 'ar' },
    );
    await reach(el, 'result');
    button(el, ar.seeAllColours!).click();
    await reach(el, 'error');
    expect(alertText(el)).to.contain(ar.error_image_failed!);
    expect(panelRoot(el).querySelector('dialog')!.getAttribute('dir')).to.equal('rtl');
    expect(seen.find((e) => e.type === 'tryon-error')?.detail.code).to.equal('image_failed');
  });

  it('has its words in every language, each its own translation', () => {
    for (const translation of [ar, bn, gu, hi, mr, ta, te, ur]) {
      const words = translation.error_image_failed;
      expect(words, translation.$code).to.be.a('string');
      expect(words, translation.$code).to.not.equal(en.error_image_failed);
    }
  });
});
