// "Add to cart" on the result (the `add-to-cart` attribute), against the fake proxy: reached and
// pressed from the keyboard, its adding, added and failed states (announced, role=alert), the
// `tryon-add-to-cart` event and `tryon_add_to_cart` for analytics, Shopify's Ajax Cart API and the
// events Dawn and Horizon refresh from (a stand-in of /cart/add.js and /cart.js in the page's fetch),
// right to left, axe-clean.
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { TryonButton } from '../../widget/tryon-button.js';
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
  withConsoleErrors,
  focused,
  tryOnUntil,
  SAREE_IN_TWO_COLOURS,
} from './helpers.js';

const saree = SAREE_IN_TWO_COLOURS;

const cartButton = (el: TryonButton) => panelRoot(el).querySelector<HTMLButtonElement>('[part~="add-to-cart-button"]');
const cartError = (el: TryonButton) => panelRoot(el).querySelector<HTMLElement>('[part="cart-error"]');

async function tryOn(el: TryonButton): Promise<void> {
  await tryOnUntil(el);
  await until(() => panelRoot(el).querySelector('img[part="image"]'), 'the result image');
}

/** Tab from where focus is until "Add to cart" has it: it is in the dialog's tab order. */
async function tabToCart(el: TryonButton): Promise<void> {
  for (let i = 0; i < 12 && focused(el) !== cartButton(el); i++) await sendKeys({ press: 'Tab' });
  expect(focused(el) === cartButton(el), 'Tab reaches "Add to cart"').to.equal(true);
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}
function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('add to cart from the result', () => {
  const original = window.fetch;
  beforeEach(() => {
    sessionStorage.clear();
    delete (window as { dataLayer?: unknown }).dataLayer;
    delete (window as { Shopify?: unknown }).Shopify;
    delete (window as { publish?: unknown }).publish;
  });
  afterEach(() => {
    window.fetch = original;
  });

  it("event: keyboard-reachable; adding until the shop's work settles, then added, announced, and reported", async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { variant: 'ivory', 'add-to-cart': 'event', analytics: 'dataLayer' });
    const work = deferred();
    const seen: Record<string, unknown>[] = [];
    el.addEventListener('tryon-add-to-cart', (event) => {
      const { waitUntil, ...rest } = event.detail;
      seen.push(rest);
      waitUntil(work.promise);
    });
    await tryOn(el);
    expect(cartButton(el)?.textContent?.trim()).to.equal('Add to cart');
    expect(cartButton(el)!.getAttribute('part')).to.contain('primary-button');
    await tabToCart(el);
    await sendKeys({ press: 'Enter' });

    await until(() => cartButton(el)?.textContent?.trim() === 'Adding to cart…', 'the adding state');
    expect(cartButton(el)!.getAttribute('aria-disabled')).to.equal('true');
    expect(seen).to.deep.equal([
      {
        product: 'saree-red',
        variant: 'ivory',
        cart: 'event',
        item: 'ivory',
        // One line: the variant tried on ("Add the look to cart" names each piece: outfit.test.ts).
        lines: [{ product: 'saree-red', variant: 'ivory', item: 'ivory' }],
      },
    ]);
    // Pressed again while adding: nothing more.
    await sendKeys({ press: 'Enter' });
    expect(seen.length).to.equal(1);
    const layer = () =>
      ((window as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? []).filter(
        (e) => e['event'] === 'tryon_add_to_cart',
      );
    expect(layer(), 'nothing reported before the add is done').to.deep.equal([]);

    work.resolve();
    await until(() => cartButton(el)?.textContent?.trim() === 'Added to cart', 'the added state');
    await until(() => statusText(el) === 'Banarasi saree is in your cart.', 'the announcement');
    expect(focused(el) === cartButton(el), 'focus stays on the button').to.equal(true);
    expect(layer()).to.deep.equal([
      { event: 'tryon_add_to_cart', product: 'saree-red', variant: 'ivory', cart: 'event' },
    ]);
    expect(cartError(el)).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('event: a failed add says so (role=alert, described), and can be pressed again from the keyboard', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { variant: 'sindoor-red', 'add-to-cart': 'event' });
    let attempt = 0;
    el.addEventListener('tryon-add-to-cart', (event) => {
      attempt += 1;
      event.detail.waitUntil(attempt === 1 ? Promise.reject(new Error("the shop's cart is down")) : Promise.resolve());
    });
    await tryOn(el);
    await tabToCart(el);
    await sendKeys({ press: 'Space' });
    await until(() => cartError(el), 'the failure');
    expect(cartError(el)!.getAttribute('role')).to.equal('alert');
    expect(cartError(el)!.textContent!.trim()).to.equal('Could not add Banarasi saree to your cart. Please try again.');
    expect(cartButton(el)!.textContent!.trim()).to.equal('Add to cart');
    expect(cartButton(el)!.getAttribute('aria-describedby')).to.equal('cart-error');
    expect(cartButton(el)!.getAttribute('aria-disabled')).to.equal('false');
    await expect(el).to.be.accessible();

    expect(focused(el) === cartButton(el), 'focus stays on the button').to.equal(true);
    await sendKeys({ press: 'Enter' });
    await until(() => cartButton(el)?.textContent?.trim() === 'Added to cart', 'added on the second press');
    expect(cartError(el)).to.equal(null);
    expect(attempt).to.equal(2);
  });

  it('event without waitUntil counts as added at once; without add-to-cart there is no such button', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { 'add-to-cart': 'event' });
    await tryOn(el);
    cartButton(el)!.click();
    await until(() => cartButton(el)?.textContent?.trim() === 'Added to cart', 'added');

    const plain = await mount(await fakeProxy({ product: saree }));
    await tryOn(plain);
    expect(cartButton(plain)).to.equal(null);
  });

  it('an add-to-cart it does not know, or shopify with nothing to add, offers no button and says why', async () => {
    await withConsoleErrors(async (said) => {
      const fake = await fakeProxy({ product: saree });
      const el = await mount(fake, { 'add-to-cart': 'amazon' });
      await tryOn(el);
      expect(cartButton(el)).to.equal(null);
      expect(
        said.filter((line) => line.includes('add-to-cart="amazon" is not shopify, woocommerce or event')).length,
      ).to.equal(1);
      const shopify = await mount(await fakeProxy({ product: saree }), { 'add-to-cart': 'shopify' });
      await tryOn(shopify);
      expect(cartButton(shopify)).to.equal(null);
      expect(
        said.some((line) => line.includes('add-to-cart="shopify" needs the variant tried on or a cart-id')),
      ).to.equal(true);
    });
  });

  describe('shopify', () => {
    /** Shopify's /cart/add.js and /cart.js as the Ajax API reference documents them, inside the page's fetch. */
    function shopifyCart(answer: 'ok' | 'sold-out'): { posted: Record<string, unknown>[] } {
      const posted: Record<string, unknown>[] = [];
      (window as { Shopify?: unknown }).Shopify = { routes: { root: '/en-in/' } };
      window.fetch = async (input, init) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (url === '/en-in/cart/add.js') {
          posted.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
          if (answer === 'sold-out') {
            return Response.json(
              {
                status: 422,
                message: 'Cart Error',
                description: 'The maximum quantity of this item is already in your cart.',
              },
              { status: 422 },
            );
          }
          return Response.json({
            items: [{ id: 44871234560002, key: '44871234560002:abc', quantity: 1, variant_id: 44871234560002 }],
          });
        }
        if (url === '/en-in/cart.js') {
          return Response.json({
            token: 'c1-abc',
            item_count: 3,
            total_price: 1250000,
            currency: 'INR',
            items: [{ key: '44871234560002:abc', quantity: 3, final_line_price: 1250000 }],
          });
        }
        return original(input, init);
      };
      return { posted };
    }

    it("adds the variant tried on through Shopify's Ajax Cart API, then tells Dawn and Horizon", async () => {
      const { posted } = shopifyCart('ok');
      const published: [string, unknown][] = [];
      (window as { publish?: unknown }).publish = (name: string, data: unknown) => {
        published.push([name, data]);
      };
      const horizon4 = new Promise<{ cart: { totalQuantity: number } }>((resolve) => {
        document.addEventListener(
          'shopify:cart:lines-update',
          (event) => {
            resolve((event as Event & { promise: Promise<{ cart: { totalQuantity: number } }> }).promise);
          },
          { once: true },
        );
      });
      const horizon3 = new Promise<{ data: { itemCount: number } }>((resolve) => {
        document.addEventListener('cart:update', (event) => resolve((event as CustomEvent).detail), { once: true });
      });
      const fake = await fakeProxy({
        product: {
          ...saree,
          variants: [
            { id: '44871234560001', name: 'Ivory' },
            { id: '44871234560002', name: 'Red' },
          ],
        },
      });
      const el = await mount(fake, {
        variant: '44871234560002',
        'add-to-cart': 'shopify',
        'cart-id': '44871234560001',
        analytics: 'dataLayer',
      });
      await tryOn(el);
      cartButton(el)!.click();
      await until(() => cartButton(el)?.textContent?.trim() === 'Added to cart', 'added');
      // The variant tried on, not the product's first variant in cart-id.
      expect(posted).to.deep.equal([
        { items: [{ id: 44871234560002, quantity: 1, properties: { _tryon: 'saree-red' } }] },
      ]);
      expect((await horizon4).cart.totalQuantity).to.equal(3);
      expect((await horizon3).data.itemCount).to.equal(3);
      expect(published.map(([name]) => name)).to.deep.equal(['cart-update']);
      expect(statusText(el)).to.equal('Banarasi saree is in your cart.');
      const layer = (window as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? [];
      expect(layer.filter((e) => e['event'] === 'tryon_add_to_cart')).to.deep.equal([
        { event: 'tryon_add_to_cart', product: 'saree-red', variant: '44871234560002', cart: 'shopify' },
      ]);
    });

    it("a product without variants adds its cart-id; Shopify's refusal is shown in its own words after ours", async () => {
      const { posted } = shopifyCart('sold-out');
      const fake = await fakeProxy({ product: { ...saree, variants: undefined } });
      const el = await mount(fake, { 'add-to-cart': 'shopify', 'cart-id': '44871234560001' });
      await tryOn(el);
      cartButton(el)!.click();
      await until(() => cartError(el), 'the failure');
      expect(posted).to.deep.equal([
        { items: [{ id: 44871234560001, quantity: 1, properties: { _tryon: 'saree-red' } }] },
      ]);
      expect(cartError(el)!.textContent!.trim()).to.equal(
        'Could not add Banarasi saree to your cart. Please try again. The maximum quantity of this item is already in your cart.',
      );
      await expect(el).to.be.accessible();
    });
  });

  it('right to left, in Arabic: its label, its states, axe-clean', async () => {
    const fake = await fakeProxy({ product: saree });
    const el = await mount(fake, { variant: 'ivory', 'add-to-cart': 'event', lang: 'ar' });
    el.addEventListener('tryon-add-to-cart', (event) => event.detail.waitUntil(Promise.reject(new Error('down'))));
    await el.open();
    await reach(el, 'consent');
    panelRoot(el).querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    await reach(el, 'consent');
    panelRoot(el).querySelector<HTMLButtonElement>('button.primary')!.click();
    await reach(el, 'photo');
    await pickPhoto(el, await drawnPhoto(500, 700));
    panelRoot(el).querySelector<HTMLButtonElement>('button.primary')!.click();
    await reach(el, 'result');
    expect(dialogOf(el).getAttribute('dir')).to.equal('rtl');
    expect(cartButton(el)!.textContent!.trim()).to.equal('أضف إلى السلة');
    expect(getComputedStyle(cartButton(el)!).direction).to.equal('rtl');
    cartButton(el)!.click();
    await until(() => cartError(el), 'the failure');
    expect(cartError(el)!.textContent!.trim()).to.equal('تعذّرت إضافة Banarasi saree إلى سلتك. يُرجى المحاولة مرة أخرى.');
    await expect(el).to.be.accessible();
  });
});
