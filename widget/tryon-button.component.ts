// <tryon-button>, the element a shop puts on its page, in the first script. Much of it is its public
// documentation: the custom-elements manifest, docs/api-reference.md and the editor data are generated
// from the comments on the class and its properties, so they stay beside what they document. Its
// holdout, dictionary loading and panel prefetch stay in this module too: as modules of their own they
// make the first script larger, and it is close to its budget (docs/performance.md, "Page weight").
import { LitElement, html, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import { buttonStyles } from './tryon-button.styles.js';
import { currentTryon } from './core/storage.js';
import type { StoredTryon } from './core/storage.js';
import { proxyBase, unavailableReasonOf } from './core/availability.js';
import type { Unavailable } from './core/availability.js';
import { tryonEvent, tryonSubject } from './core/events.js';
import type { CartPlatform, TryonStatus } from './core/events.js';
import { browserDraw, holdoutGroup, holdoutShare } from './analytics/holdout.js';
import type { HoldoutGroup } from './analytics/holdout.js';
import type { Strings, Translation } from './i18n/en.js';
import { english, languageOf } from './i18n/language/language.js';
import type { PanelHost, PanelReadyEvent, PanelStatusEvent } from './core/panel-host.js';

/** What the button needs from the lazily loaded panel. */
interface PanelElement extends HTMLElement {
  host: PanelHost;
  show(resume?: StoredTryon): Promise<void>;
  hide(): void;
  variantChanged(): void;
}

let panelModule: Promise<unknown> | undefined;

/** Loads the panel's module once; later calls share the same promise. */
export function loadPanel(): Promise<unknown> {
  panelModule ??= import('./panel/tryon-panel.js').catch((error: unknown) => {
    // A failed chunk load (offline) must not poison every later attempt.
    panelModule = undefined;
    throw error;
  });
  return panelModule;
}

/**
 * A "Try it on" button for a product page. It opens a dialog in which the shopper gives
 * consent, chooses or takes a photo, watches progress and sees themselves wearing the product:
 * one image, a catalog of views, or a short video. It talks only to the shop's token proxy.
 *
 * @summary Virtual try-on for one product.
 * @tag tryon-button
 *
 * @slot - The button's label. Defaults to "Try it on" (or the `lang`'s translation).
 *
 * @event {CustomEvent<TryonOpenDetail>} tryon-open - The dialog opened.
 * @event {CustomEvent<TryonCloseDetail>} tryon-close - The dialog closed; `status` is the step it was on.
 * @event {CustomEvent<TryonSubmitDetail>} tryon-submit - A try-on is being sent to the proxy (its `requestId`, views and output).
 * @event {CustomEvent<TryonProgressDetail>} tryon-progress - Upload percent, or a status change with elapsed and expected time.
 * @event {CustomEvent<TryonResultDetail>} tryon-result - The try-on succeeded; `outputs` holds absolute URLs of every image or video.
 * @event {CustomEvent<TryonErrorDetail>} tryon-error - Something failed; `code` is the proxy's error code, `message` the words shown.
 * @event {CustomEvent<TryonAddToCartDetail>} tryon-add-to-cart - "Add to cart" (or "Add the look to cart") was pressed on a result (`cart`: how it is added; `item`: the id added; `lines`: every line added, each piece of an outfit; `waitUntil` for the shop's own add).
 * @event {CustomEvent<TryonExposureDetail>} tryon-exposure - With `holdout`: once per product a page shows, this browser's `group` (`treatment` sees the button, `holdout` never does).
 * @event {CustomEvent<TryonPreviewDetail>} tryon-preview - The first look (a quick draft) was painted while the full render is made; `ms` is the time from the submit.
 * @event {CustomEvent<TryonFidelityDetail>} tryon-fidelity - Once per finished try-on, what the proxy's check of it against the product found: `verdict` (`true`, `differs`, or `unchecked` when nothing was checked) and `views` (each view's colour difference `colour.deltaE` and garment `coverage`).
 * @event {CustomEvent<TryonOutfitDetail>} tryon-outfit - "Complete the look": the outfit on the result changed (a piece added or removed); `pieces` lists every piece shown, the base first.
 * @event {CustomEvent<TryonPhotoCheckDetail>} tryon-photo-check - The photo check's verdict on a chosen photo, before any upload: `result` (`pass`, `fail`, `skipped` with `photo-check="off"`, `unavailable` when it could not run), `reasons` (codes), `mode`, and `overridden: true` when the shopper pressed "Use it anyway".
 *
 * @attr {'warn' | 'strict' | 'off'} photo-check - The photo check on the device before anything is uploaded (one person, face visible, the whole body when the product needs it, not too dark, blurred or small). `warn` (default) explains and offers "Use it anyway"; `strict` asks for another photo; `off` skips it. Read by the dialog when a photo is chosen.
 *
 * @csspart button - The "Try it on" button.
 * @csspart dialog - The `<dialog>` (a bottom sheet on small screens).
 * @csspart header - The dialog's title bar.
 * @csspart title - The dialog's title.
 * @csspart close-button - The dialog's close button.
 * @csspart consent - The consent step.
 * @csspart photo - The photo step.
 * @csspart dropzone - Where a photo can be dropped; shows the chosen photo's thumbnail.
 * @csspart preview - The chosen photo's thumbnail (named for the photo previewed before it is sent, not the first look).
 * @csspart photo-check - The photo check's verdict under the thumbnail: "Checking your photo…", the reasons beside a drawing of a good photo with its buttons, or why it could not run.
 * @csspart progress - The upload and rendering progress step.
 * @csspart status - The live region announcing progress (role=status).
 * @csspart result - The result step.
 * @csspart views - The view switcher (a tablist).
 * @csspart image - A rendered try-on image.
 * @csspart compare - The before/after comparison: the try-on and the shopper's photo under a divide, shown when "Before and after" is pressed.
 * @csspart compare-handle - The comparison's slider handle (at least 44 px wide).
 * @csspart before-after - Under a try-on image whose photo was sent from this page: the "Show my photo" and "Before and after" toggles.
 * @csspart photo-toggle - "Show my photo" (aria-pressed): the shopper's photo whole in the try-on's place (also `secondary-button`).
 * @csspart compare-toggle - "Before and after" (aria-pressed): the comparison with its divide (also `secondary-button`).
 * @csspart video - The try-on video.
 * @csspart actions - A row of buttons.
 * @csspart primary-button - The step's main button.
 * @csspart secondary-button - Every other button.
 * @csspart forget-button - "Forget my photo", in the photo and result steps.
 * @csspart retention - The consent step's sentence on how long the photo and result are kept.
 * @csspart error - The error message (role=alert).
 * @csspart add-to-cart-button - "Add to cart" on the result (also `primary-button` or `secondary-button`).
 * @csspart cart-error - Why adding to the cart failed (role=alert).
 * @csspart outfit - "Complete the look" on a result whose product has pieces: the outfit's pieces and the pieces offered.
 * @csspart outfit-pieces - The outfit's pieces, the base first, once a piece is added ("Your look").
 * @csspart remove-piece-button - "Remove <piece>" beside the outfit's last piece (also `secondary-button`).
 * @csspart outfit-error - Why a piece was not added, in words (role=alert).
 * @csspart outfit-progress - "Adding <piece> to your look…" while a piece is made.
 * @csspart outfit-offers - The pieces offered: each a picture, a name, a colour choice and "Add <piece>".
 * @csspart piece-colour - A piece's colour choice (a select), when it has several.
 * @csspart piece-button - "Add <piece>" (also `secondary-button`).
 * @csspart first-look - The first look in the progress step (and kept in the error step when the full render failed): a quick draft, marked, with the full render's time so far and expected.
 * @csspart first-look-badge - The "Quick preview" mark on the first look.
 * @csspart colours - "See all colours": the chosen colour's draft large, over a row of the other colours' drafts.
 * @csspart colour - One colour in that row: a button with its draft as a thumbnail and its name.
 * @csspart unavailable-reason - Beside a disabled button (`when-unavailable="disable"`): why the product cannot be tried on today, in words.
 * @csspart not-opened - Beside the button after a press that could not open the dialog (its code did not load: offline, or a file missing on the shop's server), in words (role=alert).
 * @csspart alternatives - Beside the consent and photo steps: "No photo? See it on a model" and, on a computer, "Use your phone".
 * @csspart models - "See it on a model": the step with the product's models.
 * @csspart model-grid - The grid (a list) of the models.
 * @csspart model - One model: a button with their picture and name.
 * @csspart handoff - "Use your phone" on a computer: the QR code, the code in letters and the time left.
 * @csspart qr-code - The QR code of this page for the phone.
 * @csspart handoff-code - The code in letters, for typing on the phone.
 * @csspart handoff-confirm - On the computer, once the phone's photo came: the form asking for the number the phone shows.
 * @csspart handoff-number-input - The field the phone's number is typed into.
 * @csspart handoff-sent - On the phone, after sending: the number to type on the computer, or why it was not sent.
 * @csspart handoff-number - On the phone, after sending: the number, large.
 * @csspart fidelity - Beside the result: what the proxy's check of its colours against the product says ("Colours checked against the product", "Colours may differ from the product photo", or that a view is being made again); `data-verdict` is `true`, `differs` or `running`.
 * @csspart fidelity-swatch - Beside "Colours may differ from the product photo": the product's own garment image, the colour the shopper would receive.
 * @csspart ready-badge - On the button, once a try-on watched after the dialog closed has its result; opening the dialog shows it and takes the badge away.
 *
 * @cssproperty --tryon-accent - Accent color of buttons and focus rings. Default #1d4ed8; in the dialog in dark mode, #3b82f6.
 * @cssproperty --tryon-accent-text - Text color on the accent. Default: in the dialog, white or near-black (#0b1120), whichever reads at 4.5:1 or more on the resolved accent, worked out by the element whenever the accent or the colour scheme changes; on the page's button, #fff.
 * @cssproperty --tryon-radius - Corner radius of buttons, dialog and images. Default 0.5rem.
 * @cssproperty --tryon-font - Font family. Default: inherited from the page.
 * @cssproperty --tryon-button-padding - Padding of the "Try it on" button. Default 0.7em 1.3em.
 * @cssproperty --tryon-focus - Focus ring color. Default: the accent.
 * @cssproperty --tryon-background - Dialog background. Default white, or #18181b in dark mode.
 * @cssproperty --tryon-text - Dialog text color. Default #18181b, or #f4f4f5 in dark mode.
 * @cssproperty --tryon-muted - Secondary text color. Default #52525b, or #a1a1aa in dark mode.
 * @cssproperty --tryon-border - Border color. Default #d4d4d8, or #3f3f46 in dark mode.
 * @cssproperty --tryon-surface - Background of the drop zone and image frames. Default #f4f4f5, or #27272a in dark mode.
 * @cssproperty --tryon-danger - Error text color. Default #b91c1c, or #fca5a5 in dark mode.
 * @cssproperty --tryon-dialog-width - Width of the dialog on large screens. Default 34rem.
 */
export class TryonButton extends LitElement implements PanelHost {
  static override styles = buttonStyles;
  static override shadowRootOptions: ShadowRootInit = { ...LitElement.shadowRootOptions, delegatesFocus: true };

  static override properties = {
    product: { type: String },
    endpoint: { type: String },
    views: { type: String },
    variant: { type: String },
    video: { type: Boolean },
    lang: { type: String },
    privacyUrl: { type: String, attribute: 'privacy-url' },
    prefetch: { type: String },
    analytics: { type: String },
    addToCart: { type: String, attribute: 'add-to-cart' },
    cartId: { type: String, attribute: 'cart-id' },
    holdout: { type: String },
    measurement: { type: String },
    whenUnavailable: { type: String, attribute: 'when-unavailable' },
    accent: { type: String },
    // '' (available) leaves no attribute, so `:not([unavailable])` and hasAttribute read as they should.
    unavailable: { type: String, reflect: true, converter: { toAttribute: (value: string) => value || null } },
    checking: { type: Boolean, reflect: true },
    status: { type: String, reflect: true },
    strings: { attribute: false },
    pollInterval: { attribute: false },
    panelLoaded: { state: true },
    ready: { state: true },
    notOpened: { state: true },
  };

  /** The product's id in the shop's catalog (required). */
  declare product: string;
  /** Where the token proxy is mounted; relative to the page or absolute. */
  declare endpoint: string;
  /** Comma-separated views to render, a subset of what the product offers; empty = all offered. */
  declare views: string;
  /**
   * The variant (colour) to try on, by the shop's own id (1–64 of `A–Z a–z 0–9 _ -`); empty for the
   * product's own garment. Changing it while a result is on screen offers "Try this colour" with
   * the same photo; a try-on under way is not disturbed.
   */
  declare variant: string;
  /** Offer "Make a video" when the product allows it. */
  declare video: boolean;
  /**
   * Language of the texts: `en`, `hi`, `bn`, `gu`, `mr`, `ta`, `te`, `ur` or `ar`. Defaults to the
   * nearest `lang` around the element, then the page's (nearest match: `bn-IN` → `bn`), then English.
   */
  declare lang: string;
  /** The shop's privacy page, linked from the consent step. */
  declare privacyUrl: string;
  /** When to fetch the panel's code before it is needed: `idle` (default) or `interaction` (hover or focus only). */
  declare prefetch: 'idle' | 'interaction';
  /**
   * Where to send conversion events (space-separated): `shopify` (Shopify customer events) and/or
   * `dataLayer` (Google Tag Manager). Empty (default): none are sent. See docs/widget.md.
   */
  declare analytics: string;
  /**
   * "Add to cart" on the result, for the variant tried on: `shopify` (Shopify's Ajax Cart API, then
   * the events Dawn and Horizon refresh their cart from), `woocommerce` (WooCommerce's AJAX
   * add-to-cart, else its form post) or `event` (only `tryon-add-to-cart`, for the shop's code).
   * Empty (default): no such button. See docs/widget.md.
   */
  declare addToCart: string;
  /**
   * The id the cart adds when the try-on had no variant (Shopify: the product's only variant;
   * WooCommerce: the product's id, whose variation is `variant`).
   */
  declare cartId: string;
  /**
   * A share (0–1, e.g. `0.1`) of browsers that never see the button: a random, sticky draw per
   * browser (localStorage `tryon-holdout`), the same for every product. Each page view reports
   * `tryon-exposure` (and `tryon_exposure` to analytics) with the browser's group. See docs/widget.md.
   */
  declare holdout: string;
  /**
   * With `holdout`, off Shopify: `allowed` when the shop's consent banner has the visitor's consent
   * to measurement; then the browser keeps an anonymous id (localStorage `tryon-browser`) that its
   * exposures and cart carry. Anything else, or none, keeps no id (and deletes one kept before).
   * On Shopify the Customer Privacy API decides instead. See docs/widget.md.
   */
  declare measurement: string;
  /**
   * What the button does when the proxy says the product cannot be tried on today (switched off in
   * the catalog, or the day's budget is spent): `hide` (default) shows no button; `disable` shows
   * it disabled, with the reason in words beside it.
   */
  declare whenUnavailable: 'hide' | 'disable';
  /**
   * The accent colour as `#rrggbb` (or `#rgb`) for buttons, focus rings and the dialog's accents: the same as the CSS
   * property `--tryon-accent`, for markup that may not carry a `style` attribute (a strict
   * Content-Security-Policy's `style-src` refuses it). Anything else is ignored, with a console warning.
   */
  declare accent: string | undefined;
  /**
   * Why the product cannot be tried on now (`disabled` or `daily_budget_reached`), empty while it
   * can; reflected for CSS. Read-only for the page.
   */
  declare unavailable: '' | 'disabled' | 'daily_budget_reached';
  /** The first availability check is under way (at most 3 s): the button is there but not yet shown. */
  declare private checking: boolean;
  /** The current step, reflected as an attribute CSS can target. Read-only for the page. */
  declare status: TryonStatus;
  /** Overrides for any text, by key (see docs/widget.md). */
  declare strings: Partial<Strings>;
  /** Milliseconds between status polls when Server-Sent Events are unavailable. */
  declare pollInterval: number;
  declare private panelLoaded: boolean;
  /** The last press did not open the dialog: its code could not be loaded. */
  declare private notOpened: boolean;
  /** The ready badge's word and its announcement, while a result made after the dialog closed waits. */
  declare private ready: PanelReadyEvent['detail'];
  /**
   * The dictionary of `language`, once loaded; undefined for English or a language the widget lacks.
   * @internal For the panel.
   */
  translation: Translation | undefined = undefined;
  /** The language whose dictionary was last asked for, and that load while it is under way. */
  #translationFor: string | undefined;
  #translationLoad: Promise<void> | undefined;

  #idleHandle: number | undefined;
  readonly #resumeChecked = new Set<string>();
  /** This browser's group while the page runs an experiment (a valid `holdout`); else undefined. */
  #group: HoldoutGroup | undefined;
  /** The products whose exposure this element reported, so each page view reports each once. */
  readonly #exposed = new Set<string>();
  /** The product and proxy the last availability check was for: a later answer for another is dropped. */
  #checkedFor = '';

  constructor() {
    super();
    this.product = '';
    this.endpoint = '/tryon';
    this.views = '';
    this.variant = '';
    this.video = false;
    this.lang = '';
    this.privacyUrl = '';
    this.prefetch = 'idle';
    this.analytics = '';
    this.addToCart = '';
    this.cartId = '';
    this.holdout = '';
    this.measurement = '';
    this.whenUnavailable = 'hide';
    this.unavailable = '';
    this.checking = false;
    this.status = 'idle';
    this.strings = {};
    this.pollInterval = 2000;
    this.panelLoaded = false;
    this.notOpened = false;
    this.ready = undefined;
  }

  /** The language the texts are shown in. */
  get language(): string {
    return languageOf(this, this.lang);
  }

  /**
   * Where "Add to cart" adds, when the attribute names a way the widget knows.
   * @internal For the panel.
   */
  get cartPlatform(): CartPlatform | undefined {
    const value = (this.addToCart ?? '').trim().toLowerCase();
    return value === 'shopify' || value === 'woocommerce' || value === 'event' ? value : undefined;
  }

  /** Opens the dialog, loading the panel first if needed. A browser in the holdout gets nothing. */
  async open(): Promise<void> {
    if (this.#heldOut) return;
    const panel = await this.#readyPanel();
    await panel.show();
  }

  /** Closes the dialog; harmless when it is not open. */
  close(): void {
    this.#panel?.hide();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.prefetch !== 'interaction') this.#prefetchWhenIdle();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.#idleHandle !== undefined) (globalThis.cancelIdleCallback ?? clearTimeout)(this.#idleHandle);
    this.#idleHandle = undefined;
  }

  get #heldOut(): boolean {
    return this.#group === 'holdout';
  }

  /** This browser's group, worked out again when the page changes `holdout`. */
  #assign(): void {
    const share = holdoutShare(this.holdout);
    if (share === null) {
      console.error(`<tryon-button>: holdout="${this.holdout}" is not a share from 0 to 1 (such as 0.1): no holdout.`);
    }
    const draw = typeof share === 'number' ? browserDraw() : undefined;
    if (typeof share === 'number' && draw === undefined) {
      console.warn('<tryon-button>: no site data kept, so no holdout group: the button shows, no exposure reported.');
    }
    this.#group = typeof share === 'number' && draw !== undefined ? holdoutGroup(share, draw) : undefined;
  }

  /** Each product a page shows, once: this browser's group, as a DOM event and to analytics. */
  #reportExposure(): void {
    const group = this.#group;
    const share = holdoutShare(this.holdout);
    if (!group || typeof share !== 'number' || !this.product || this.#exposed.has(this.product)) return;
    this.#exposed.add(this.product);
    const subject = tryonSubject(this.product, this.variant || undefined);
    const detail = { ...subject, group, holdout: share };
    this.dispatchEvent(tryonEvent('tryon-exposure', detail));
    this.#measure(this.product);
    const destinations = this.analytics ?? '';
    // Its own small chunk (shared with the panel): a page without analytics never loads it.
    if (destinations.trim()) {
      void import('./analytics/analytics.js').then(
        ({ sendConversion }) => sendConversion(destinations, 'tryon_exposure', { ...subject, group, holdout: share }),
        () => undefined,
      );
    }
  }

  /**
   * With `holdout`: the browser id as consent allows it, the exposure of `product` to the proxy and
   * the marks on the shop's cart (analytics/measurement.ts, a chunk a page without a holdout never
   * loads); without a product when consent changed.
   */
  #measure(product?: string): void {
    const group = this.#group;
    if (group)
      void import('./analytics/measurement.js').then(
        ({ measure }) => measure(this, group, product),
        () => undefined,
      );
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('holdout')) this.#assign();
    if (changed.has('measurement') && this.hasUpdated) this.#measure();
    if (changed.has('accent')) this.#applyAccent();
    // The first availability check (updated() starts it) keeps the button unseen until it answers.
    if (!this.hasUpdated && this.product) this.checking = true;
    const language = this.language;
    if (language === this.#translationFor) return;
    this.#translationFor = language;
    this.translation = undefined;
    this.#translationLoad = undefined;
    // Only a page in another language fetches its dictionary: English's label is already here.
    if (language === english.$code) return;
    this.#translationLoad = import('./i18n/words/dictionaries.js')
      .then(({ loadTranslation }) => loadTranslation(language))
      .then(
        (found) => {
          if (this.#translationFor !== language) return;
          this.translation = found;
          this.requestUpdate();
        },
        () => undefined,
      );
  }

  /**
   * `accent` becomes the element's own `--tryon-accent`, set through the CSSOM: a CSP's `style-src`
   * governs `style="…"` in markup, not a property a script sets. Only once the attribute is given
   * (a page's own `--tryon-accent` is left alone until then).
   */
  #applyAccent(): void {
    const accent = this.accent ?? '';
    if (/^#([\da-f]{3}){1,2}$/i.test(accent)) return this.style.setProperty('--tryon-accent', accent);
    this.style.removeProperty('--tryon-accent');
    if (accent) console.warn('<tryon-button>: accent ignored, not #rrggbb:', accent);
  }

  /** Complete once the label is in the element's language too. */
  protected override async getUpdateComplete(): Promise<boolean> {
    const done = await super.getUpdateComplete();
    const load = this.#translationLoad;
    if (!load) return done;
    await load;
    if (this.#translationLoad === load) this.#translationLoad = undefined;
    // The dictionary's arrival renders once more.
    return this.getUpdateComplete();
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    this.#reportExposure();
    if (this.#heldOut) return;
    if (changed.has('variant')) this.#panel?.variantChanged();
    if (!changed.has('product') && !changed.has('endpoint') && !changed.has('holdout')) return;
    void this.checkAvailability();
    // A reload in the middle of a render picks the same try-on up again (checked once per
    // product, also when a framework sets the product after the first render).
    const key = `${this.endpoint}|${this.product}`;
    if (!this.product || this.#resumeChecked.has(key)) return;
    this.#resumeChecked.add(key);
    const resume = currentTryon(this.endpoint, this.product);
    if (resume)
      void this.#readyPanel()
        .then((panel) => panel.show(resume))
        .catch(() => undefined);
    // Opened on a phone from a hand-off's QR code: the dialog opens in hand-off mode (the panel reads the code).
    else if (location.hash.includes('tryon-handoff='))
      void this.#readyPanel()
        .then((panel) => panel.show())
        .catch(() => undefined);
  }

  /**
   * Asks the proxy whether this product can be tried on now (GET /products/{id}: `available`), so
   * a shopper never starts a try-on that cannot be made: before anything is uploaded, and again by
   * the panel each time the dialog opens. No answer (offline, an error) leaves the button as it
   * is: the dialog then says what is wrong. The first check hides the button for at most 3 s.
   * @internal For the panel too.
   */
  async checkAvailability(): Promise<void> {
    const key = `${this.endpoint}|${this.product}`;
    this.#checkedFor = key;
    if (!this.product) return;
    const timer = setTimeout(() => {
      if (this.#checkedFor === key) this.checking = false;
    }, 3000);
    try {
      const response = await fetch(new URL(`products/${encodeURIComponent(this.product)}`, proxyBase(this.endpoint)), {
        headers: { accept: 'application/json' },
      });
      const answer = response.ok
        ? ((await response.json()) as { available?: boolean; unavailableReason?: string })
        : undefined;
      if (this.#checkedFor !== key || !answer) return;
      this.productAvailability(unavailableReasonOf(answer));
    } catch {
      // Not answering: the button stays; opening the dialog says why.
    } finally {
      clearTimeout(timer);
      if (this.#checkedFor === key) this.checking = false;
    }
  }

  /** @internal The panel's report of what the proxy said when the dialog opened. */
  productAvailability(reason: Unavailable): void {
    this.unavailable = reason;
  }

  get #panel(): PanelElement | null {
    return this.renderRoot.querySelector<PanelElement>('tryon-panel');
  }

  async #readyPanel(): Promise<PanelElement> {
    await loadPanel();
    this.panelLoaded = true;
    await this.updateComplete;
    const panel = this.#panel;
    if (!panel) throw new Error('The try-on panel did not render.');
    return panel;
  }

  #prefetchWhenIdle(): void {
    const schedule = () => {
      const idle = globalThis.requestIdleCallback;
      const run = () => {
        this.#idleHandle = undefined;
        if (!this.#heldOut) void loadPanel().catch(() => undefined);
      };
      this.#idleHandle = idle ? idle(run, { timeout: 5000 }) : (setTimeout(run, 3000) as unknown as number);
    };
    // Not during page load: the shop's own content comes first.
    if (document.readyState === 'complete') schedule();
    else addEventListener('load', schedule, { once: true });
  }

  readonly #onPrefetch = () => {
    void loadPanel().catch(() => undefined);
  };

  readonly #onClick = () => {
    // Disabled (aria-disabled, so it stays focusable and its reason is read): nothing to open.
    if (this.unavailable) return;
    this.notOpened = false;
    void this.open().catch((error: unknown) => {
      // The dialog's chunk did not load (offline, a file missing on the shop's server): said
      // beside the button, never a press that does nothing.
      this.notOpened = true;
      console.warn('<tryon-button>: the dialog did not load.', error);
    });
  };

  readonly #onPanelStatus = (event: PanelStatusEvent) => {
    this.status = event.detail;
  };

  readonly #onPanelReady = (event: PanelReadyEvent) => {
    this.ready = event.detail;
  };

  override render() {
    // The holdout never sees the button, nor anything of it.
    if (this.#heldOut) return nothing;
    const label = this.strings.label ?? this.translation?.label ?? english.label;
    // The badge is the button's description, not part of its name: the button stays "Try it on".
    // Its live region exists as soon as the panel does, so the words put in it later are announced.
    const ready = this.ready;
    // Unavailable: no button at all (`hide`), or a disabled one with the reason beside it in words.
    // The panel stays where it is: a dialog open when the budget ran out is not torn away.
    const reason = this.unavailable;
    const reasonText = reason
      ? (this.strings[`unavailable_${reason}`] ??
        this.translation?.[`unavailable_${reason}`] ??
        english[`unavailable_${reason}`])
      : '';
    const shown = !reason || this.whenUnavailable === 'disable';
    return html`${
      shown
        ? html`<button part="button" type="button" aria-haspopup=${reason ? nothing : 'dialog'}
        aria-disabled=${reason ? 'true' : nothing} aria-describedby=${reason ? 'unavailable-reason' : ready ? 'ready-badge' : nothing}
        @click=${this.#onClick} @pointerenter=${this.#onPrefetch} @focus=${this.#onPrefetch} @touchstart=${this.#onPrefetch}
      ><slot>${label}</slot>${ready && !reason ? html`<span id="ready-badge" part="ready-badge" aria-hidden="true">${ready.badge}</span>` : nothing}</button>${
        reason ? html`<span id="unavailable-reason" part="unavailable-reason">${reasonText}</span>` : nothing
      }${
        this.notOpened && !reason
          ? html`<span role="alert" part="not-opened">${this.strings.notOpened ?? this.translation?.notOpened ?? english.notOpened}</span>`
          : nothing
      }`
        : nothing
    }${
      this.panelLoaded
        ? html`<span role="status" class="ready-note">${ready?.announcement ?? ''}</span><tryon-panel .host=${this} @panel-status=${this.#onPanelStatus} @panel-ready=${this.#onPanelReady}
          ></tryon-panel>`
        : nothing
    }`;
  }
}
