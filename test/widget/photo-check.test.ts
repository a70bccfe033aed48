// The photo check on the device, through the real widget: real photos of people (opencv-doc,
// test/photos/people.ts, served by test/widget/photo-check-files.js), the real worker and models
// (built as for dist/cdn), the fake proxy counting requests. Its verdict is asserted through its
// event, `tryon-photo-check`, in every engine. In strict mode a refused photo is never
// uploaded; in warn mode "Use it anyway" sends it; off skips; a check that cannot run lets the
// shopper go on and says so. The verdict is axe-clean in English and Arabic, keyboard-reachable,
// announced, right to left in Arabic.
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { checkEn } from '../../widget/photo/check/i18n/english.js';
import checkAr from '../../widget/photo/check/i18n/check-ar.js';
import {
  button,
  control,
  dialogOf,
  fakeProxy,
  focused,
  mount,
  openAndConsent,
  reach,
  statusText,
  until,
} from './helpers.js';
import { checked, checks, kurta, photo, pick, saree, uploads, verdict } from './check-photos.js';

describe('the photo check', function () {
  this.timeout(90_000);
  beforeEach(() => sessionStorage.clear());

  it('accepts a full-length person for a saree, and the photo goes up', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { 'photo-check': 'strict' });
    const seen = checks(el);
    const detail = await checked(el, 'full', seen);
    expect(detail).to.deep.include({ product: 'saree-red', result: 'pass', reasons: [], mode: 'strict' });
    expect(detail.ms).to.be.a('number');
    expect(verdict(el)!.textContent!.trim()).to.equal(checkEn.passed);
    expect(statusText(el)).to.equal(checkEn.passed);
    button(el, 'Try it on').click();
    await reach(el, 'result');
    expect(await uploads(fake)).to.equal(1);
  });

  for (const [name, reason] of [
    ['half', 'not_full_body'],
    ['padded', 'not_full_body'],
    ['several', 'several_people'],
    ['none', 'no_person'],
    ['books', 'no_person'],
    ['graffiti', 'no_person'],
    ['dark', 'too_dark'],
    ['blurred', 'too_blurry'],
    ['small', 'too_small'],
  ] as const) {
    it(`strict: refuses the ${name} photo (${reason}) and uploads nothing`, async () => {
      const fake = await fakeProxy({ product: saree });
      const el = await mount(fake, { 'photo-check': 'strict' });
      const seen = checks(el);
      const detail = await checked(el, name, seen);
      expect(detail.result).to.equal('fail');
      expect(detail.reasons).to.include(reason);
      expect(detail.mode).to.equal('strict');
      // The reason in words, beside the drawing of a good photo; only "Choose another photo".
      expect(verdict(el)!.textContent).to.contain(checkEn[reason]);
      expect(verdict(el)!.querySelector('svg[role="img"]')!.getAttribute('aria-label')).to.equal(checkEn.exampleAlt);
      expect(control(el, checkEn.useAnyway)).to.equal(undefined);
      expect(control(el, 'Try it on')).to.equal(undefined);
      expect(button(el, checkEn.chooseAnother)).to.exist;
      expect(statusText(el)).to.contain(checkEn[reason]);
      expect(await uploads(fake)).to.equal(0);
    });
  }

  it("accepts the demo shop's sample photo for every product: a full-length one (saree) and a kurta", async () => {
    for (const product of [saree, kurta]) {
      const fake = await fakeProxy({ product });
      const el = await mount(fake, { 'photo-check': 'strict' });
      const seen = checks(el);
      expect(await checked(el, 'sample', seen)).to.deep.include({ result: 'pass', reasons: [] });
      el.remove();
    }
  });

  it('a photo chosen before the product is known is checked against the product: the half photo fails for a saree', async () => {
    const fake = await fakeProxy({ product: saree, productHold: true });
    const el = await mount(fake, { 'photo-check': 'strict' });
    const seen = checks(el);
    await openAndConsent(el);
    await pick(el, await photo('half'));
    await until(async () => (await fake.log()).some((r) => r.path === '/products/saree-red'), 'the product asked for');
    // Only now does the product's answer come: the check waited for it.
    await fake.release();
    await until(() => seen.length > 0, 'the check of the half photo', 40_000);
    expect(seen.map((detail) => detail.result)).to.deep.equal(['fail']);
    expect(seen[0]!.reasons).to.include('not_full_body');
    expect(control(el, 'Try it on')).to.equal(undefined);
    expect(await uploads(fake)).to.equal(0);
  });

  for (const name of ['half', 'padded'] as const)
    it(`accepts the ${name} half-length person for a product that does not need the whole body`, async () => {
      const fake = await fakeProxy({ product: kurta });
      const el = await mount(fake, { 'photo-check': 'strict', product: 'kurta-white' });
      const seen = checks(el);
      const detail = await checked(el, name, seen);
      expect(detail).to.deep.include({ product: 'kurta-white', result: 'pass', reasons: [], mode: 'strict' });
      expect(control(el, 'Try it on')).to.exist;
    });

  it('warn (the default): "Use it anyway" sends the photo, said in an event and in analytics', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { 'photo-check': false, analytics: 'dataLayer' });
    (window as { dataLayer?: unknown[] }).dataLayer = [];
    const seen = checks(el);
    // mount() turns the check off for drawn photos; the default is what this test is about.
    el.removeAttribute('photo-check');
    const detail = await checked(el, 'several', seen);
    expect(detail).to.deep.include({ result: 'fail', mode: 'warn' });
    expect(verdict(el)!.textContent).to.contain(checkEn.warnNote);
    expect(control(el, 'Try it on')).to.equal(undefined);
    // Keyboard: focus is on the verdict's first action; Tab reaches "Use it anyway".
    expect(focused(el)?.textContent?.trim()).to.equal(checkEn.chooseAnother);
    await sendKeys({ press: 'Tab' });
    expect(focused(el)?.textContent?.trim()).to.equal(checkEn.useAnyway);
    await sendKeys({ press: 'Enter' });
    await until(() => seen.length === 2, 'the overridden event');
    expect(seen[1]).to.deep.include({ result: 'fail', mode: 'warn', overridden: true });
    await until(() => control(el, 'Try it on'), '"Try it on" after "Use it anyway"');
    expect(await uploads(fake)).to.equal(0);
    button(el, 'Try it on').click();
    await reach(el, 'result');
    expect(await uploads(fake)).to.equal(1);
    const layer = ((window as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? []).filter(
      (e) => e['event'] === 'tryon_photo_check',
    );
    expect(layer.map(({ duration_ms: _ms, ...rest }) => rest)).to.deep.equal([
      { event: 'tryon_photo_check', product: 'saree-red', result: 'fail', reasons: 'several_people', mode: 'warn' },
      {
        event: 'tryon_photo_check',
        product: 'saree-red',
        result: 'fail',
        reasons: 'several_people',
        mode: 'warn',
        overridden: true,
      },
    ]);
    delete (window as { dataLayer?: unknown }).dataLayer;
  });

  it('off: nothing is checked (no worker), the event says skipped', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { 'photo-check': 'off' });
    const seen = checks(el);
    const made: unknown[] = [];
    const RealWorker = window.Worker;
    window.Worker = class extends RealWorker {
      constructor(url: string | URL, options?: WorkerOptions) {
        made.push(url);
        super(url, options);
      }
    };
    try {
      const detail = await checked(el, 'none', seen);
      expect(detail).to.deep.equal({ product: 'saree-red', result: 'skipped', reasons: [], mode: 'off' });
      expect(made).to.deep.equal([]);
      expect(verdict(el)).to.equal(null);
      expect(control(el, 'Try it on')).to.exist;
    } finally {
      window.Worker = RealWorker;
    }
  });

  it('a check that cannot run says so and lets the shopper go on, even in strict mode', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { 'photo-check': 'strict' });
    const seen = checks(el);
    const RealWorker = window.Worker;
    // A browser without module workers (or a worker the page's CSP refuses).
    (window as { Worker?: unknown }).Worker = undefined;
    const warn = console.warn;
    const said: string[] = [];
    console.warn = (...args: unknown[]) => {
      said.push(args.map(String).join(' '));
    };
    try {
      const detail = await checked(el, 'none', seen);
      expect(detail).to.deep.include({ result: 'unavailable', reasons: [], mode: 'strict' });
      expect(verdict(el)!.textContent!.trim()).to.equal(checkEn.unavailable);
      expect(said.some((line) => line.includes('photo check does not run'))).to.equal(true);
      button(el, 'Try it on').click();
      await reach(el, 'result');
      expect(await uploads(fake)).to.equal(1);
    } finally {
      window.Worker = RealWorker;
      console.warn = warn;
    }
  });

  it('the verdict is axe-clean in English, with 44 px targets', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { 'photo-check': 'warn' });
    const seen = checks(el);
    await checked(el, 'none', seen);
    for (const name of [checkEn.chooseAnother, checkEn.useAnyway]) {
      expect(button(el, name).getBoundingClientRect().height).to.be.at.least(44);
    }
    await expect(el).to.be.accessible();
  });

  it('the verdict in Arabic: its own words, right to left, axe-clean', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { 'photo-check': 'warn', lang: 'ar' });
    const seen = checks(el);
    await checked(el, 'several', seen, 'متابعة');
    await until(() => verdict(el)?.textContent?.includes(checkAr.several_people), 'the Arabic verdict');
    expect(dialogOf(el).getAttribute('dir')).to.equal('rtl');
    expect(control(el, checkAr.useAnyway)).to.exist;
    expect(statusText(el)).to.contain(checkAr.several_people);
    // Right to left: the drawing of a good photo sits at the right, the words to its left.
    const drawing = verdict(el)!.querySelector('svg')!.getBoundingClientRect();
    const words = verdict(el)!.querySelector('.check-words')!.getBoundingClientRect();
    expect(drawing.left).to.be.greaterThan(words.left);
    await expect(el).to.be.accessible();
  });
});
