// The dialog's context: its parts, built once with it, and what they read of it. Each part is given
// this one object and takes what it needs (its own interface says what: RunContext,
// PhotoChoiceContext, ...), so no part asks the panel through closures of its own and no answer
// travels part → panel → part. It also holds what the steps do that spans several parts (forget,
// retry, another photo, a picture that did not load, the first look painted) and the consent box's
// state. The parts are made in the order they must hear the dialog's updates: focus last.
import type { ReactiveControllerHost } from 'lit';
import { TryonRun } from '../run/tryon-run.js';
import { firstLookToTell } from '../run/session.js';
import type { SessionState } from '../run/session.js';
import { photoRefused } from '../run/error-policy.js';
import { ClockController } from './clock.js';
import { CompareController } from '../result/compare.js';
import { AccentTextController } from './accent-text.js';
import { FocusTrapController } from './focus-trap.js';
import { ResultView } from '../result/view.js';
import { Texts } from '../i18n/words/texts.js';
import { MIN_SHORT_SIDE } from '../photo/photo.js';
import { tryonEvent, tryonSubject } from '../core/events.js';
import type { TryonEventDetail, TryonEventName } from '../core/events.js';
import { Conversions } from '../analytics/analytics.js';
import { markCartAgain } from '../analytics/measurement.js';
import { Announcer } from './announcer.js';
import { PhotoChoice } from '../photo/photo-choice.js';
import type { PanelHost } from '../core/panel-host.js';
import type { DialogContext } from '../core/dialog-context.js';
import { ColourChoice } from '../colours/colour-choice.js';
import { PhoneHandoff } from '../alternatives/phone-handoff.js';
import { SmallScreen } from './small-screen.js';
import { AddToCart } from '../cart/add-to-cart.js';
import { Outfit } from '../outfit/outfit.js';
import { StepFocus } from './step-focus.js';

/** What the context needs of the dialog element (<tryon-panel>). */
export interface Dialog extends ReactiveControllerHost, HTMLElement {
  readonly host: PanelHost;
  readonly renderRoot: HTMLElement | DocumentFragment;
  hide(): void;
}

/** No texts overridden by the shop: one object, so the texts built from it are kept. */
const noOverrides = {};

export class PanelContext implements DialogContext {
  readonly panel: Dialog;
  readonly clock: ClockController;
  readonly compare: CompareController;
  readonly smallScreen: SmallScreen;
  readonly run: TryonRun;
  /** The photo the shopper chose, its thumbnail and its check. */
  readonly photo: PhotoChoice;
  /** "Use your phone", on the computer and on the phone. */
  readonly handoff: PhoneHandoff;
  /** "Add to cart" on the result. */
  readonly cart: AddToCart;
  /** The result on screen: its view, the first look's crossfade, the video's reveal, Download and Share. */
  readonly result: ResultView;
  /** The live region's words: it follows the session and the shopper's actions. */
  readonly announcer: Announcer;
  readonly conversions: Conversions;
  /** The cart's marks again at "Add to cart", on a page running the experiment. */
  readonly cartMarks = (platform: 'shopify' | 'woocommerce') => markCartAgain(this.host, platform);
  /** "Try this colour" and "See all colours". */
  readonly colours: ColourChoice;
  /** "Complete the look": pieces rendered over the result, and the outfit they make. */
  readonly outfit: Outfit;
  readonly #focus: StepFocus;
  /** The consent box is ticked. */
  consentChecked = false;
  /** The try-on whose first look was told with `tryon-preview` (once each). */
  #firstLookTold: string | undefined;
  #textsBuilt: { strings: object; translation: object | undefined; texts: Texts } | undefined;

  constructor(panel: Dialog) {
    this.panel = panel;
    this.clock = new ClockController(panel);
    this.compare = new CompareController(panel, () => this.root.querySelector<HTMLElement>('.compare'));
    // The primary buttons' text colour, readable on whatever accent the shop set, and Tab kept inside
    // the dialog: each registers itself with the dialog and needs no further call.
    new AccentTextController(panel, () => this.#dialog);
    new FocusTrapController(panel, () => this.#dialog);
    this.smallScreen = new SmallScreen(panel);
    this.run = new TryonRun(this);
    this.photo = new PhotoChoice(this);
    this.handoff = new PhoneHandoff(this);
    this.cart = new AddToCart(this);
    this.result = new ResultView(this);
    this.announcer = new Announcer(this);
    this.conversions = new Conversions(this);
    this.colours = new ColourChoice(this);
    this.outfit = new Outfit(this);
    this.#focus = new StepFocus(panel);
  }

  get host(): PanelHost {
    return this.panel.host;
  }

  get root(): ShadowRoot {
    return this.panel.renderRoot as ShadowRoot;
  }

  get #dialog(): HTMLDialogElement | null {
    return this.root.querySelector('dialog');
  }

  get dialogOpen(): boolean {
    return Boolean(this.#dialog?.open);
  }

  /** The texts, built again only when the shop's overrides or the language's dictionary change. */
  get texts(): Texts {
    const strings = this.host?.strings ?? noOverrides;
    const translation = this.host?.translation;
    const built = this.#textsBuilt;
    if (built?.strings === strings && built.translation === translation) return built.texts;
    const texts = new Texts(strings, translation, { minSide: MIN_SHORT_SIDE });
    this.#textsBuilt = { strings, translation, texts };
    return texts;
  }

  get productName(): string {
    return this.run.product?.name || this.host.product;
  }

  announce(text: string): void {
    this.announcer.say(text);
  }

  focusStep(): void {
    this.#focus.ask();
  }

  emit<K extends TryonEventName>(name: K, detail: TryonEventDetail<K>): void {
    this.host.dispatchEvent(tryonEvent(name, detail));
    this.conversions.record(name, detail);
  }

  // ── what the steps do that spans several parts ──────────────────────────────────────────────

  readonly checkConsent = (checked: boolean) => {
    this.consentChecked = checked;
    this.panel.requestUpdate();
  };

  readonly retry = () => {
    // The proxy refused this photo: offering to send it again would be a dead end.
    if (photoRefused(this.run.session.error?.code)) this.photo.forget();
    this.run.retry(this.photo.prepared?.blob);
  };

  /** "Forget my photo": the thumbnails go, the run clears storage and asks the proxy; the live region says how it went. */
  readonly forget = async () => {
    // Every photo this tab kept for the proxy is forgotten, so every thumbnail of one goes too.
    this.photo.forgetAll();
    this.result.showFirstView();
    this.compare.reset();
    const confirmed = await this.run.forget();
    this.announce(this.texts.t(confirmed ? 'forgotten' : 'forgetFailed'));
  };

  readonly anotherPhoto = () => {
    this.photo.forget();
    this.result.showFirstView();
    this.compare.reset();
    this.run.anotherPhoto();
  };

  /**
   * A result, first look, colour draft or the photo beside the before/after did not load: the
   * shopper is told in words (the error step, `tryon-error` with code `image_failed`), never shown
   * "ready" over a blank picture. Behind a misconfigured reverse proxy that is what they would see.
   * While the shop's service is down it is that outage instead, and the pictures load when it is back.
   */
  readonly imageFailed = () => {
    void this.run.imageFailed().then(() => {
      // The error step (focused as every new step is) replaces the colour drafts too.
      if (this.run.session.status === 'error') this.colours.drafts.open = false;
    });
  };

  readonly browseModels = async () => {
    try {
      await this.handoff.screens();
    } catch {
      return; // said beside the buttons (handoff.notLoaded)
    }
    this.focusStep();
    this.run.browseModels();
  };

  /**
   * The try-on being made (queued or rendering, the service answering) has taken more than twice
   * the time the proxy says it usually takes: the progress step says so, and the live region once.
   */
  longerThanUsual(session: SessionState = this.run.session): boolean {
    const { status, tryon, submittedAt, notAnswering } = session;
    if (!tryon || notAnswering || (status !== 'queued' && status !== 'rendering')) return false;
    return this.clock.longerThanUsual(submittedAt, this.run.expectedMs());
  }

  /** "Keep waiting": the note goes, the render goes on, and focus stays in the step (on "Cancel"). */
  readonly keepWaiting = () => {
    const tryon = this.run.session.tryon;
    if (!tryon) return;
    this.clock.keepWaiting(tryon);
    void this.panel.updateComplete.then(() => this.root.querySelector<HTMLElement>('[data-cancel]')?.focus());
  };

  /** The first look's image is painted: `tryon-preview` tells the page how long it took from the submit, once per try-on. */
  readonly firstLookPainted = () => {
    const session = this.run.session;
    const { tryon, submittedAt, variant } = session;
    if (!tryon || this.#firstLookTold === tryon || !firstLookToTell(session)) return;
    this.#firstLookTold = tryon;
    const ms = submittedAt ? Math.max(0, Date.now() - submittedAt) : 0;
    this.emit('tryon-preview', { ...tryonSubject(this.host.product, variant), tryon, ms });
  };
}
