// "Add to cart" on a result, as a controller created once with the panel: whether the result offers
// it (the `add-to-cart` attribute, and an id to add: the variant tried on or `cart-id`; a set-up
// that cannot add anything is said once in the console), and the add itself on Shopify or
// WooCommerce (cart.ts) or by the shop's own code (`tryon-add-to-cart`'s `waitUntil`). Each new
// try-on is a new thing to add: the state belongs to the result's requestId.
import { addToShopifyCart, addToWooCommerceCart, CartError } from './cart.js';
import type { ResultCart } from '../result/result-step.js';
import type { TryonRun } from '../run/tryon-run.js';
import type { Texts } from '../i18n/words/texts.js';
import { tryonSubject } from '../core/events.js';
import type { CartPlatform, TryonSubject } from '../core/events.js';
import type { DialogContext } from '../core/dialog-context.js';

/** What adding to the cart reads of the dialog's context. */
export interface AddToCartContext extends DialogContext {
  readonly run: Pick<TryonRun, 'session'>;
  /** "Try this colour", when the result offers one: "Add to cart" is then not the result's main button. */
  readonly colours: { offer(texts: Texts): string | undefined };
  /** The conversion events: the cart took the item. */
  readonly conversions: { addedToCart(subject: TryonSubject, platform: CartPlatform): void };
  /** The cart's marks (group, browser id) again, on a page running the experiment. */
  readonly cartMarks?: (platform: 'shopify' | 'woocommerce') => Promise<void>;
}

type CartState = { state: ResultCart['state']; problem?: string; requestId: string | undefined };

/** Not a lifecycle controller: it only asks its host to render again when its state changes. */
export class AddToCart {
  /** Its state, and the try-on (requestId) it belongs to. */
  #cart: CartState = {
    state: 'idle',
    requestId: undefined,
  };
  /** An `add-to-cart` or `cart-id` problem is said once, not at every render. */
  #told = '';
  readonly #context: AddToCartContext;

  constructor(context: AddToCartContext) {
    this.#context = context;
  }

  #set(cart: CartState): void {
    this.#cart = cart;
    this.#context.panel.requestUpdate();
  }

  /** The id the shop's cart adds for the result on screen: the variant tried on, else the page's cart-id. */
  #item(): string | undefined {
    return this.#context.run.session.variant || this.#context.host.cartId?.trim() || undefined;
  }

  /** "Add to cart" for the result on screen, or undefined (none asked for, or it could not add anything: said in the console). */
  forResult(): ResultCart | undefined {
    const platform = this.#context.host.cartPlatform;
    const asked = (this.#context.host.addToCart ?? '').trim();
    let problem = '';
    if (!platform && asked) problem = `="${asked}" is not shopify, woocommerce or event`;
    else if (platform !== 'event' && platform && !this.#item())
      problem = `="${platform}" needs the variant tried on or a cart-id`;
    if (problem) {
      if (this.#told !== problem)
        console.error(`<tryon-button>: add-to-cart${problem}, so the result offers no "Add to cart".`);
      this.#told = problem;
      return undefined;
    }
    if (!platform) return undefined;
    // Each result starts afresh: a new try-on is a new thing to add.
    const context = this.#context;
    const current = this.#cart.requestId === context.run.session.requestId ? this.#cart : { state: 'idle' as const };
    return { ...current, primary: !context.colours.offer(context.texts), onAdd: () => void this.add() };
  }

  /**
   * The cart's marks (group, browser id) beside the line's: the page marked the cart at the
   * exposure already, but the shopper's cart may have been replaced since (an order placed in
   * another tab). Only on a page running the experiment; a cart that refuses them is said in the
   * console, and the add goes on.
   */
  async #markCart(platform: 'shopify' | 'woocommerce'): Promise<void> {
    await this.#context.cartMarks?.(platform);
  }

  readonly add = async () => {
    const context = this.#context;
    const platform = context.host.cartPlatform;
    const { requestId, variant } = context.run.session;
    if (!platform || (this.#cart.requestId === requestId && this.#cart.state === 'adding')) return;
    const texts = context.texts;
    const subject = tryonSubject(context.host.product, variant);
    const product = context.productName;
    const item = this.#item();
    const work: Promise<unknown>[] = [];
    this.#set({ state: 'adding', requestId });
    context.announce(texts.t('addingToCart'));
    context.emit('tryon-add-to-cart', {
      ...subject,
      cart: platform,
      ...(item ? { item } : {}),
      waitUntil: (promise) => {
        work.push(Promise.resolve(promise));
      },
    });
    try {
      if (platform === 'shopify') await addToShopifyCart(item!, context.host.product);
      if (platform === 'woocommerce') {
        // WooCommerce adds the product, or its variation (the variant tried on) of the product in cart-id.
        const parent = context.host.cartId?.trim();
        // The marks first: the form's post leaves the page.
        await this.#markCart(platform);
        const how = await addToWooCommerceCart(
          parent || item!,
          parent ? variant || undefined : undefined,
          context.host.product,
        );
        // The product form's post is loading the page, where WooCommerce says what it added.
        if (how === 'reloading') return;
      }
      await Promise.all(work);
      if (platform === 'shopify') await this.#markCart(platform);
      if (this.#cart.requestId !== requestId) return;
      this.#set({ state: 'added', requestId });
      context.announce(texts.t('addedToCartNote', { product }));
      context.conversions.addedToCart(subject, platform);
    } catch (error) {
      if (this.#cart.requestId !== requestId) return;
      // The platform's own words (Shopify's, in the shop's language) follow ours when it gave any.
      const reason = error instanceof CartError ? error.reason : undefined;
      this.#set({
        state: 'failed',
        requestId,
        problem: `${texts.t('addToCartFailed', { product })}${reason ? ` ${reason}` : ''}`,
      });
      context.announce('');
    }
  };
}
