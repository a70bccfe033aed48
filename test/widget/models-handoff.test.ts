// "See it on a model" and "Use your phone" in the real widget against the fake proxy: the grid is
// reached and picked by keyboard, the try-on names the model with no consent and no upload; the
// hand-off shows its QR code and code; once the phone's photo came, the number the phone shows is
// typed here by keyboard (a wrong one said in the live region, with the tries left), and only the
// right one gives the photo, which goes straight to the try-on; wrong numbers used up end it and
// offer a new code. The screens are axe-clean in English and Arabic (right to left).
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import {
  button,
  control,
  dialogOf,
  fakeProxy,
  focused,
  mount,
  panelRoot,
  reach,
  statusText,
  until,
} from './helpers.js';
import type { TryonButton } from '../../widget/tryon-button.js';

/** The number field, once the fake's phone photo has come (the hand-off is confirming). */
const numberField = (el: TryonButton) =>
  until(() => panelRoot(el).querySelector<HTMLInputElement>('#handoff-number'), 'the number field');

/** Types `text` into the focused field and presses Enter, as a shopper at a keyboard. */
async function typeNumber(el: TryonButton, text: string): Promise<void> {
  const field = await numberField(el);
  await until(() => focused(el) === field, 'focus in the number field');
  field.select();
  await sendKeys({ type: text });
  await sendKeys({ press: 'Enter' });
}

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

  it('shows a QR code and the code, asks for the phone’s number, and tries on the photo only after the right one', async () => {
    const fake = await fakeProxy({
      product: { views: ['front'], video: false, tier: 'draft', name: 'Red saree' },
      handoffReadsUntilReceived: 3,
      // The phone answers once the QR code has been seen, however slowly it was drawn.
      handoffHold: true,
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

    // The phone's photo came: the number is asked for, and the live region says why.
    await fake.release();
    const field = await numberField(el);
    expect(panelRoot(el).querySelector('label[for="handoff-number"]')!.textContent).to.equal(
      'Number shown on your phone',
    );
    expect(statusText(el)).to.match(/^Type the number your phone shows within [45]:[0-5][0-9]\.$/);
    await typeNumber(el, '654321');
    await until(() => statusText(el).includes('Tries left: 4'), 'the wrong number said in the live region');
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    expect(panelRoot(el).querySelector('#handoff-number-problem')!.textContent).to.contain('Tries left: 4');
    expect(focused(el), 'focus stays in the field to type again').to.equal(field);
    expect(
      (await fake.log()).some((r) => r.path === '/tryons'),
      'no try-on before the right number',
    ).to.equal(false);
    // Typed as the phone shows it, with its space.
    await typeNumber(el, '123 456');
    await reach(el, 'result');
    const confirms = (await fake.log()).filter((r) => r.method === 'POST' && r.path.endsWith('/confirm'));
    expect(confirms.map((r) => r.body!.number)).to.deep.equal(['654321', '123456']);
    const tryon = (await fake.log()).find((r) => r.method === 'POST' && r.path === '/tryons')!;
    expect(tryon.body!.photo).to.match(/_phone$/);
    expect((await fake.log()).filter((r) => r.method === 'POST' && r.path === '/photos')).to.have.length(0);
  });

  it('wrong numbers used up end the hand-off: said, no photo, and a new code offered', async () => {
    const fake = await fakeProxy({
      product: { views: ['front'], video: false, tier: 'draft', name: 'Red saree' },
      handoffReadsUntilReceived: 1,
      handoffTries: 2,
      // The new code's hand-off stays waiting, so its QR code stays up however slowly it is drawn.
      handoffsAnswered: 1,
    });
    const el = await mount(fake);
    await el.open();
    await reach(el, 'consent');
    await until(() => panelRoot(el).querySelector('[part~="alternatives"]'), 'the alternatives');
    button(el, 'Use your phone').click();
    await typeNumber(el, '102938');
    await until(() => statusText(el).includes('Tries left: 1'), 'one try left');
    await typeNumber(el, '203948');
    await until(() => statusText(el).includes('Too many wrong numbers'), 'the end said');
    expect(panelRoot(el).querySelector('#handoff-number')).to.equal(null);
    const again = await until(() => control(el, 'Get a new code'), 'Get a new code');
    await until(() => focused(el) === again, 'focus on Get a new code');
    expect((await fake.log()).some((r) => r.path === '/tryons')).to.equal(false);
    expect(el.status).to.equal('consent');
    await sendKeys({ press: 'Enter' });
    await until(() => panelRoot(el).querySelector('[part~="qr-code"]'), 'a new QR code');
    expect((await fake.log()).filter((r) => r.method === 'POST' && r.path === '/handoffs')).to.have.length(2);
  });

  for (const lang of ['en', 'ar']) {
    it(`the number field is accessible, with 44 px targets (${lang})`, async () => {
      const fake = await fakeProxy({
        product: { views: ['front'], video: false, tier: 'draft', name: 'Red saree' },
        handoffReadsUntilReceived: 1,
      });
      const el = await mount(fake, { lang });
      await el.open();
      await reach(el, 'consent');
      await until(() => panelRoot(el).querySelector('[part~="alternatives"] button'), 'the alternatives');
      panelRoot(el).querySelector<HTMLButtonElement>('[part~="alternatives"] button')!.click();
      await typeNumber(el, '918273');
      await until(() => panelRoot(el).querySelector('#handoff-number-problem'), 'the wrong number shown');
      if (lang === 'ar') expect(dialogOf(el).getAttribute('dir')).to.equal('rtl');
      for (const target of panelRoot(el).querySelectorAll<HTMLElement>('[part~="handoff-confirm"] :is(input, button)'))
        expect(target.getBoundingClientRect().height).to.be.at.least(44);
      await expect(el).to.be.accessible();
      el.close();
    });
  }

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
