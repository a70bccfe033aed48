// "See it on a model" and "Use your phone" in the real widget against the fake proxy: the grid is
// reached and picked by keyboard, the try-on names the model with no consent and no upload; the
// hand-off shows its QR code and code, and the received photo goes straight to the try-on. Both
// screens are axe-clean in English and Arabic (right to left).
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { button, dialogOf, fakeProxy, focused, mount, panelRoot, reach, until } from './helpers.js';

// Served by the fake under its own path, on the page's origin, as the real proxy serves them beside the product.
const MODELS = ['asha', 'meera', 'nila'].map((id) => ({
  id,
  name: id[0]!.toUpperCase() + id.slice(1),
  image: `/fake/models/tryon/products/saree-red/models/${id}`,
}));

const productWithModels = () =>
  fakeProxy({ product: { views: ['front'], video: false, tier: 'draft', name: 'Red saree', models: MODELS } });

describe('see it on a model', () => {
  beforeEach(() => sessionStorage.clear());

  it('is reached and picked by keyboard, and tries on with the model: no consent, no photo uploaded', async () => {
    const fake = await productWithModels();
    const el = await mount(fake);
    await el.open();
    await reach(el, 'consent');
    // Offered once the product's models are known.
    await until(
      () => panelRoot(el).querySelectorAll('[part~="alternatives"] button').length === 2,
      'both alternatives',
    );
    button(el, 'No photo? See it on a model').click();
    await until(() => panelRoot(el).querySelector('[part~="model-grid"]'), 'the grid of models');
    const names = [...panelRoot(el).querySelectorAll('[part~="model"]')].map((b) => b.textContent?.trim());
    expect(names).to.deep.equal(['Asha', 'Meera', 'Nila']);
    await until(() => focused(el)?.textContent?.trim() === 'Asha', 'focus on the first model');
    await sendKeys({ press: 'Tab' });
    expect(focused(el)?.textContent?.trim()).to.equal('Meera');
    await sendKeys({ press: 'Enter' });
    await reach(el, 'result');
    const log = await fake.log();
    expect(log.filter((r) => r.method === 'POST' && r.path === '/photos')).to.have.length(0);
    const tryon = log.find((r) => r.method === 'POST' && r.path === '/tryons')!;
    expect(tryon.body!.model).to.equal('meera');
    expect(tryon.body!.photo).to.equal(undefined);
    expect(tryon.body!.consent).to.equal(undefined);
  });

  for (const lang of ['en', 'ar']) {
    it(`the grid is accessible (${lang})`, async () => {
      const fake = await productWithModels();
      const el = await mount(fake, { lang });
      await el.open();
      await reach(el, 'consent');
      // The first of the two, once the product's models are known.
      await until(
        () => panelRoot(el).querySelectorAll('[part~="alternatives"] button').length === 2,
        'both alternatives',
      );
      panelRoot(el).querySelector<HTMLButtonElement>('[part~="alternatives"] button')!.click();
      await until(() => panelRoot(el).querySelector('[part~="model-grid"]'), 'the grid of models');
      if (lang === 'ar') expect(dialogOf(el).getAttribute('dir')).to.equal('rtl');
      // 44 px targets.
      for (const model of panelRoot(el).querySelectorAll<HTMLElement>('[part~="model"]')) {
        const box = model.getBoundingClientRect();
        expect(Math.min(box.width, box.height)).to.be.at.least(44);
      }
      await expect(el).to.be.accessible();
    });
  }
});

describe('use your phone (the computer’s side)', () => {
  beforeEach(() => sessionStorage.clear());

  it('shows a QR code and the code, and tries on the photo the phone gave, without asking consent here', async () => {
    const fake = await fakeProxy({
      product: { views: ['front'], video: false, tier: 'draft', name: 'Red saree' },
      handoffReadsUntilReceived: 3,
    });
    const el = await mount(fake);
    await el.open();
    await reach(el, 'consent');
    await until(() => panelRoot(el).querySelector('[part~="alternatives"]'), 'the alternatives');
    button(el, 'Use your phone').click();
    const qr = await until(() => panelRoot(el).querySelector<HTMLImageElement>('[part~="qr-code"]'), 'the QR code');
    expect(qr.alt).to.equal('QR code that opens this page on your phone');
    expect(qr.src).to.match(/^data:image\/svg\+xml/);
    expect(panelRoot(el).querySelector('[part~="handoff-code"] strong')!.textContent).to.equal('ABCDE-FGHJK');
    await reach(el, 'result');
    const tryon = (await fake.log()).find((r) => r.method === 'POST' && r.path === '/tryons')!;
    expect(tryon.body!.photo).to.match(/_phone$/);
    expect((await fake.log()).filter((r) => r.method === 'POST' && r.path === '/photos')).to.have.length(0);
  });

  for (const lang of ['en', 'ar']) {
    it(`the hand-off screen is accessible (${lang})`, async () => {
      const fake = await fakeProxy({
        product: { views: ['front'], video: false, tier: 'draft', name: 'Red saree' },
        handoffReadsUntilReceived: 1000,
      });
      const el = await mount(fake, { lang });
      await el.open();
      await reach(el, 'consent');
      await until(() => panelRoot(el).querySelector('[part~="alternatives"] button'), 'the alternatives');
      panelRoot(el).querySelector<HTMLButtonElement>('[part~="alternatives"] button')!.click();
      await until(() => panelRoot(el).querySelector('[part~="qr-code"]'), 'the QR code');
      await expect(el).to.be.accessible();
      el.close();
    });
  }
});
