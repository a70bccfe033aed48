// "Add to cart" on a result, as a controller created once with the panel: whether the result offers
// it (the `add-to-cart` attribute, and an id to add: the variant tried on or `cart-id`; a set-up
// that cannot add anything is said once in the console), and the add itself on Shopify or
// WooCommerce (cart.ts) or by the shop's own code (`tryon-add-to-cart`'s `waitUntil`). Each new
// try-on is a new thing to add: the state belongs to the result's requestId. Once pieces are added
// to the result ("Complete the look"), it is "Add the look to cart": every piece, each its own line
// with its colour, the state belonging to that outfit.
import { addToShopifyCart, addToWooCommerceCart, CartError } from './cart.js';
import type { ResultCart } from '../result/result-step.js';
import type { TryonRun } from '../run/tryon-run.js';
import type { Texts } from '../i18n/words/texts.js';
import { tryonSubject } from '../core/events.js';
import type { CartLine, CartPlatform, TryonSubject } from '../core/events.js';
import type { DialogContext } from '../core/dialog-context.js';

/** What adding to the cart reads of the dialog's context. */
export interface AddToCartContext extends DialogContext {
  readonly run: Pick<TryonRun, 'session'>;
  /** "Try this colour", when the result offers one: "Add to cart" is then not the result's main button. */
  readonly colours: { offer(texts: Texts): string | undefined };
  /** The conversion events: the cart took the item. */
  readonly conversions: { addedToCart(subject: TryonSubject, platform: CartPlatform): void };
  /** The outfit on the result, once a piece is added to it ("Complete the look"). */
  readonly outfit: { readonly look: CartLook | undefined };
  /** The cart's marks (group, browser id) again, on a page running the experiment. */
  readonly cartMarks?: (platform: 'shopify' | 'woocommerce') => Promise<void>;
}

/** What the cart reads of an outfit: its lines, its own words, and telling the proxy it is in the cart. */
export interface CartLook {
  /** The try-on of its last piece: what the outfit is. */
  readonly top: string;
  /** The outfit by name ("Emerald lehenga and Gota dupatta"). */
  readonly name: string;
  /** Every line of the outfit: `first`, the base's, then each piece with its variant and its cart id. */
  lines(first: CartLine): CartLine[];
  t(
    key: 'addLook' | 'addingLook' | 'addedLook' | 'lookAddedNote' | 'lookFailed',
    values?: Record<string, string>,
  ): string;
  /** Tells the proxy the outfit is in the cart (its usage counts it). */
  reportCart(): void;
}

/** `requestId`: the result's, with the outfit's pieces after it when it has any (another outfit is another thing to add). */
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

  /** What the add belongs to: the result, and the outfit on it. */
  #key(): string | undefined {
    const { requestId } = this.#context.run.session;
    const look = this.#context.outfit.look;
    return look ? `${requestId}|${look.top}` : requestId;
  }

  /** The lines an add puts in the cart: the result's item, then each piece of the outfit. */
  #lines(): CartLine[] {
    const { host, run, outfit } = this.#context;
    const item = this.#item();
    const first: CartLine = { ...tryonSubject(host.product, run.session.variant), ...(item ? { item } : {}) };
    return outfit.look?.lines(first) ?? [first];
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
    const current = this.#cart.requestId === this.#key() ? this.#cart : { state: 'idle' as const };
    const look = context.outfit.look;
    const words = { idle: 'addLook', failed: 'addLook', adding: 'addingLook', added: 'addedLook' } as const;
    return {
      ...current,
      primary: !context.colours.offer(context.texts),
      ...(look ? { label: look.t(words[current.state]) } : {}),
      onAdd: () => void this.add(),
    };
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
    const { variant } = context.run.session;
    const key = this.#key();
    if (!platform || (this.#cart.requestId === key && this.#cart.state === 'adding')) return;
    const texts = context.texts;
    const look = context.outfit.look;
    const subject = tryonSubject(context.host.product, variant);
    const product = context.productName;
    const item = this.#item();
    const lines = this.#lines();
    const work: Promise<unknown>[] = [];
    this.#set({ state: 'adding', requestId: key });
    context.announce(look ? look.t('addingLook') : texts.t('addingToCart'));
    context.emit('tryon-add-to-cart', {
      ...subject,
      cart: platform,
      ...(item ? { item } : {}),
      lines,
      waitUntil: (promise) => {
        work.push(Promise.resolve(promise));
      },
    });
    try {
      // Each line is marked with the try-on it was seen in: the base's product, then each piece's.
      if (platform === 'shopify')
        await addToShopifyCart(lines.map((line) => ({ id: line.item!, tryon: line.product })));
      if (platform === 'woocommerce') {
        // WooCommerce adds the product, or its variation (the variant tried on) of the product in
        // cart-id; each piece by its variation's (or product's) own id, which its endpoint takes.
        const parent = context.host.cartId?.trim();
        // The marks first: the form's post leaves the page.
        await this.#markCart(platform);
        const [first, ...pieces] = lines;
        for (const piece of pieces) await addToWooCommerceCart(piece.item!, undefined, piece.product, false);
        const how = await addToWooCommerceCart(
          parent || first!.item!,
          parent ? variant || undefined : undefined,
          first!.product,
        );
        // The product form's post is loading the page, where WooCommerce says what it added.
        if (how === 'reloading') return;
      }
      await Promise.all(work);
      if (platform === 'shopify') await this.#markCart(platform);
      if (this.#cart.requestId !== key) return;
      this.#set({ state: 'added', requestId: key });
      context.announce(look ? look.t('lookAddedNote', { pieces: look.name }) : texts.t('addedToCartNote', { product }));
      for (const line of lines) context.conversions.addedToCart(tryonSubject(line.product, line.variant), platform);
      look?.reportCart();
    } catch (error) {
      if (this.#cart.requestId !== key) return;
      // The platform's own words (Shopify's, in the shop's language) follow ours when it gave any.
      const reason = error instanceof CartError ? error.reason : undefined;
      const ours = look ? look.t('lookFailed') : texts.t('addToCartFailed', { product });
      this.#set({ state: 'failed', requestId: key, problem: `${ours}${reason ? ` ${reason}` : ''}` });
      context.announce('');
    }
  };
}
