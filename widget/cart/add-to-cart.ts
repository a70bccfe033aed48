// "Add to cart" on a result, as a controller created once with the panel: whether the result offers
// it (the `add-to-cart` attribute, and an id to add: the variant tried on or `cart-id`; a set-up
// that cannot add anything is said once in the console), and the add itself on Shopify or
// WooCommerce (cart.ts) or by the shop's own code (`tryon-add-to-cart`'s `waitUntil`). Each new
// try-on is a new thing to add: the state belongs to the result's requestId.
import type { ReactiveControllerHost } from 'lit';
import { addToShopifyCart, addToWooCommerceCart, CartError } from './cart.js';
import type { ResultCart } from '../steps/result.js';
import type { SessionState } from '../run/session.js';
import type { PanelHost } from '../core/panel-host.js';
import type { Texts } from '../panel/texts.js';
import type { CartPlatform, TryonEventDetail, TryonSubject } from '../core/events.js';

/** What adding to the cart asks of the panel. */
export interface AddToCartOptions {
  host(): PanelHost;
  session(): SessionState;
  texts(): Texts;
  productName(): string;
  /** Whether "Add to cart" is the result's main button (no other colour is offered beside it). */
  primary(): boolean;
  /** Reports `tryon-add-to-cart`. */
  report(detail: TryonEventDetail<'tryon-add-to-cart'>): void;
  /** The cart took the item: the conversion is recorded. */
  added(subject: TryonSubject, platform: CartPlatform): void;
  announce(text: string): void;
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
  readonly #host: ReactiveControllerHost;
  readonly #options: AddToCartOptions;

  constructor(host: ReactiveControllerHost, options: AddToCartOptions) {
    this.#host = host;
    this.#options = options;
  }

  #set(cart: CartState): void {
    this.#cart = cart;
    this.#host.requestUpdate();
  }

  /** The id the shop's cart adds for the result on screen: the variant tried on, else the page's cart-id. */
  #item(): string | undefined {
    return this.#options.session().variant || this.#options.host().cartId?.trim() || undefined;
  }

  /** "Add to cart" for the result on screen, or undefined (none asked for, or it could not add anything: said in the console). */
  forResult(): ResultCart | undefined {
    const platform = this.#options.host().cartPlatform;
    const asked = (this.#options.host().addToCart ?? '').trim();
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
    const current =
      this.#cart.requestId === this.#options.session().requestId ? this.#cart : { state: 'idle' as const };
    return { ...current, primary: this.#options.primary(), onAdd: () => void this.add() };
  }

  readonly add = async () => {
    const platform = this.#options.host().cartPlatform;
    const { requestId, variant } = this.#options.session();
    if (!platform || (this.#cart.requestId === requestId && this.#cart.state === 'adding')) return;
    const texts = this.#options.texts();
    const subject = { product: this.#options.host().product, ...(variant ? { variant } : {}) };
    const product = this.#options.productName();
    const item = this.#item();
    const work: Promise<unknown>[] = [];
    this.#set({ state: 'adding', requestId });
    this.#options.announce(texts.t('addingToCart'));
    this.#options.report({
      ...subject,
      cart: platform,
      ...(item ? { item } : {}),
      waitUntil: (promise) => {
        work.push(Promise.resolve(promise));
      },
    });
    try {
      if (platform === 'shopify') await addToShopifyCart(item!);
      if (platform === 'woocommerce') {
        // WooCommerce adds the product, or its variation (the variant tried on) of the product in cart-id.
        const parent = this.#options.host().cartId?.trim();
        const how = await addToWooCommerceCart(parent || item!, parent ? variant || undefined : undefined);
        // The product form's post is loading the page, where WooCommerce says what it added.
        if (how === 'reloading') return;
      }
      await Promise.all(work);
      if (this.#cart.requestId !== requestId) return;
      this.#set({ state: 'added', requestId });
      this.#options.announce(texts.t('addedToCartNote', { product }));
      this.#options.added(subject, platform);
    } catch (error) {
      if (this.#cart.requestId !== requestId) return;
      // The platform's own words (Shopify's, in the shop's language) follow ours when it gave any.
      const reason = error instanceof CartError ? error.reason : undefined;
      this.#set({
        state: 'failed',
        requestId,
        problem: `${texts.t('addToCartFailed', { product })}${reason ? ` ${reason}` : ''}`,
      });
      this.#options.announce('');
    }
  };
}
