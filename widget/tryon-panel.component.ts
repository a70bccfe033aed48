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
import { PhotoChoice } from './photo-choice.js';
import type { TryonEventDetail, TryonEventName, TryonOutput } from './events.js';
import type { PanelHost, PanelReadyEvent, PanelStatusEvent } from './panel-host.js';
import { CONSENT_TEXT_ID, consentStep, consentText } from './steps/consent.js';
import { consentWords } from './consent-version.js';
import { photoStep } from './steps/photo.js';
import { firstLook, progressStep } from './steps/progress.js';
import { coloursStep } from './steps/colours.js';
import { ColourChoice } from './colour-choice.js';
import { resultStep } from './steps/result.js';
import type { ImageView } from './steps/result.js';
import { errorStep } from './steps/error.js';
import { PhoneHandoff } from './phone-handoff.js';
import { networkUrl } from './network-url.js';
import { SmallScreen } from './small-screen.js';
import { AddToCart } from './add-to-cart.js';

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
    selectedView: { state: true },
    fadeFrom: { state: true },
  };

  declare host: PanelHost;
  declare private consentChecked: boolean;
  declare private selectedView: string;
  /** The first look the full render just replaced, fading out over it; cleared by the next try-on or view. */
  declare private fadeFrom: string | undefined;
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
    needsFullBody: () => this.#run.product?.fullBody === true,
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
    resetView: () => {
      this.selectedView = '';
    },
  });
  #focusStep = false;
  /** A video has just arrived: it is scrolled into view once it is rendered. */
  #revealVideo = false;
  #textsBuilt: { strings: object; translation: object | undefined; texts: Texts } | undefined;

  constructor() {
    super();
    // The run's one channel back: every change, with the public events it reports.
    this.#run.subscribe((change) => this.#runChanged(change));
    this.consentChecked = false;
    this.selectedView = '';
    this.fadeFrom = undefined;
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
    if (event.type === 'uploaded') this.#photo.uploaded(event.photo.handle);
    if (event.type === 'use-last-photo') this.#photo.reused(event.photo.handle);
    // Another photo (or none): the colour previews made with the old one are not this shopper's now.
    this.#colours.sessionChanged(after);
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
    this.selectedView = '';
    this.#compare.reset();
    const confirmed = await this.#run.forget();
    this.#announcer.say(this.#texts.t(confirmed ? 'forgotten' : 'forgetFailed'));
  };

  readonly #onAnotherPhoto = () => {
    this.#photo.forget();
    this.selectedView = '';
    this.#compare.reset();
    this.#run.anotherPhoto();
  };

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

  /**
   * A result, first look, colour preview or the photo beside the before/after did not load: the
   * shopper is told in words (the error step, `tryon-error` with code `image_failed`), never shown
   * "ready" over a blank picture. Behind a misconfigured reverse proxy that is what they would see.
   */
  readonly #onImageError = () => {
    this.#colours.previews.open = false;
    this.#run.imageFailed();
    this.#focusStep = true;
  };

  // ── rendering ────────────────────────────────────────────────────────────────────────────

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
      before: this.#photo.before(photo?.handle),
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

  readonly #browseModels = async () => {
    await this.#handoff.screens();
    this.#focusStep = true;
    this.#run.browseModels();
  };

  /** "No photo? See it on a model" and, on a computer, "Use your phone": offered beside consent and the photo step. */
  #alternatives(texts: Texts): TemplateResult | typeof nothing {
    if (this.#handoff.phone) return nothing;
    const models = (this.#run.product?.models ?? []).length > 0;
    const phone = !this.#smallScreen.matches;
    if (!models && !phone) return nothing;
    return html`<div class="body actions alternatives" part="alternatives">
      ${models ? html`<button type="button" part="secondary-button" @click=${this.#browseModels}>${texts.t('seeOnModel')}</button>` : nothing}
      ${phone ? html`<button type="button" part="secondary-button" @click=${this.#handoff.start}>${texts.t('usePhone')}</button>` : nothing}
    </div>`;
  }

  #renderStep(texts: Texts): TemplateResult | typeof nothing {
    const session = this.#session;
    const photo = this.#photo;
    const productName = this.#productName();
    const alternatives = this.#handoff.loaded;
    if (this.#handoff.phone && (this.#handoff.phone.state === 'sent' || this.#handoff.phone.state === 'refused')) {
      // Loaded while the photo was sent (#sendToComputer); a moment's blank at worst.
      if (!alternatives) return nothing;
      return alternatives.phoneSentStep({ texts, problem: this.#handoff.phone.problem, onClose: () => this.hide() });
    }
    const handoff = this.#handoff.desk;
    if (handoff && alternatives && (session.status === 'consent' || session.status === 'photo')) {
      return alternatives.desktopHandoffStep({
        texts,
        qr: handoff.qr,
        code: handoff.code,
        left: alternatives.timeLeft(handoff.expiresAt ?? 0, Date.now()),
        state: handoff.state,
        problem: handoff.problem,
        onNewCode: this.#handoff.start,
        onBack: this.#handoff.close,
      });
    }
    if (session.status === 'photo' && session.browsingModels) {
      // Back to the grid after a reload of the panel's state: its chunk is asked for, and renders when in.
      if (!alternatives) {
        void this.#handoff.screens();
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
          preview: photo.prepared ? photo.preview : undefined,
          preparing: photo.preparing,
          dragging: photo.dragging,
          problem: photo.problem,
          hasLastPhoto: Boolean(lastPhoto(this.host.endpoint)),
          canForget: this.#run.hasPhotoToForget(),
          onForget: this.#onForget,
          onDragOver: photo.onDragOver,
          onDragLeave: photo.onDragLeave,
          onDrop: photo.onDrop,
          // The photo check gates both ways a photo leaves the device: to the try-on, and to the computer.
          onSubmit: () => {
            if (!photo.prepared || !photo.allowsSend) return;
            if (this.#handoff.phone) void this.#handoff.sendToComputer(photo.prepared.blob);
            else void this.#run.sendPhoto();
          },
          check:
            photo.check === 'loading'
              ? { view: nothing, allowsSend: false }
              : photo.check
                ? { view: photo.check.view(this.renderRoot as ShadowRoot), allowsSend: photo.check.allowsSend }
                : undefined,
          onPick: (camera) => this.renderRoot.querySelector<HTMLInputElement>(camera ? '#camera' : '#file')?.click(),
          onUseLastPhoto: () => this.#run.useLastPhoto(),
          onFile: photo.onFile,
          phone: this.#handoff.phone ? { sending: this.#handoff.phone.state === 'sending' } : undefined,
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
        return this.#colours.previews.open && session.complete
          ? coloursStep({
              texts,
              productName,
              tiles: this.#colours.previews.tiles,
              onUpgrade: this.#colours.upgrade,
              onBack: this.#colours.back,
              onImageError: this.#onImageError,
            })
          : resultStep({
              texts,
              productName,
              outputs: session.outputs,
              views: session.views,
              selectedView: this.selectedView,
              before: this.#photo.before(session.photo?.handle),
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
              colourOffer: this.#colours.offer(texts),
              onTryColour: this.#colours.tryChosen,
              cart: session.complete ? this.#cart.forResult() : undefined,
              fadeFrom: this.fadeFrom,
              offerColours: this.#colours.offersAll(),
              onSeeColours: this.#colours.seeAll,
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
