// The dialog shell. About 370 lines because `renderStep` is the one map from the session to each
// step's inputs (steps/*.ts); split, that map would be spread over five files.
import { LitElement, html, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import { panelStyles } from './tryon-panel.styles.js';
import { hasOutput, readyInBackground } from './session.js';
import type { SessionEvent, SessionState } from './session.js';
import { TryonRun } from './tryon-run.js';
import type { RunChange } from './tryon-run.js';
import { actionLabel, photoRefused } from './error-policy.js';
import { prepareRawPhoto } from './photo.js';
import type { PreparedPhoto } from './photo.js';
import { ClockController } from './clock.js';
import { CompareController } from './compare.js';
import { AccentTextController } from './accent-text.js';
import { FocusTrapController } from './focus-trap.js';
import { download, outputFileName, productPageUrl, share } from './result-actions.js';
import { lastPhoto } from './storage.js';
import type { StoredTryon } from './storage.js';
import { Texts } from './texts.js';
import { tryonEvent } from './events.js';
import { Conversions } from './analytics.js';
import { Announcer } from './announcer.js';
import type { TryonEventDetail, TryonEventName, TryonOutput } from './events.js';
import type { PanelHost, PanelReadyEvent, PanelStatusEvent } from './panel-host.js';
import { CONSENT_TEXT_ID, consentStep, consentText } from './steps/consent.js';
import { consentWords } from './consent-version.js';
import { photoProblem, photoStep } from './steps/photo.js';
import { firstLook, progressStep } from './steps/progress.js';
import { coloursStep } from './steps/colours.js';
import { ColourPreviews, coloursToPreview } from './colour-previews.js';
import type { ColourTile } from './colour-previews.js';
import { resultStep } from './steps/result.js';
import type { ImageView } from './steps/result.js';
import { errorStep } from './steps/error.js';
import { handoffCodeInPage, removeHandoffFragment } from './handoff-fragment.js';
import { networkUrl } from './network-url.js';
import { ProxyCallError } from './proxy-client.js';
import { SmallScreen } from './small-screen.js';
import { addToShopifyCart, addToWooCommerceCart, CartError } from './cart.js';
import type { ResultCart } from './steps/result.js';
import type { PhotoCheck } from './photo-check.js';

/**
 * Until when the desktop counts on a photo given by a hand-off: the hand-off answer does not say
 * when the photo's handle ends, so the code's own end is taken (a photo outlives its code by the
 * proxy's photo lifetime, an hour by default); past it, "Try this colour" asks for a photo again.
 */
const handoffPhotoExpiry = (codeExpiresAt: number): string => new Date(codeExpiresAt).toISOString();

/** Previews of photos uploaded from this page, by photo handle, for the before/after view. */
const beforeImages = new Map<string, string>();

/** No texts overridden by the shop: one object, so the texts built from it are kept. */
const noOverrides = {};

/**
 * The try-on dialog: its header, the live region, the current step and focus when the step
 * changes. The flow itself is the run controller's (tryon-run.ts); each step's markup is its own
 * module (steps/). It knows its host only as a `PanelHost`, dispatches the public events on it,
 * and reports its step with a `panel-status` event for the host to reflect.
 * Not for use on its own: style it through <tryon-button>'s parts and custom properties.
 *
 * @internal
 */
export class TryonPanel extends LitElement {
  static override styles = panelStyles;

  static override properties = {
    host: { attribute: false },
    prepared: { state: true },
    preview: { state: true },
    preparing: { state: true },
    problem: { state: true },
    consentChecked: { state: true },
    selectedView: { state: true },
    dragging: { state: true },
    cart: { state: true },
    fadeFrom: { state: true },
    check: { state: true },
    handoff: { state: true },
    phone: { state: true },
  };

  declare host: PanelHost;
  declare private prepared: PreparedPhoto | undefined;
  declare private preview: string | undefined;
  declare private preparing: boolean;
  declare private problem: string;
  declare private consentChecked: boolean;
  declare private selectedView: string;
  declare private dragging: boolean;
  /** "Add to cart" for the result on screen: its state, and the try-on (requestId) it belongs to. */
  declare private cart: { state: ResultCart['state']; problem?: string; requestId: string | undefined };
  /** An `add-to-cart` or `cart-id` problem is said once, not at every render. */
  #toldCart = '';
  /** The first look the full render just replaced, fading out over it; cleared by the next try-on or view. */
  declare private fadeFrom: string | undefined;
  /** The chosen photo's check (photo-check.ts, its own chunk): 'loading' while that chunk arrives; undefined with photo-check="off". */
  declare private check: PhotoCheck | 'loading' | undefined;
  /** The desktop's hand-off on screen ("Use your phone"), while it is. */
  declare private handoff:
    | {
        state: 'starting' | 'waiting' | 'expired' | 'failed';
        code?: string;
        expiresAt?: number;
        qr?: string;
        problem: string;
      }
    | undefined;
  /** Opened on a phone from a hand-off's QR code: the code, and how sending the photo went. */
  declare private phone: { code: string; state: 'ready' | 'sending' | 'sent' | 'refused'; problem: string } | undefined;
  #handoffWatch: AbortController | undefined;
  /** The models' and hand-off's screens (alternatives.ts), once loaded: a chunk of their own. */
  #alternativesModule: typeof import('./alternatives.js') | undefined;
  #alternativesLoad: Promise<typeof import('./alternatives.js')> | undefined;
  #handoffTick: ReturnType<typeof setInterval> | undefined;

  readonly #clock = new ClockController(this);
  readonly #compare = new CompareController(this, () => this.renderRoot.querySelector<HTMLElement>('.compare'));
  // The primary buttons' text colour, readable on whatever accent the shop set. A controller
  // registers itself with the panel and needs no further call, like #focusTrap below.
  // eslint-disable-next-line no-unused-private-class-members
  readonly #accentText = new AccentTextController(this, () => this.#dialog);
  // Listens on its own: Tab and Shift+Tab stay inside the dialog.
  // eslint-disable-next-line no-unused-private-class-members
  readonly #focusTrap = new FocusTrapController(this, () => this.#dialog);
  readonly #smallScreen = new SmallScreen(this);
  readonly #run = new TryonRun(this, {
    settings: () => ({
      endpoint: this.host.endpoint || '/tryon',
      product: this.host.product,
      views: this.host.views,
      variant: this.host.variant ?? '',
      pollInterval: this.host.pollInterval,
    }),
    chosenPhoto: () => this.prepared?.blob,
    errorMessage: (code) => this.#texts.errorMessage(code),
  });
  /** The live region's words: created once, it follows the session and the shopper's actions. */
  readonly #announcer = new Announcer(this, () => this.#texts);
  readonly #conversions = new Conversions(() => this.host?.analytics);
  // Once every colour has its answer, the live region says how many are in.
  readonly #colours: ColourPreviews = new ColourPreviews(() => {
    const { open, settled, tiles } = this.#colours;
    if (open && settled)
      this.#announcer.say(
        this.#texts.t('coloursDone', {
          ready: tiles.filter((t) => t.output).length,
          count: tiles.length,
        }),
      );
    this.requestUpdate();
  });
  #focusStep = false;
  /** A video has just arrived: it is scrolled into view once it is rendered. */
  #revealVideo = false;
  /** The result and the chosen variant "Try this colour" was last announced for. */
  #announcedOffer = '';
  #textsBuilt: { strings: object; translation: object | undefined; texts: Texts } | undefined;

  constructor() {
    super();
    // The run's one channel back: every change, with the public events it reports.
    this.#run.subscribe((change) => this.#runChanged(change));
    this.prepared = undefined;
    this.preview = undefined;
    this.preparing = false;
    this.problem = '';
    this.consentChecked = false;
    this.selectedView = '';
    this.dragging = false;
    this.cart = { state: 'idle', requestId: undefined };
    this.fadeFrom = undefined;
    this.handoff = undefined;
    this.phone = undefined;
  }

  /** The texts, built again only when the shop's overrides or the language's dictionary change. */
  get #texts(): Texts {
    const strings = this.host?.strings ?? noOverrides;
    const translation = this.host?.translation;
    const built = this.#textsBuilt;
    if (built?.strings === strings && built.translation === translation) return built.texts;
    const texts = new Texts(strings, translation);
    this.#textsBuilt = { strings, translation, texts };
    return texts;
  }

  get #dialog(): HTMLDialogElement | null {
    return this.renderRoot.querySelector('dialog');
  }

  get #session(): SessionState {
    return this.#run.session;
  }

  #productName(): string {
    return this.#run.product?.name || this.host.product;
  }

  #emit<K extends TryonEventName>(name: K, detail: TryonEventDetail<K>): void {
    this.host.dispatchEvent(tryonEvent(name, detail));
    this.#conversions.record(name, detail);
  }

  /** A change of the run: what the proxy said of the product, the session's change, then the public events it reports. */
  #runChanged({ before, after, event, reports }: RunChange): void {
    if (event.type === 'availability') this.host?.productAvailability?.(event.reason);
    else if (after !== before) this.#sessionChanged(before, after, event as SessionEvent);
    for (const { name, detail } of reports) this.#emit(name, detail);
  }

  /** What the panel does on each change of the session: focus, the live region, the host's status. */
  #sessionChanged(before: SessionState, after: SessionState, event: SessionEvent): void {
    if (after.status !== before.status) {
      this.#focusStep = true;
      this.dispatchEvent(new CustomEvent('panel-status', { detail: after.status }) satisfies PanelStatusEvent);
    }
    // No clock while the service is not answering: counting towards "usually about 25 seconds" would pretend.
    this.#clock.running =
      !after.notAnswering &&
      (after.status === 'queued' || after.status === 'rendering' || (after.status === 'result' && !after.complete));
    if (readyInBackground(after) && !readyInBackground(before)) this.#readyBadge(true);
    if (event.type === 'product-changed') this.selectedView = '';
    if (event.type === 'uploaded' && this.preview) beforeImages.set(event.photo.handle, this.preview);
    if (event.type === 'use-last-photo') this.preview = beforeImages.get(event.photo.handle);
    // Another photo (or none): the colour previews made with the old one are not this shopper's now.
    if (after.photo?.handle !== this.#colours.photo && this.#colours.photo) this.#colours.reset();
    if (after.requestId !== before.requestId) this.fadeFrom = undefined;
    this.#announcer.sessionChanged(before, after, event);
    if (event.type !== 'status') return;
    const arrived = after.outputs.filter((o) => !before.outputs.some((b) => b.url === o.url));
    // The first view to arrive is shown; after that the shopper's own choice stands.
    if (arrived.length && after.status === 'result' && !this.selectedView)
      this.selectedView = arrived.find((o) => o.type === 'image')?.view ?? '';
    if (after.complete && hasOutput(after) && !(before.complete && hasOutput(before))) {
      // The full render takes the first look's place: a short crossfade (styles); "ready" says it once.
      if (before.preview && after.output === 'image') this.fadeFrom = before.preview.url;
      // The video lands below the image, often below the fold: bring it into view.
      if (after.output === 'video') this.#revealVideo = true;
    }
  }

  /**
   * A try-on watched after the dialog closed has its result: the button shows its ready badge and
   * says so politely (`panel-ready`, handled by the button); opening the dialog takes it away.
   */
  #readyBadge(on: boolean): void {
    const texts = this.#texts;
    const detail = on
      ? { badge: texts.t('readyBadge'), announcement: texts.t('readyInBackground', { product: this.#productName() }) }
      : undefined;
    this.dispatchEvent(new CustomEvent('panel-ready', { detail }) satisfies PanelReadyEvent);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#endHandoff();
    // The colour previews' watches stop with the panel (each draft is charged and finishes upstream).
    this.#colours.reset();
  }

  // ── public ───────────────────────────────────────────────────────────────────────────────

  /** Opens the dialog; with `resume`, picks up a try-on stored before a reload. */
  async show(resume?: StoredTryon): Promise<void> {
    await this.updateComplete;
    const dialog = this.#dialog;
    if (!dialog) return;
    const wasOpen = dialog.open;
    this.#readyBadge(false);
    // Opened from a hand-off's QR code: this is the phone. The code leaves the address bar at once.
    const code = handoffCodeInPage();
    if (code) {
      removeHandoffFragment();
      this.phone = { code, state: 'ready', problem: '' };
    }
    this.#run.enter(resume);
    if (!wasOpen) {
      dialog.showModal();
      const variant = this.#run.chosenVariant;
      this.#emit('tryon-open', { product: this.host.product, ...(variant ? { variant } : {}) });
    }
    this.#focusStep = true;
    this.requestUpdate();
    await this.#run.continue();
  }

  /** Closes the dialog (Escape and the close button end up here too). */
  hide(): void {
    const dialog = this.#dialog;
    if (dialog?.open) dialog.close();
  }

  /** The page chose another variant: a result on screen may now offer "Try this colour". */
  variantChanged(): void {
    this.requestUpdate();
  }

  /** Prepares a chosen photo and shows its preview; nothing is uploaded yet. */
  async choose(file: Blob): Promise<void> {
    if (!this.#session.consented) return;
    this.problem = '';
    this.preparing = true;
    this.#run.photoChosen();
    try {
      this.prepared = await prepareRawPhoto(file);
      this.preview = URL.createObjectURL(this.prepared.blob);
      this.#focusStep = true;
      void this.#checkPhoto(this.prepared.blob);
    } catch (error) {
      this.#forgetPhoto();
      this.problem = photoProblem(this.#texts, error);
    } finally {
      this.preparing = false;
    }
  }

  // ── handlers ─────────────────────────────────────────────────────────────────────────────

  #forgetPhoto(): void {
    this.prepared = undefined;
    this.preview = undefined;
    if (this.check !== 'loading') this.check?.cancel();
    this.check = undefined;
  }

  /** The photo check, before anything is uploaded (`photo-check` attribute): its chunk is fetched only now. */
  async #checkPhoto(photo: Blob): Promise<void> {
    const attribute = this.host.getAttribute('photo-check');
    const variant = this.#run.chosenVariant;
    const emit = (detail: Omit<TryonEventDetail<'tryon-photo-check'>, 'product' | 'variant'>) =>
      this.#emit('tryon-photo-check', { product: this.host.product, ...(variant ? { variant } : {}), ...detail });
    if (attribute === 'off') return emit({ result: 'skipped', reasons: [], mode: 'off' });
    this.check = 'loading';
    try {
      const { PhotoCheck } = await import('./photo-check.js');
      if (this.prepared?.blob !== photo) return;
      this.check = new PhotoCheck({
        photo,
        attribute,
        needsFullBody: this.#run.product?.fullBody === true,
        language: this.#texts.code,
        emit,
        changed: () => {
          this.#focusStep = true;
          this.requestUpdate();
        },
        announce: (text) => {
          this.#announcer.say(text);
        },
        chooseAnother: () => this.renderRoot.querySelector<HTMLInputElement>('#file')?.click(),
      });
    } catch (error) {
      // Its chunk did not load: the shopper goes on unchecked, and the page is told.
      console.warn(`<tryon-button>: the photo check did not load (${String(error)}); the photo goes on unchecked.`);
      if (this.prepared?.blob === photo) this.check = undefined;
      emit({ result: 'unavailable', reasons: [], mode: attribute === 'strict' ? 'strict' : 'warn' });
    }
  }

  readonly #onDialogClose = () => {
    this.#run.close();
    // Focus goes back to where the shopper started, unless the page already moved it elsewhere.
    const active = document.activeElement;
    if (!active || active === document.body || active === this.host) this.host.focus();
  };

  readonly #onFile = (event: Event) => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) void this.choose(file);
  };

  readonly #onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    this.dragging = true;
  };

  readonly #onDrop = (event: DragEvent) => {
    event.preventDefault();
    this.dragging = false;
    const file = event.dataTransfer?.files?.[0];
    if (file) void this.choose(file);
  };

  readonly #onRetry = () => {
    // The proxy refused this photo: offering to send it again would be a dead end.
    if (photoRefused(this.#session.error?.code)) this.#forgetPhoto();
    this.#run.retry();
  };

  /** "Forget my photo": the previews go, the run clears storage and asks the proxy; the live region says how it went. */
  readonly #onForget = async () => {
    // Every photo this tab kept for the proxy is forgotten, so every preview of one goes too.
    for (const url of new Set([...beforeImages.values(), this.preview ?? ''])) if (url) URL.revokeObjectURL(url);
    beforeImages.clear();
    this.#forgetPhoto();
    this.selectedView = '';
    this.#compare.reset();
    const confirmed = await this.#run.forget();
    this.#announcer.say(this.#texts.t(confirmed ? 'forgotten' : 'forgetFailed'));
  };

  readonly #onAnotherPhoto = () => {
    this.#forgetPhoto();
    this.selectedView = '';
    this.#compare.reset();
    this.#run.anotherPhoto();
  };

  #checkAllowsSend(): boolean {
    return this.check === undefined || (this.check !== 'loading' && this.check.allowsSend);
  }

  #currentImage(): TryonOutput | undefined {
    const images = this.#session.outputs.filter((o) => o.type === 'image');
    return images.find((o) => o.view === this.selectedView) ?? images[0];
  }

  readonly #onDownload = async () => {
    const { output, complete, outputs } = this.#session;
    const chosen = output === 'video' && complete ? outputs.find((o) => o.type === 'video') : this.#currentImage();
    if (!chosen) return;
    // The result stays on screen; the live region says the save failed, so Download can be pressed again.
    if (!(await download(chosen, this.host.product, this.renderRoot)))
      this.#announcer.say(this.#texts.t('error_generic'));
  };

  readonly #onShare = async () => {
    const output = this.#currentImage() ?? this.#session.outputs[0];
    if (!output) return;
    const texts = this.#texts;
    const product = this.#productName();
    const url = productPageUrl();
    const outcome = await share(output, {
      title: product,
      text: texts.t('shareText', { product }),
      url,
      fileName: outputFileName(output, this.host.product),
    });
    // The live region says what was shared, so a screen reader user knows what the sheet sent.
    switch (outcome) {
      case 'picture':
        this.#announcer.say(texts.t('sharedPicture', { product }));
        break;
      case 'link':
        this.#announcer.say(texts.t('sharedLink', { product }));
        break;
      case 'copied':
        this.#announcer.say(texts.t('shareCopied', { product }));
        break;
      case 'failed':
        this.#announcer.say(texts.t('shareFailed', { product, url }));
        break;
      case 'cancelled':
        break;
    }
  };

  /** The id the shop's cart adds for the result on screen: the variant tried on, else the page's cart-id. */
  #cartItem(): string | undefined {
    return this.#session.variant || this.host.cartId?.trim() || undefined;
  }

  /** "Add to cart" for the result on screen, or undefined (none asked for, or it could not add anything: said in the console). */
  #resultCart(): ResultCart | undefined {
    const platform = this.host.cartPlatform;
    const asked = (this.host.addToCart ?? '').trim();
    let problem = '';
    if (!platform && asked) problem = `="${asked}" is not shopify, woocommerce or event`;
    else if (platform !== 'event' && platform && !this.#cartItem())
      problem = `="${platform}" needs the variant tried on or a cart-id`;
    if (problem) {
      if (this.#toldCart !== problem)
        console.error(`<tryon-button>: add-to-cart${problem}, so the result offers no "Add to cart".`);
      this.#toldCart = problem;
      return undefined;
    }
    if (!platform) return undefined;
    // Each result starts afresh: a new try-on is a new thing to add.
    const current = this.cart.requestId === this.#session.requestId ? this.cart : { state: 'idle' as const };
    return { ...current, primary: !this.#colourOffer(this.#texts), onAdd: this.#onAddToCart };
  }

  readonly #onAddToCart = async () => {
    const platform = this.host.cartPlatform;
    const { requestId, variant } = this.#session;
    if (!platform || (this.cart.requestId === requestId && this.cart.state === 'adding')) return;
    const texts = this.#texts;
    const subject = { product: this.host.product, ...(variant ? { variant } : {}) };
    const product = this.#productName();
    const item = this.#cartItem();
    const work: Promise<unknown>[] = [];
    this.cart = { state: 'adding', requestId };
    this.#announcer.say(texts.t('addingToCart'));
    this.#emit('tryon-add-to-cart', {
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
        const parent = this.host.cartId?.trim();
        const how = await addToWooCommerceCart(parent || item!, parent ? variant || undefined : undefined);
        // The product form's post is loading the page, where WooCommerce says what it added.
        if (how === 'reloading') return;
      }
      await Promise.all(work);
      if (this.cart.requestId !== requestId) return;
      this.cart = { state: 'added', requestId };
      this.#announcer.say(texts.t('addedToCartNote', { product }));
      this.#conversions.addedToCart(subject, platform);
    } catch (error) {
      if (this.cart.requestId !== requestId) return;
      // The platform's own words (Shopify's, in the shop's language) follow ours when it gave any.
      const reason = error instanceof CartError ? error.reason : undefined;
      this.cart = {
        state: 'failed',
        requestId,
        problem: `${texts.t('addToCartFailed', { product })}${reason ? ` ${reason}` : ''}`,
      };
      this.#announcer.say('');
    }
  };

  /** "See all colours": the other colours' drafts with this result's photo, in a grid. */
  readonly #onSeeColours = () => {
    const photo = this.#session.photo;
    if (!photo) return;
    const colours = coloursToPreview(this.#run.product, this.#session.variant);
    this.#colours.show(photo.handle, colours, (variant, signal) => this.#run.colourPreview(variant, signal));
    this.#focusStep = true;
  };

  /** "Make this one in full quality": that colour at the product's tier; its draft shows meanwhile. */
  readonly #onUpgrade = (tile: ColourTile) => {
    if (!tile.output) return;
    this.#colours.open = false;
    this.selectedView = '';
    this.#run.upgradeColour(tile.variant, tile.output);
  };

  /**
   * A result, first look, colour preview or the photo beside the before/after did not load: the
   * shopper is told in words (the error step, `tryon-error` with code `image_failed`), never shown
   * "ready" over a blank picture. Behind a misconfigured reverse proxy that is what they would see.
   */
  readonly #onImageError = () => {
    this.#colours.open = false;
    this.#run.imageFailed();
    this.#focusStep = true;
  };

  readonly #onColoursBack = () => {
    this.#colours.open = false;
    this.#focusStep = true;
    this.#announcer.say('');
  };

  /** Whether the result offers "See all colours" (an expired photo handle is said on each colour, as the proxy refuses it). */
  #offersColours(): boolean {
    const { complete, output, photo, variant } = this.#session;
    return complete && output === 'image' && Boolean(photo) && coloursToPreview(this.#run.product, variant).length > 0;
  }

  readonly #onTryColour = () => {
    this.selectedView = '';
    this.#run.tryChosenVariant();
  };

  /** "Try this colour", named after the chosen variant when the proxy lists its name; undefined when not offered. */
  #colourOffer(texts: Texts): string | undefined {
    if (!this.#run.offersChosenVariant()) return undefined;
    const chosen = this.#run.chosenVariant;
    const name = chosen ? this.#run.product?.variants?.find((v) => v.id === chosen)?.name : undefined;
    return name ? texts.t('tryColourNamed', { variant: name }) : texts.t('tryColour');
  }

  // ── rendering ────────────────────────────────────────────────────────────────────────────

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    // Once per result and variant, the live region says a new colour can be tried with the same photo.
    const offer = this.#colourOffer(this.#texts);
    const key = offer ? `${this.#session.requestId}|${this.#run.chosenVariant ?? ''}` : '';
    if (offer && key !== this.#announcedOffer && this.#dialog?.open) {
      this.#announcer.say(this.#texts.t('colourChanged', { action: offer }));
    }
    if (this.#dialog?.open || !offer) this.#announcedOffer = key;
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (this.#focusStep && this.#dialog?.open) {
      this.#focusStep = false;
      this.renderRoot.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (this.#revealVideo && this.#dialog?.open) {
      const video = this.renderRoot.querySelector('video');
      if (video) {
        this.#revealVideo = false;
        const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
        const reveal = () => video.scrollIntoView({ block: 'nearest', behavior: still ? 'instant' : 'smooth' });
        reveal();
        // Its height is known once its metadata has loaded (or failed to): in view again then.
        for (const type of ['loadedmetadata', 'error']) video.addEventListener(type, reveal, { once: true });
      }
    }
  }

  /** What a drawn try-on image needs: the shopper's photo (when sent from this page) for the compare. */
  #imageView(texts: Texts, productName: string): ImageView {
    const photo = this.#session.photo;
    return {
      texts,
      productName,
      before: photo ? beforeImages.get(photo.handle) : undefined,
      compare: this.#compare,
      onImageError: this.#onImageError,
    };
  }

  // ── "See it on a model" and the hand-off ────────────────────────────────────────────────

  /** The product's models, their pictures through the same gate as every URL from the network. */
  #models(): { id: string; name: string; image: string }[] {
    const client = this.#run.client();
    return (this.#run.product?.models ?? []).flatMap((model) => {
      try {
        return [{ id: model.id, name: model.name, image: networkUrl(model.image, client.base) }];
      } catch {
        return [];
      }
    });
  }

  /** Loads the models' and hand-off's screens (once), then renders again. */
  #alternatives$(): Promise<typeof import('./alternatives.js')> {
    this.#alternativesLoad ??= import('./alternatives.js').then((module) => {
      this.#alternativesModule = module;
      this.requestUpdate();
      return module;
    });
    return this.#alternativesLoad;
  }

  readonly #browseModels = async () => {
    await this.#alternatives$();
    this.#focusStep = true;
    this.#run.browseModels();
  };

  /** "Use your phone": asks the proxy for a code, draws its QR code, counts down and waits for the photo. */
  readonly #startHandoff = async () => {
    const { phoneAddress, qrCode, spacedCode } = await this.#alternatives$();
    this.#endHandoff();
    const watch = new AbortController();
    this.#handoffWatch = watch;
    this.handoff = { state: 'starting', problem: '' };
    this.#focusStep = true;
    const client = this.#run.client();
    try {
      const started = await client.startHandoff(
        this.#run.product?.product || this.host.product,
        this.#run.chosenVariant || undefined,
        watch.signal,
      );
      const expiresAt = Date.parse(started.expiresAt);
      this.handoff = { state: 'waiting', code: spacedCode(started.code), expiresAt, problem: '' };
      this.#handoffTick = setInterval(() => {
        if (this.handoff?.state === 'waiting' && Date.now() >= (this.handoff.expiresAt ?? 0))
          this.handoff = { ...this.handoff, state: 'expired' };
        this.requestUpdate();
      }, 1000);
      void qrCode(phoneAddress(started.code))
        .then((qr) => {
          if (this.#handoffWatch === watch && this.handoff) this.handoff = { ...this.handoff, qr };
        })
        .catch(() => {
          // Without its QR code the code in letters still works: said, not hidden.
          if (this.#handoffWatch === watch && this.handoff)
            this.handoff = { ...this.handoff, problem: this.#texts.t('error_generic') };
        });
      const final = await client.watchHandoff(started.handoff, () => undefined, watch.signal);
      if (this.#handoffWatch !== watch) return;
      if (final.status === 'received' && final.photo) {
        this.#endHandoff();
        this.handoff = undefined;
        this.#announcer.say(this.#texts.t('handoffReceived'));
        this.#run.useHandoffPhoto(final.photo, handoffPhotoExpiry(expiresAt));
      } else {
        this.#stopHandoffTimers();
        this.handoff = { ...this.handoff!, state: 'expired' };
        this.#focusStep = true;
      }
    } catch (error) {
      if (watch.signal.aborted) return;
      this.#stopHandoffTimers();
      this.handoff = {
        state: 'failed',
        problem: this.#texts.errorMessage(error instanceof ProxyCallError ? error.code : 'generic'),
      };
      this.#focusStep = true;
    }
  };

  #stopHandoffTimers(): void {
    clearInterval(this.#handoffTick);
    this.#handoffTick = undefined;
  }

  /** Stops waiting for a hand-off (back, a new code, the panel gone). */
  #endHandoff(): void {
    this.#handoffWatch?.abort();
    this.#handoffWatch = undefined;
    this.#stopHandoffTimers();
  }

  readonly #closeHandoff = () => {
    this.#endHandoff();
    this.handoff = undefined;
    this.#focusStep = true;
  };

  /** On the phone: the photo goes to the computer's hand-off, with the consent given here. */
  readonly #sendToComputer = async () => {
    const phone = this.phone;
    const blob = this.prepared?.blob;
    if (!phone || !blob || phone.state === 'sending') return;
    this.phone = { ...phone, state: 'sending' };
    void this.#alternatives$();
    try {
      await this.#run.sendToComputer(phone.code, blob);
      this.phone = { ...phone, state: 'sent', problem: '' };
    } catch (error) {
      this.phone = {
        ...phone,
        state: 'refused',
        problem: this.#texts.errorMessage(error instanceof ProxyCallError ? error.code : 'generic'),
      };
    }
    this.#focusStep = true;
  };

  /** "No photo? See it on a model" and, on a computer, "Use your phone": offered beside consent and the photo step. */
  #alternatives(texts: Texts): TemplateResult | typeof nothing {
    if (this.phone) return nothing;
    const models = (this.#run.product?.models ?? []).length > 0;
    const phone = !this.#smallScreen.matches;
    if (!models && !phone) return nothing;
    return html`<div class="body actions alternatives" part="alternatives">
      ${models ? html`<button type="button" part="secondary-button" @click=${this.#browseModels}>${texts.t('seeOnModel')}</button>` : nothing}
      ${phone ? html`<button type="button" part="secondary-button" @click=${this.#startHandoff}>${texts.t('usePhone')}</button>` : nothing}
    </div>`;
  }

  #renderStep(texts: Texts): TemplateResult | typeof nothing {
    const session = this.#session;
    const productName = this.#productName();
    const alternatives = this.#alternativesModule;
    if (this.phone && (this.phone.state === 'sent' || this.phone.state === 'refused')) {
      // Loaded while the photo was sent (#sendToComputer); a moment's blank at worst.
      if (!alternatives) return nothing;
      return alternatives.phoneSentStep({ texts, problem: this.phone.problem, onClose: () => this.hide() });
    }
    if (this.handoff && alternatives && (session.status === 'consent' || session.status === 'photo')) {
      const { handoff } = this;
      return alternatives.desktopHandoffStep({
        texts,
        qr: handoff.qr,
        code: handoff.code,
        left: alternatives.timeLeft(handoff.expiresAt ?? 0, Date.now()),
        state: handoff.state,
        problem: handoff.problem,
        onNewCode: this.#startHandoff,
        onBack: this.#closeHandoff,
      });
    }
    if (session.status === 'photo' && session.browsingModels) {
      // Back to the grid after a reload of the panel's state: its chunk is asked for, and renders when in.
      if (!alternatives) {
        void this.#alternatives$();
        return nothing;
      }
      return alternatives.modelsStep({
        texts,
        productName,
        models: this.#models(),
        onPick: (model) => this.#run.useModel(model),
        onBack: () => {
          this.#focusStep = true;
          this.#run.closeModels();
        },
      });
    }
    switch (session.status) {
      case 'consent':
        return html`${consentStep({
          texts,
          productName,
          privacyUrl: this.host.privacyUrl,
          retention: this.#run.product?.retention,
          checked: this.consentChecked,
          onCheck: (event) => {
            this.consentChecked = (event.target as HTMLInputElement).checked;
          },
          onContinue: () => {
            if (!this.consentChecked) return;
            const words = consentText({
              texts,
              productName,
              privacyUrl: this.host.privacyUrl,
              retention: this.#run.product?.retention,
            });
            void this.#run.consent(consentWords(Object.values(words)), texts.code);
          },
        })}${this.#alternatives(texts)}`;
      case 'photo':
        return html`${photoStep({
          texts,
          preview: this.prepared ? this.preview : undefined,
          preparing: this.preparing,
          dragging: this.dragging,
          problem: this.problem,
          hasLastPhoto: Boolean(lastPhoto(this.host.endpoint)),
          canForget: this.#run.hasPhotoToForget(),
          onForget: this.#onForget,
          onDragOver: this.#onDragOver,
          onDragLeave: () => {
            this.dragging = false;
          },
          onDrop: this.#onDrop,
          // The photo check gates both ways a photo leaves the device: to the try-on, and to the computer.
          onSubmit: () => {
            if (!this.prepared || !this.#checkAllowsSend()) return;
            if (this.phone) void this.#sendToComputer();
            else void this.#run.sendPhoto();
          },
          check:
            this.check === 'loading'
              ? { view: nothing, allowsSend: false }
              : this.check
                ? { view: this.check.view(this.renderRoot as ShadowRoot), allowsSend: this.check.allowsSend }
                : undefined,
          onPick: (camera) => this.renderRoot.querySelector<HTMLInputElement>(camera ? '#camera' : '#file')?.click(),
          onUseLastPhoto: () => this.#run.useLastPhoto(),
          onFile: this.#onFile,
          phone: this.phone ? { sending: this.phone.state === 'sending' } : undefined,
        })}${this.#alternatives(texts)}`;
      case 'uploading':
      case 'queued':
      case 'rendering':
        return progressStep({
          texts,
          productName,
          uploading: session.status === 'uploading',
          percent: session.percent,
          elapsedSeconds: session.tryon
            ? Math.round(Math.max(0, this.#clock.now - (session.submittedAt ?? this.#clock.now)) / 1000)
            : undefined,
          expectedSeconds: Math.round(this.#run.expectedMs() / 1000),
          notAnswering: Boolean(session.notAnswering),
          onCancel: () => this.#run.cancel(),
          preview: session.preview
            ? {
                output: session.preview,
                view: this.#imageView(texts, productName),
                onLoad: () => this.#run.previewShown(),
              }
            : undefined,
        });
      case 'result':
        return this.#colours.open && session.complete
          ? coloursStep({
              texts,
              productName,
              tiles: this.#colours.tiles,
              onUpgrade: this.#onUpgrade,
              onBack: this.#onColoursBack,
              onImageError: this.#onImageError,
            })
          : resultStep({
              texts,
              productName,
              outputs: session.outputs,
              views: session.views,
              selectedView: this.selectedView,
              before: session.photo ? beforeImages.get(session.photo.handle) : undefined,
              compare: this.#compare,
              offerVideo:
                session.complete &&
                this.host.video &&
                this.#run.product?.video === true &&
                !session.outputs.some((o) => o.type === 'video') &&
                session.output === 'image',
              onSelect: (view) => {
                this.selectedView = view;
                this.fadeFrom = undefined;
              },
              onDownload: this.#onDownload,
              onShare: this.#onShare,
              onAnotherPhoto: this.#onAnotherPhoto,
              onForget: this.#onForget,
              onMakeVideo: () => this.#run.makeVideo(),
              colourOffer: this.#colourOffer(texts),
              onTryColour: this.#onTryColour,
              cart: session.complete ? this.#resultCart() : undefined,
              fadeFrom: this.fadeFrom,
              offerColours: this.#offersColours(),
              onSeeColours: this.#onSeeColours,
              onImageError: this.#onImageError,
            });
      case 'error': {
        // The full render failed after its first look: the shopper keeps the look and is told plainly.
        const kept =
          session.preview && session.failedStage === 'render'
            ? firstLook(texts, {
                output: session.preview,
                view: this.#imageView(texts, productName),
                onLoad: () => undefined,
              })
            : undefined;
        // No action for a code that cannot succeed today (a spent budget): only Close.
        const action = actionLabel(session.error?.code);
        return errorStep({
          texts,
          message: kept ? texts.t('previewFullFailed') : session.error?.message,
          action: action && texts.t(action),
          onRetry: this.#onRetry,
          onClose: () => this.hide(),
          kept,
        });
      }
      default:
        return nothing;
    }
  }

  override render() {
    const texts = this.#texts;
    // The language the texts are really in: a page in a language the widget lacks reads English.
    // While consent is asked, what the shopper agrees to is the dialog's description.
    const description = this.#session.status === 'consent' ? CONSENT_TEXT_ID : nothing;
    return html`<dialog part="dialog" class=${this.#smallScreen.matches ? 'sheet' : ''} aria-labelledby="dialog-title" aria-describedby=${description} lang=${texts.code}
        dir=${texts.dir ?? nothing} @close=${this.#onDialogClose}>
      <div class="header" part="header">
        <h2 id="dialog-title" part="title">${texts.t('dialogTitle')}</h2>
        <button type="button" class="close" part="close-button" aria-label=${texts.t('close')} @click=${() => this.hide()}>×</button>
      </div>
      ${this.#renderStep(texts)}
      <p id="status" role="status" part="status" class="status body">${this.#announcer.line(this.#session)}</p>
    </dialog>`;
  }
}
