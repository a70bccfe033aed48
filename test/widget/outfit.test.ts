// "Complete the look" against the fake proxy: a result whose product has pieces offers them (picture,
// name, colour); a piece chosen from the keyboard is rendered over the result (`over`: the result's
// try-on, the piece and its colour, no photo, no consent claimed), its first look shown in the
// result's place, then its full render; the outfit's pieces are listed and the last is removed back
// to the layer beneath with no new render; "Add the look to cart" names every line; `tryon-outfit`,
// `tryon_outfit_piece`; each refusal in its own words (role=alert); right to left in Arabic on a
// phone with 44 px targets; axe-clean throughout.
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { TryonButton } from '../../widget/tryon-button.js';
import { outfitEn } from '../../widget/outfit/i18n/english.js';
import outfitAr from '../../widget/outfit/i18n/outfit-ar.js';
import outfitBn from '../../widget/outfit/i18n/outfit-bn.js';
import outfitGu from '../../widget/outfit/i18n/outfit-gu.js';
import outfitHi from '../../widget/outfit/i18n/outfit-hi.js';
import outfitMr from '../../widget/outfit/i18n/outfit-mr.js';
import outfitTa from '../../widget/outfit/i18n/outfit-ta.js';
import outfitTe from '../../widget/outfit/i18n/outfit-te.js';
import outfitUr from '../../widget/outfit/i18n/outfit-ur.js';
import { ar } from '../../widget/i18n/ar.js';
import {
  drawnPhoto,
  fakeProxy,
  focused,
  mount,
  openAndConsent,
  panelRoot,
  pickPhoto,
  reach,
  recordEvents,
  statusText,
  tryOnUntil,
  until,
} from './helpers.js';
import type { Fake, FakeRequest, Scenario } from './helpers.js';
import { viewport } from './media.js';

const lehenga: NonNullable<Scenario['product']> = {
  views: ['front'],
  video: false,
  tier: 'standard',
  name: 'Emerald lehenga',
  variants: [
    { id: 'emerald', name: 'Emerald' },
    { id: 'antique-gold', name: 'Antique gold' },
  ],
  pairs: [
    {
      product: 'dupatta-gota',
      name: 'Gota dupatta',
      image: 'files/dupatta-gota.png',
      variants: [
        { id: 'gold', name: 'Gold' },
        { id: 'rose', name: 'Rose' },
      ],
    },
    { product: 'stole-zari', name: 'Zari stole', image: 'files/stole-zari.png', variants: [] },
  ],
};

const tryons = async (fake: Fake): Promise<FakeRequest[]> =>
  (await fake.log()).filter((r) => r.method === 'POST' && r.path === '/tryons');
const root = (el: TryonButton) => panelRoot(el);
const picture = (el: TryonButton) => root(el).querySelector<HTMLImageElement>('img[part="image"]');
const offers = (el: TryonButton) => [...root(el).querySelectorAll<HTMLElement>('[part="outfit-offers"] > li')];
const pieces = (el: TryonButton) =>
  [...root(el).querySelectorAll<HTMLElement>('[part="outfit-pieces"] > li')].map(
    (li) => li.querySelector('span')?.textContent?.trim() ?? li.textContent!.trim(),
  );
const addButton = (el: TryonButton, product: string) =>
  root(el).querySelector<HTMLButtonElement>(`[data-piece="${product}"]`);
const removeButton = (el: TryonButton) => root(el).querySelector<HTMLButtonElement>('[data-remove-piece]');
const cartButton = (el: TryonButton) => root(el).querySelector<HTMLButtonElement>('[part~="add-to-cart-button"]');
const outfitError = (el: TryonButton) => root(el).querySelector<HTMLElement>('[part="outfit-error"]');
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);

/** Tab from where focus is until `target` has it: it is in the dialog's tab order. */
async function tabTo(el: TryonButton, target: () => Element | null, what: string): Promise<void> {
  for (let i = 0; i < 25 && focused(el) !== target(); i++) await sendKeys({ press: 'Tab' });
  expect(focused(el) === target(), `Tab reaches ${what}`).to.equal(true);
}

function outfitEvents(el: HTMLElement): { type: string; detail: any }[] {
  const seen = recordEvents(el);
  for (const type of ['tryon-outfit', 'tryon-add-to-cart'])
    el.addEventListener(type, (event) => {
      const { waitUntil: _, ...detail } = (event as CustomEvent).detail as Record<string, unknown>;
      seen.push({ type, detail });
    });
  return seen;
}

describe('complete the look', () => {
  beforeEach(() => {
    sessionStorage.clear();
    delete (window as { dataLayer?: unknown }).dataLayer;
  });

  it('a piece over the result from the keyboard: first look, full render, the outfit listed, the look to the cart, the last piece removed', async () => {
    const fake = await fakeProxy({
      product: lehenga,
      pieceSteps: [
        { status: 'processing', preview: 'succeeded' },
        { hold: true },
        { status: 'succeeded', outputs: ['front'] },
      ],
    });
    const el = await mount(fake, {
      product: 'lehenga',
      variant: 'emerald',
      'add-to-cart': 'event',
      analytics: 'dataLayer',
    });
    const seen = outfitEvents(el);
    await tryOnUntil(el);
    await until(() => offers(el).length === 2, 'the pieces offered');
    const base = (await tryons(fake))[0]!;
    const baseHandle = seen.find((e) => e.type === 'tryon-result')!.detail.tryon as string;
    expect(picture(el)!.src).to.contain('/emerald-front.png');
    expect(root(el).querySelector('#complete-title')!.textContent!.trim()).to.equal('Complete the look');

    // Each piece: its picture (decoration), its name, a colour choice when it has several, and "Add".
    const [dupatta, stole] = offers(el);
    expect(dupatta!.querySelector('img')!.getAttribute('alt')).to.equal('');
    expect(new URL(dupatta!.querySelector('img')!.src).pathname).to.match(/\/tryon\/files\/dupatta-gota\.png$/);
    expect(dupatta!.querySelector('.look-name')!.textContent!.trim()).to.equal('Gota dupatta');
    const colour = dupatta!.querySelector('select')!;
    expect(colour.getAttribute('aria-label')).to.equal('Colour of Gota dupatta');
    expect([...colour.options].map((o) => o.textContent)).to.deep.equal(['Gold', 'Rose']);
    expect(stole!.querySelector('select'), 'one colour: nothing to choose').to.equal(null);
    await expect(el).to.be.accessible();

    // The colour chosen from the keyboard, then "Add Gota dupatta".
    await tabTo(el, () => colour, 'the colour of the dupatta');
    colour.value = 'rose';
    colour.dispatchEvent(new Event('change', { bubbles: true }));
    await tabTo(el, () => addButton(el, 'dupatta-gota'), '"Add Gota dupatta"');
    expect(addButton(el, 'dupatta-gota')!.textContent!.trim()).to.equal('Add Gota dupatta');
    await sendKeys({ press: 'Enter' });

    // Sent over the result's try-on: the piece and its colour, no photo, no model, no consent claimed.
    await until(async () => (await tryons(fake)).length === 2, 'the piece sent');
    const sent = (await tryons(fake))[1]!.body!;
    expect(sent).to.include({ over: baseHandle, product: 'dupatta-gota', variant: 'rose' });
    expect(sent).to.not.have.any.keys('photo', 'model', 'consent', 'views');
    expect(sent['requestId']).to.be.a('string').and.not.equal(base.body!['requestId']);

    // Its first look in the result's place, said once; the base's controls stay.
    await until(() => picture(el)?.src.includes('/preview-dupatta-gota-rose-front.png'), 'the first look');
    await until(
      () => statusText(el) === 'A first look of Gota dupatta (Rose) on you. The full picture is coming.',
      'the first look said',
    );
    expect(root(el).querySelector('[part="outfit-progress"]')!.textContent!.trim()).to.equal(
      'Adding Gota dupatta (Rose) to your look…',
    );
    expect(addButton(el, 'stole-zari')!.getAttribute('aria-disabled')).to.equal('true');
    await fake.release();

    // The full render, the outfit listed, focus on the control that undoes it.
    await until(
      () => picture(el)?.src.endsWith('/dupatta-gota-rose-front.png') && !picture(el)!.src.includes('preview'),
      'the full render',
    );
    await until(() => statusText(el) === 'Gota dupatta (Rose) is in your look.', 'the piece said');
    expect(pieces(el)).to.deep.equal(['Emerald lehenga', 'Gota dupatta (Rose)']);
    expect(root(el).querySelector('#step-title')!.textContent!.trim()).to.equal(
      'Emerald lehenga and Gota dupatta (Rose) on you',
    );
    expect(picture(el)!.alt).to.equal('You wearing Emerald lehenga and Gota dupatta (Rose)');
    await until(() => focused(el) === removeButton(el), 'focus on "Remove Gota dupatta (Rose)"');
    expect(removeButton(el)!.textContent!.trim()).to.equal('Remove Gota dupatta (Rose)');
    expect(offers(el).map((o) => o.querySelector('.look-name')!.textContent!.trim())).to.deep.equal(['Zari stole']);
    const outfit = [
      { product: 'lehenga', variant: 'emerald' },
      { product: 'dupatta-gota', variant: 'rose' },
    ];
    expect(seen.filter((e) => e.type === 'tryon-outfit').map((e) => e.detail)).to.deep.equal([
      { product: 'lehenga', variant: 'emerald', pieces: outfit },
    ]);
    const pieceResult = seen.filter((e) => e.type === 'tryon-result')[1]!.detail;
    expect(pieceResult).to.include({ product: 'dupatta-gota', variant: 'rose', requestId: sent['requestId'] });
    const layer = () =>
      ((window as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? []).filter(
        (e) => String(e['event']).startsWith('tryon_outfit') || e['event'] === 'tryon_add_to_cart',
      );
    expect(layer()).to.deep.equal([
      { event: 'tryon_outfit_piece', product: 'dupatta-gota', variant: 'rose', pieces: 2 },
    ]);
    await expect(el).to.be.accessible();

    // "Add the look to cart": one event naming every line, then added, said with the outfit's names.
    expect(cartButton(el)!.textContent!.trim()).to.equal('Add the look to cart');
    await tabTo(el, () => cartButton(el), '"Add the look to cart"');
    await sendKeys({ press: 'Enter' });
    await until(() => cartButton(el)?.textContent?.trim() === 'The look is in your cart', 'the look added');
    await until(
      () => statusText(el) === 'Your look is in your cart: Emerald lehenga and Gota dupatta (Rose).',
      'the look said',
    );
    expect(seen.filter((e) => e.type === 'tryon-add-to-cart').map((e) => e.detail)).to.deep.equal([
      {
        product: 'lehenga',
        variant: 'emerald',
        cart: 'event',
        item: 'emerald',
        lines: [
          { product: 'lehenga', variant: 'emerald', item: 'emerald' },
          { product: 'dupatta-gota', variant: 'rose', item: 'rose' },
        ],
      },
    ]);
    expect(layer().slice(1)).to.deep.equal([
      { event: 'tryon_add_to_cart', product: 'lehenga', variant: 'emerald', cart: 'event' },
      { event: 'tryon_add_to_cart', product: 'dupatta-gota', variant: 'rose', cart: 'event' },
    ]);

    // Told to the proxy once, for its usage: the outfit's last piece and every piece (docs/proxy.md, "The cart report").
    const reports = async () => (await fake.log()).filter((r) => r.method === 'POST' && r.path.endsWith('/cart'));
    await until(async () => (await reports()).length, 'the outfit in the cart reported');
    expect((await reports()).map((r) => [r.path, r.body])).to.deep.equal([
      [`/tryons/${pieceResult['tryon'] as string}/cart`, { pieces: outfit }],
    ]);

    // Closed and opened again: the outfit is where it was.
    root(el).querySelector<HTMLButtonElement>('button.close')!.click();
    await reach(el, 'idle');
    await el.open();
    await reach(el, 'result');
    await until(() => pieces(el).length === 2, 'the outfit again');
    expect(picture(el)!.src).to.match(/\/dupatta-gota-rose-front\.png$/);

    // The last piece removed: the base again, from what was kept (no request), said, focus on its "Add" again.
    const before = (await fake.log()).length;
    await tabTo(el, () => removeButton(el), '"Remove Gota dupatta (Rose)"');
    await sendKeys({ press: 'Enter' });
    await until(() => picture(el)?.src.endsWith('/emerald-front.png'), 'the base result again');
    await until(() => statusText(el) === 'Gota dupatta (Rose) is out of your look.', 'the removal said');
    await until(() => focused(el) === addButton(el, 'dupatta-gota'), 'focus on "Add Gota dupatta"');
    expect(root(el).querySelector('[part="outfit-pieces"]')).to.equal(null);
    expect(cartButton(el)!.textContent!.trim()).to.equal('Add to cart');
    expect(root(el).querySelector('#step-title')!.textContent!.trim()).to.equal('Emerald lehenga on you');
    expect(seen.filter((e) => e.type === 'tryon-outfit').at(-1)!.detail.pieces).to.deep.equal([outfit[0]]);
    expect((await fake.log()).slice(before).filter((r) => !r.path.startsWith('/files/'))).to.deep.equal([]);
    expect(layer().length, 'a piece removed is not a conversion').to.equal(3);
    await expect(el).to.be.accessible();
  });

  it("the look to Shopify's cart in one request, and to WooCommerce's one line after another, each piece in its colour", async () => {
    const original = window.fetch;
    const shopify: unknown[] = [];
    const woo: string[] = [];
    (window as { Shopify?: unknown }).Shopify = { routes: { root: '/' } };
    (window as { wc_add_to_cart_params?: unknown }).wc_add_to_cart_params = { wc_ajax_url: '/?wc-ajax=%%endpoint%%' };
    window.fetch = async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url === '/cart/add.js') {
        shopify.push(JSON.parse(String(init?.body)));
        return Response.json({ items: [] });
      }
      if (url === '/cart.js') return Response.json({ item_count: 2 });
      if (url === '/?wc-ajax=add_to_cart') {
        woo.push(String(init?.body));
        return Response.json({ fragments: {}, cart_hash: 'h' });
      }
      return original(input, init);
    };
    try {
      // Shop ids, as a Shopify or WooCommerce catalog has them.
      const shop = {
        ...lehenga,
        variants: [{ id: '4401', name: 'Emerald' }],
        pairs: [
          {
            ...lehenga.pairs![0]!,
            variants: [
              { id: '4402', name: 'Gold' },
              { id: '4403', name: 'Rose' },
            ],
          },
        ],
      };
      for (const [platform, extra] of [
        ['shopify', {}],
        ['woocommerce', { 'cart-id': '77' }],
      ] as const) {
        const fake = await fakeProxy({ product: shop });
        const el = await mount(fake, { product: 'lehenga', variant: '4401', 'add-to-cart': platform, ...extra });
        await tryOnUntil(el);
        await until(() => addButton(el, 'dupatta-gota'), 'the dupatta offered');
        const colour = root(el).querySelector('select')!;
        colour.value = '4403';
        colour.dispatchEvent(new Event('change', { bubbles: true }));
        addButton(el, 'dupatta-gota')!.click();
        await until(() => cartButton(el)?.textContent?.trim() === 'Add the look to cart', 'the look to add');
        cartButton(el)!.click();
        await until(
          () => cartButton(el)?.textContent?.trim() === 'The look is in your cart',
          `the look in ${platform}'s cart`,
        );
        el.remove();
      }
      expect(shopify).to.deep.equal([
        {
          // Each line marked with the try-on it was seen in: the base's product, then the piece's.
          items: [
            { id: 4401, quantity: 1, properties: { _tryon: 'lehenga' } },
            { id: 4403, quantity: 1, properties: { _tryon: 'dupatta-gota' } },
          ],
        },
      ]);
      // The pieces first (a variation's own id is WooCommerce's product_id), the product in cart-id with its variation last.
      expect(woo.map((body) => Object.fromEntries(new URLSearchParams(body)))).to.deep.equal([
        { product_id: '4403', quantity: '1', tryon: 'dupatta-gota' },
        { product_id: '4401', quantity: '1', tryon: 'lehenga' },
      ]);
    } finally {
      window.fetch = original;
      delete (window as { Shopify?: unknown }).Shopify;
      delete (window as { wc_add_to_cart_params?: unknown }).wc_add_to_cart_params;
    }
  });

  it('each refusal in its own words (role=alert), with tryon-error; a piece on a piece; no pieces, no offer', async () => {
    const fake = await fakeProxy({
      product: lehenga,
      pieceErrors: [
        { status: 422, code: 'not_a_pair' },
        { status: 409, code: 'base_not_ready' },
        { status: 422, code: 'outfit_too_long' },
      ],
    });
    const el = await mount(fake, { variant: 'emerald' });
    const seen = outfitEvents(el);
    await tryOnUntil(el);
    await until(() => addButton(el, 'stole-zari'), 'the stole offered');
    const words = [
      ['not_a_pair', 'Zari stole does not go with this outfit.'],
      ['base_not_ready', 'Your try-on is not finished yet. Add Zari stole once it is ready.'],
      ['outfit_too_long', 'Your look has as many pieces as it can take. Remove one to add Zari stole.'],
    ];
    for (const [code, said] of words) {
      addButton(el, 'stole-zari')!.click();
      await until(() => outfitError(el)?.textContent?.trim() === said, `the words for ${code}`);
      expect(outfitError(el)!.getAttribute('role')).to.equal('alert');
      expect(seen.at(-1)).to.deep.equal({
        type: 'tryon-error',
        detail: { product: 'stole-zari', code, message: said, retryable: false },
      });
      expect(root(el).querySelector('[part="outfit-pieces"]'), 'nothing added').to.equal(null);
    }
    await expect(el).to.be.accessible();

    // Accepted at last: the stole, then the dupatta over the stole's try-on.
    addButton(el, 'stole-zari')!.click();
    await until(() => pieces(el).length === 2, 'the stole in the look');
    expect(outfitError(el)).to.equal(null);
    const stoleHandle = seen.filter((e) => e.type === 'tryon-result').at(-1)!.detail.tryon as string;
    addButton(el, 'dupatta-gota')!.click();
    await until(() => pieces(el).length === 3, 'the dupatta in the look');
    expect(pieces(el)).to.deep.equal(['Emerald lehenga', 'Zari stole', 'Gota dupatta (Gold)']);
    expect((await tryons(fake)).at(-1)!.body).to.include({
      over: stoleHandle,
      product: 'dupatta-gota',
      variant: 'gold',
    });
    expect(offers(el)).to.deep.equal([]);
    expect(root(el).querySelector('#complete-title'), 'every piece worn: nothing offered').to.equal(null);

    // A product without pieces offers none.
    const plain = await mount(await fakeProxy({ product: { ...lehenga, pairs: [] } }));
    await tryOnUntil(plain);
    await until(() => picture(plain), 'the result');
    expect(root(plain).querySelector('[part="outfit"]')).to.equal(null);
  });

  it('right to left in Arabic on a phone: its own words, 44 px targets, axe-clean', async () => {
    await viewport({ width: 390, height: 800 });
    try {
      const fake = await fakeProxy({ product: lehenga });
      const el = await mount(fake, { lang: 'ar', variant: 'emerald' });
      await openAndConsent(el, ar.continue!);
      await pickPhoto(el, await drawnPhoto(400, 500));
      root(el).querySelector<HTMLButtonElement>('button.primary')!.click();
      await reach(el, 'result');
      await until(
        () => root(el).querySelector('#complete-title')?.textContent?.trim() === outfitAr.completeLook,
        'the Arabic words',
      );
      // WebKitGTK evaluates a stylesheet's @media again only once it is adopted anew (result-layout.test.ts).
      const adopted = root(el);
      adopted.adoptedStyleSheets = [...adopted.adoptedStyleSheets];
      const offer = offers(el)[0]!;
      expect(getComputedStyle(offer).direction).to.equal('rtl');
      const [img, name] = [offer.querySelector('img')!, offer.querySelector('.look-name')!].map((e) =>
        e.getBoundingClientRect(),
      );
      expect(img!.left, 'the picture first, on the right').to.be.above(name!.left);
      for (const target of offer.querySelectorAll('button, select')) {
        const r = target.getBoundingClientRect();
        expect(r.height, target.outerHTML.slice(0, 40)).to.be.at.least(44);
      }
      const add = addButton(el, 'dupatta-gota')!;
      expect(add.textContent!.trim()).to.equal(fill(outfitAr.addPiece, { piece: 'Gota dupatta' }));
      add.click();
      await until(() => removeButton(el), 'the piece in the look');
      expect(removeButton(el)!.textContent!.trim()).to.equal(
        fill(outfitAr.removePiece, { piece: 'Gota dupatta (Gold)' }),
      );
      expect(statusText(el)).to.equal(fill(outfitAr.pieceAdded, { piece: 'Gota dupatta (Gold)' }));
      expect(Object.keys(outfitAr)).to.deep.equal(Object.keys(outfitEn));
      await expect(el).to.be.accessible();
    } finally {
      await viewport({ width: 1280, height: 800 });
    }
  });

  it("every language's words: each key of English's, with the same placeholders, and words of its own", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const languages = {
      ar: outfitAr,
      bn: outfitBn,
      gu: outfitGu,
      hi: outfitHi,
      mr: outfitMr,
      ta: outfitTa,
      te: outfitTe,
      ur: outfitUr,
    };
    for (const [code, words] of Object.entries(languages)) {
      expect(Object.keys(words), code).to.deep.equal(Object.keys(outfitEn));
      for (const [key, english] of Object.entries(outfitEn)) {
        const own = words[key as keyof typeof outfitEn];
        expect(placeholders(own), `${code} ${key}`).to.deep.equal(placeholders(english));
        expect(own, `${code} ${key} is translated`).to.not.equal(english);
      }
    }
  });
});
