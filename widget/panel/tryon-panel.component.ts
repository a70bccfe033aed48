// The dialog shell: the <dialog>, its header and live region, focus when the step changes, and the
// wiring of the controllers created once with it (the run, the photo, the hand-off, the result, the
// colours, the cart, the announcer). What each step shows is panel-steps.ts's. About 370 lines, of
// which some 100 are that wiring: each controller's options are how it asks the panel for what it
// needs, and read best beside the other controllers they call on.
import { LitElement, html, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import { panelStyles } from './tryon-panel.styles.js';
import { readyInBackground } from '../run/session.js';
import type { SessionEvent, SessionState } from '../run/session.js';
import { TryonRun } from '../run/tryon-run.js';
import type { RunChange } from '../run/tryon-run.js';
import { photoRefused } from '../run/error-policy.js';
import { ClockController } from './clock.js';
import { CompareController } from '../result/compare.js';
import { AccentTextController } from './accent-text.js';
import { FocusTrapController } from './focus-trap.js';
import { ResultView } from '../result/view.js';
import type { StoredTryon } from '../core/storage.js';
import { Texts } from './texts.js';
import { tryonEvent } from '../core/events.js';
import { Conversions } from '../analytics/analytics.js';
import { Announcer } from './announcer.js';
import { PhotoChoice } from '../photo/photo-choice.js';
import type { TryonEventDetail, TryonEventName } from '../core/events.js';
import type { PanelHost, PanelReadyEvent, PanelStatusEvent } from '../core/panel-host.js';
import { CONSENT_TEXT_ID } from '../steps/consent.js';
import { ColourChoice } from '../colours/colour-choice.js';
import { PhoneHandoff } from '../alternatives/phone-handoff.js';
import { SmallScreen } from './small-screen.js';
import { AddToCart } from '../cart/add-to-cart.js';
import { renderStep } from './panel-steps.js';
import type { StepParts } from './panel-steps.js';

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
    consentChecked: { state: true },
  };

  declare host: PanelHost;
  declare private consentChecked: boolean;
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
    chosenPhoto: () => this.#photo.prepared?.blob,
    errorMessage: (code) => this.#texts.errorMessage(code),
  });
  /** The photo the shopper chose, its preview and its check: created once. */
  readonly #photo: PhotoChoice = new PhotoChoice(this, {
    mayChoose: () => this.#session.consented,
    chosen: () => this.#run.photoChosen(),
    texts: () => this.#texts,
    checkMode: () => this.host.getAttribute('photo-check'),
    needsFullBody: () => this.#run.needsFullBody(),
    checkReporter: () => {
      const variant = this.#run.chosenVariant;
      return (verdict) =>
        this.#emit('tryon-photo-check', { product: this.host.product, ...(variant ? { variant } : {}), ...verdict });
    },
    focusStep: () => {
      this.#focusStep = true;
    },
    announce: (text) => this.#announcer.say(text),
    pickAnother: () => this.renderRoot.querySelector<HTMLInputElement>('#file')?.click(),
  });
  /** "Use your phone", on the computer and on the phone: created once. */
  readonly #handoff = new PhoneHandoff(this, {
    client: () => this.#run.client(),
    product: () => this.#run.product?.product || this.host.product,
    variant: () => this.#run.chosenVariant,
    texts: () => this.#texts,
    received: (photo, expiresAt) => {
      this.#announcer.say(this.#texts.t('handoffReceived'));
      this.#run.useHandoffPhoto(photo, expiresAt);
    },
    send: (code, photo) => this.#run.sendToComputer(code, photo),
    announce: (text) => this.#announcer.say(text),
    focusStep: () => {
      this.#focusStep = true;
    },
  });
  /** "Add to cart" on the result: created once. */
  readonly #cart: AddToCart = new AddToCart(this, {
    host: () => this.host,
    session: () => this.#session,
    texts: () => this.#texts,
    productName: () => this.#productName(),
    primary: () => !this.#colours.offer(this.#texts),
    report: (detail) => this.#emit('tryon-add-to-cart', detail),
    added: (subject, platform) => this.#conversions.addedToCart(subject, platform),
    announce: (text) => this.#announcer.say(text),
  });
  /** The result on screen: its view, the first look's crossfade, the video's reveal, Download and Share. */
  readonly #result: ResultView = new ResultView(this, {
    session: () => this.#session,
    texts: () => this.#texts,
    productName: () => this.#productName(),
    productId: () => this.host.product,
    root: () => this.renderRoot as ShadowRoot,
    announce: (text) => this.#announcer.say(text),
  });
  /** The live region's words: created once, it follows the session and the shopper's actions. */
  readonly #announcer = new Announcer(this, () => this.#texts);
  readonly #conversions = new Conversions(() => this.host?.analytics);
  /** "Try this colour" and "See all colours": created once. */
  readonly #colours: ColourChoice = new ColourChoice(this, this.#run, {
    texts: () => this.#texts,
    dialogOpen: () => Boolean(this.#dialog?.open),
    focusStep: () => {
      this.#focusStep = true;
    },
    announce: (text) => this.#announcer.say(text),
    resetView: () => this.#result.showFirstView(),
  });
  #focusStep = false;
  #textsBuilt: { strings: object; translation: object | undefined; texts: Texts } | undefined;

  constructor() {
    super();
    // The run's one channel back: every change, with the public events it reports.
    this.#run.subscribe((change) => this.#runChanged(change));
    this.consentChecked = false;
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
    for (const [name, detail] of reports) this.#emit(name, detail);
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
    this.#result.sessionChanged(before, after, event);
    if (event.type === 'uploaded') this.#photo.uploaded(event.photo.handle);
    if (event.type === 'use-last-photo') this.#photo.reused(event.photo.handle);
    // Another photo (or none): the colour previews made with the old one are not this shopper's now.
    this.#colours.sessionChanged(after);
    this.#announcer.sessionChanged(before, after, event);
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

  // ── public ───────────────────────────────────────────────────────────────────────────────

  /** Opens the dialog; with `resume`, picks up a try-on stored before a reload. */
  async show(resume?: StoredTryon): Promise<void> {
    await this.updateComplete;
    const dialog = this.#dialog;
    if (!dialog) return;
    const wasOpen = dialog.open;
    this.#readyBadge(false);
    // Opened from a hand-off's QR code: this is the phone. The code leaves the address bar at once.
    this.#handoff.openedOnPhone();
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
  choose(file: Blob): Promise<void> {
    return this.#photo.choose(file);
  }

  /** The photo being prepared (tests wait on it). */
  get preparing(): boolean {
    return this.#photo.preparing;
  }

  // ── handlers ─────────────────────────────────────────────────────────────────────────────

  readonly #onDialogClose = () => {
    this.#run.close();
    // Focus goes back to where the shopper started, unless the page already moved it elsewhere.
    const active = document.activeElement;
    if (!active || active === document.body || active === this.host) this.host.focus();
  };

  readonly #onRetry = () => {
    // The proxy refused this photo: offering to send it again would be a dead end.
    if (photoRefused(this.#session.error?.code)) this.#photo.forget();
    this.#run.retry();
  };

  /** "Forget my photo": the previews go, the run clears storage and asks the proxy; the live region says how it went. */
  readonly #onForget = async () => {
    // Every photo this tab kept for the proxy is forgotten, so every preview of one goes too.
    this.#photo.forgetAll();
    this.#result.showFirstView();
    this.#compare.reset();
    const confirmed = await this.#run.forget();
    this.#announcer.say(this.#texts.t(confirmed ? 'forgotten' : 'forgetFailed'));
  };

  readonly #onAnotherPhoto = () => {
    this.#photo.forget();
    this.#result.showFirstView();
    this.#compare.reset();
    this.#run.anotherPhoto();
  };

  /**
   * A result, first look, colour preview or the photo beside the before/after did not load: the
   * shopper is told in words (the error step, `tryon-error` with code `image_failed`), never shown
   * "ready" over a blank picture. Behind a misconfigured reverse proxy that is what they would see.
   * While the shop's service is down it is that outage instead, and the pictures load when it is back.
   */
  readonly #onImageError = () => {
    void this.#run.imageFailed().then(() => {
      // The error step (focused as every new step is) replaces the colour previews too.
      if (this.#run.session.status === 'error') this.#colours.previews.open = false;
    });
  };

  // ── rendering ────────────────────────────────────────────────────────────────────────────

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (this.#focusStep && this.#dialog?.open) {
      this.#focusStep = false;
      this.renderRoot.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (this.#dialog?.open) this.#result.revealVideo();
  }

  readonly #browseModels = async () => {
    await this.#handoff.screens();
    this.#focusStep = true;
    this.#run.browseModels();
  };

  /** The panel's parts the steps read (panel-steps.ts), at this render. */
  #stepParts(texts: Texts): StepParts {
    return {
      texts,
      productName: this.#productName(),
      host: this.host,
      renderRoot: this.renderRoot as ShadowRoot,
      run: this.#run,
      photo: this.#photo,
      handoff: this.#handoff,
      colours: this.#colours,
      cart: this.#cart,
      result: this.#result,
      clock: this.#clock,
      compare: this.#compare,
      smallScreen: this.#smallScreen,
      consentChecked: this.consentChecked,
      checkConsent: (checked) => {
        this.consentChecked = checked;
      },
      focusStep: () => {
        this.#focusStep = true;
      },
      hide: () => this.hide(),
      browseModels: () => void this.#browseModels(),
      onForget: () => void this.#onForget(),
      onRetry: this.#onRetry,
      onAnotherPhoto: this.#onAnotherPhoto,
      onImageError: this.#onImageError,
    };
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
      ${renderStep(this.#stepParts(texts))}
      <p id="status" role="status" part="status" class="status body">${this.#announcer.line(this.#session)}</p>
    </dialog>`;
  }
}
