// The product's variant (colour): sent with the try-on and named in every event, and "Try this
// colour" once the page picks another colour while a result is on screen — the same photo, a new
// try-on with a new requestId, by mouse or keyboard, announced and axe-clean.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { TryonButton } from '../../widget/tryon-button.js';
import {
  button,
  control,
  dialogOf,
  drawnPhoto,
  fakeProxy,
  mount,
  openAndConsent,
  panelRoot,
  pickPhoto,
  reach,
  recordEvents,
  statusText,
  until,
  focused,
  submitTryon,
  tryOnUntil,
  startHeldTryon,
  reloadPage,
  SAREE_IN_TWO_COLOURS,
  HELD_AFTER_QUEUED,
} from './helpers.js';
import type { Fake, FakeRequest } from './helpers.js';

const saree = SAREE_IN_TWO_COLOURS;

const tryons = async (fake: Fake): Promise<FakeRequest[]> =>
  (await fake.log()).filter((r) => r.method === 'POST' && r.path === '/tryons');
const uploads = async (fake: Fake): Promise<number> => (await fake.log()).filter((r) => r.path === '/photos').length;
const shownImage = (el: TryonButton) => panelRoot(el).querySelector<HTMLImageElement>('img[part="image"]')?.src ?? '';
const colourOffer = (el: TryonButton) =>
  [...panelRoot(el).querySelectorAll('button')].find((b) => b.textContent!.startsWith('Try this colour'));

async function tryOn(el: TryonButton): Promise<void> {
  await tryOnUntil(el);
  await until(() => shownImage(el), 'the result image');
}

describe('variants', () => {
  beforeEach(() => sessionStorage.clear());

  it('sends the variant in POST /tryons and names it in every event', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { variant: 'ivory' });
    const seen = recordEvents(el);
    await tryOn(el);
    expect(shownImage(el)).to.contain('/files/ivory-front.png');
    el.close();
    await reach(el, 'idle');

    const [sent] = await tryons(fake);
    expect(sent!.body!['variant']).to.equal('ivory');
    const types = [...new Set(seen.map((e) => e.type))];
    expect(types).to.deep.equal(['tryon-open', 'tryon-progress', 'tryon-submit', 'tryon-result', 'tryon-close']);
    for (const event of seen) expect(event.detail.variant, event.type).to.equal('ivory');
  });

  it('sends no variant, and names none, when the page sets none', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake);
    const seen = recordEvents(el);
    await tryOn(el);
    const [sent] = await tryons(fake);
    expect(sent!.body!).to.not.have.property('variant');
    expect(shownImage(el)).to.contain('/files/front.png');
    expect(seen.length).to.be.greaterThan(3);
    for (const event of seen) expect(event.detail, event.type).to.not.have.property('variant');
    // A result without a colour offers none.
    expect(colourOffer(el)?.textContent ?? null).to.equal(null);
  });

  it('takes a colour chosen before the try-on was sent', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { variant: 'ivory' });
    await openAndConsent(el);
    await pickPhoto(el, await drawnPhoto(500, 700));
    el.variant = 'sindoor-red';
    await el.updateComplete;
    button(el, 'Try it on').click();
    await reach(el, 'result');
    expect((await tryons(fake)).map((r) => r.body!['variant'])).to.deep.equal(['sindoor-red']);
    expect(colourOffer(el)?.textContent ?? null).to.equal(null);
  });

  it('offers "Try this colour" only after the colour changes with a result on screen, and runs it with the same photo and a new requestId', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { variant: 'ivory' });
    const seen = recordEvents(el);
    await tryOn(el);
    expect(colourOffer(el)?.textContent ?? null, 'no offer for the colour already shown').to.equal(null);

    el.variant = 'sindoor-red';
    await el.updateComplete;
    const offer = await until(() => colourOffer(el), '"Try this colour"');
    expect(offer.textContent!.trim()).to.equal('Try this colour: Sindoor red');
    await until(
      () =>
        statusText(el) ===
        'You chose another colour. “Try this colour: Sindoor red” shows it on you with the same photo.',
      'the offer announced',
    );
    // Still the ivory result until the shopper asks.
    expect(shownImage(el)).to.contain('/files/ivory-front.png');
    expect((await tryons(fake)).length).to.equal(1);
    await expect(el).to.be.accessible();

    offer.click();
    await until(async () => (await tryons(fake)).length === 2, 'the second try-on');
    await reach(el, 'result');
    await until(() => shownImage(el).includes('/files/sindoor-red-front.png'), 'the red result');
    const [first, second] = await tryons(fake);
    expect(second!.body!['variant']).to.equal('sindoor-red');
    expect(second!.body!['photo']).to.equal(first!.body!['photo']);
    expect(second!.body!['requestId']).to.be.a('string').and.not.equal(first!.body!['requestId']);
    expect(await uploads(fake), 'the photo is not uploaded again').to.equal(1);
    expect(colourOffer(el)?.textContent ?? null, 'the offer goes once the colour is shown').to.equal(null);

    const results = seen.filter((e) => e.type === 'tryon-result').map((e) => e.detail);
    expect(results.map((d) => d.variant)).to.deep.equal(['ivory', 'sindoor-red']);
    expect(results[1].requestId).to.equal(second!.body!['requestId']);
    const submits = seen.filter((e) => e.type === 'tryon-submit').map((e) => e.detail.variant);
    expect(submits).to.deep.equal(['ivory', 'sindoor-red']);

    // Back to the product's own garment is another colour too; unnamed, the offer says so plainly.
    el.variant = '';
    await el.updateComplete;
    expect((await until(() => colourOffer(el), 'the offer for no variant')).textContent!.trim()).to.equal(
      'Try this colour',
    );
  });

  it('does not disturb a try-on under way when the colour changes, and offers the new colour after', async () => {
    const fake = await fakeProxy({
      product: saree,
      steps: HELD_AFTER_QUEUED,
    });
    const el = await mount(fake, { variant: 'ivory' });
    await startHeldTryon(fake, el, { what: 'the render held' });
    el.variant = 'sindoor-red';
    await el.updateComplete;
    expect(colourOffer(el)?.textContent ?? null).to.equal(null);
    await fake.release();
    await reach(el, 'result');
    await until(() => shownImage(el), 'the result image');
    expect(shownImage(el)).to.contain('/files/ivory-front.png');
    const log = await fake.log();
    expect(log.filter((r) => r.path.endsWith('/events')).map((r) => Boolean(r.closedByClient))).to.deep.equal([false]);
    expect((await tryons(fake)).map((r) => r.body!['variant'])).to.deep.equal(['ivory']);
    expect(colourOffer(el)?.textContent!.trim()).to.equal('Try this colour: Sindoor red');
  });

  it('from the keyboard: a colour picked with the dialog closed is offered first when it opens again', async () => {
    const fake = await fakeProxy({ product: saree });
    const container = await fixture<HTMLDivElement>(html`<div><fieldset><legend>Colour</legend>
      <label><input type="radio" name="colour" value="ivory" checked> Ivory</label>
      <label><input type="radio" name="colour" value="sindoor-red"> Sindoor red</label></fieldset>
      <tryon-button product="saree-red" endpoint=${fake.endpoint} prefetch="interaction" variant="ivory"></tryon-button></div>`);
    const el = container.querySelector('tryon-button')!;
    container.addEventListener('change', (event) => {
      el.variant = (event.target as HTMLInputElement).value;
    });
    // As if the shopper had pressed the button: focus comes back to it when the dialog closes.
    el.focus();
    await tryOn(el);

    await sendKeys({ press: 'Escape' });
    await reach(el, 'idle');
    // Compared as booleans: chai's message for a mismatched custom element never ends.
    expect(document.activeElement === el, 'focus back on the button').to.equal(true);
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ up: 'Shift' });
    expect((document.activeElement as HTMLInputElement).value).to.equal('ivory');
    await sendKeys({ press: 'ArrowDown' });
    await until(() => el.variant === 'sindoor-red', 'the colour picked');
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement === el, 'Tab reaches the button').to.equal(true);
    await sendKeys({ press: 'Enter' });
    await reach(el, 'result');
    expect(dialogOf(el).open).to.equal(true);
    await until(
      () => focused(el)?.textContent?.trim() === 'Try this colour: Sindoor red',
      'focus on "Try this colour"',
    );
    await until(() => statusText(el).includes('Try this colour: Sindoor red'), 'the offer announced on opening');
    await expect(el).to.be.accessible();

    await sendKeys({ press: 'Enter' });
    await until(async () => (await tryons(fake)).length === 2, 'the second try-on');
    await reach(el, 'result');
    await until(() => shownImage(el).includes('/files/sindoor-red-front.png'), 'the red result');
    expect(await uploads(fake)).to.equal(1);
    await expect(el).to.be.accessible();
  });

  it('uploads the photo again when its handle has expired', async () => {
    // Handles valid for 30 s: within the widget's minute of margin, so already too old to reuse.
    const fake = await fakeProxy({ product: saree, photoExpiresInMs: 30_000 });
    const el = await mount(fake, { variant: 'ivory' });
    await tryOn(el);
    el.variant = 'sindoor-red';
    await el.updateComplete;
    (await until(() => colourOffer(el), '"Try this colour"')).click();
    await until(async () => (await tryons(fake)).length === 2, 'the second try-on');
    await reach(el, 'result');
    await until(() => shownImage(el).includes('/files/sindoor-red-front.png'), 'the red result');
    const [first, second] = await tryons(fake);
    expect(await uploads(fake)).to.equal(2);
    expect(second!.body!['photo']).to.not.equal(first!.body!['photo']);
  });

  it("tries on the product's own garment, and tells the developer once, when the catalog lists no such colour", async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      warnings.push(args.join(' '));
    };
    try {
      const fake = await fakeProxy({ product: saree });
      // A Shopify size id, say: the catalog maps colours only.
      const el = await mount(fake, { variant: '44871234567890' });
      await tryOn(el);
      const [sent] = await tryons(fake);
      expect(sent!.body!).to.not.have.property('variant');
      expect(shownImage(el)).to.contain('/files/front.png');
      // Another unlisted choice is the same garment: nothing new to offer.
      el.variant = '44871234567891';
      await el.updateComplete;
      expect(colourOffer(el)?.textContent ?? null).to.equal(null);
      expect(warnings.filter((w) => w.includes('"44871234567890"'))).to.have.length(1);
      expect(warnings.join('\n')).to.contain('saree');
    } finally {
      console.warn = warn;
    }
  });

  it("a quick shopper's unlisted colour, pressed before the product's list arrived, is the product's own garment everywhere", async () => {
    // The list is held until "Try it on" is pressed: the try-on starts with the page's raw choice
    // and is checked against the list only at submit. Firefox met this order by itself in CI.
    const fake = await fakeProxy({ product: saree });
    const realFetch = window.fetch;
    let release!: () => void;
    const pressed = new Promise<void>((resolve) => {
      release = resolve;
    });
    window.fetch = async (input, init) => {
      if (/\/products\/[^/]+$/.test(new URL(String(input), location.href).pathname)) await pressed;
      return realFetch(input, init);
    };
    const warn = console.warn;
    console.warn = () => {};
    try {
      const el = await mount(fake, { variant: '44871234567892' });
      const seen = recordEvents(el);
      await submitTryon(el);
      release();
      await reach(el, 'result');
      const [sent] = await tryons(fake);
      expect(sent!.body!).to.not.have.property('variant');
      for (const type of ['tryon-submit', 'tryon-result']) {
        expect(seen.find((e) => e.type === type)!.detail, type).to.not.have.property('variant');
      }
      el.variant = '44871234567893';
      await el.updateComplete;
      expect(colourOffer(el)?.textContent ?? null).to.equal(null);
      el.variant = 'ivory';
      await el.updateComplete;
      expect(colourOffer(el)?.textContent ?? null).to.equal('Try this colour: Ivory');
    } finally {
      window.fetch = realFetch;
      console.warn = warn;
    }
  });

  it('sends a colour to a product that lists none as no colour, without a warning', async () => {
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      warnings.push(args);
    };
    try {
      const fake = await fakeProxy({ product: { ...saree, variants: [] } });
      const el = await mount(fake, { variant: 'ivory' });
      await tryOn(el);
      const [sent] = await tryons(fake);
      expect(sent!.body!).to.not.have.property('variant');
      expect(warnings).to.have.length(0);
    } finally {
      console.warn = warn;
    }
  });

  it("says so in the shopper's words when the proxy refuses the colour after listing it", async () => {
    // The catalog changed between the product's read and the try-on: listed, then refused.
    const fake = await fakeProxy({ product: saree });
    const realFetch = window.fetch;
    window.fetch = async (input, init) => {
      const response = await realFetch(input, init);
      if (!/\/products\/[^/]+$/.test(new URL(String(input), location.href).pathname)) return response;
      const listed = (await response.json()) as { variants: { id: string; name: string }[] };
      listed.variants = [...listed.variants, { id: 'purple', name: 'Purple' }];
      return new Response(JSON.stringify(listed), { status: response.status, headers: response.headers });
    };
    try {
      const el = await mount(fake, { variant: 'purple' });
      const seen = recordEvents(el);
      await tryOnUntil(el, 'error');
      expect(panelRoot(el).querySelector('[role="alert"]')!.textContent!.trim()).to.equal(
        'Try-on is not available for this colour. Please choose another one.',
      );
      const error = seen.find((e) => e.type === 'tryon-error')!.detail;
      expect(error).to.deep.include({ code: 'unknown_variant', variant: 'purple', retryable: false });

      // Picking a colour the product has, then "Try again", sends that colour as a new try-on.
      el.variant = 'ivory';
      await el.updateComplete;
      button(el, 'Try again').click();
      await reach(el, 'result');
      const [refused, accepted] = await tryons(fake);
      expect(accepted!.body!['variant']).to.equal('ivory');
      expect(accepted!.body!['requestId']).to.not.equal(refused!.body!['requestId']);
      expect(control(el, 'Try again')?.textContent ?? null).to.equal(null);
    } finally {
      window.fetch = realFetch;
    }
  });

  it('a reload picks the try-on up with its variant, even when the page now shows another', async () => {
    const fake = await fakeProxy({
      product: saree,
      steps: HELD_AFTER_QUEUED,
    });
    const first = await mount(fake, { variant: 'ivory' });
    await startHeldTryon(fake, first, { what: 'the render held' });
    const { again, seen } = await reloadPage(first, fake, { variant: 'sindoor-red', product: 'saree-red' });
    await reach(again, 'queued');
    // The first page's stream is given up and the new page's waits at the hold before it is released.
    await until(async () => {
      const streams = (await fake.log()).filter((r) => r.held);
      return streams.length === 2 && streams[0]!.closedByClient;
    }, 'the new page watching');
    await fake.release();
    await reach(again, 'result');
    await until(() => shownImage(again), 'the result image');
    expect(shownImage(again)).to.contain('/files/ivory-front.png');
    expect(seen.find((e) => e.type === 'tryon-result')!.detail.variant).to.equal('ivory');
    // The offer names the colour once the product's answer (its variants' names) is in.
    await until(
      () => colourOffer(again)?.textContent?.trim() === 'Try this colour: Sindoor red',
      'the offer, naming the colour',
    );
    expect((await tryons(fake)).length).to.equal(1);
  });
});
