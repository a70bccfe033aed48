// "Use your phone", as a controller created once with the panel. On a computer: a code from the
// proxy, its QR code, the time left, and a watch until the phone's photo arrives (then tried on at
// once). On the phone, opened from that QR code: the photo goes to the computer's hand-off with the
// consent given here. Their screens, the QR code library and the computer's side of the hand-off
// (handoff-flow.ts) are a chunk of their own (alternatives.ts), loaded here once for the models'
// screen too: the dialog carries only this controller's state.
import { adoptStyles } from 'lit';
import type { CSSResult, ReactiveController } from 'lit';
import { handoffCodeInPage, removeHandoffFragment } from './handoff-fragment.js';
import type { Desk, HandoffContext, Phone, RunningDesk } from './handoff-flow.js';

export class PhoneHandoff implements ReactiveController {
  #desk: Desk | undefined;
  #phone: Phone | undefined;
  /** The computer's hand-off under way: its watch, countdown and the number typed. */
  #running: RunningDesk | undefined;
  /** The models' and hand-off's screens, once loaded. */
  loaded: typeof import('./alternatives.js') | undefined;
  #screensLoad: Promise<typeof import('./alternatives.js')> | undefined;
  readonly #context: HandoffContext;

  constructor(context: HandoffContext) {
    this.#context = context;
    context.panel.addController(this);
  }

  /** The computer's hand-off on screen ("Use your phone"), while it is. */
  get desk(): Desk | undefined {
    return this.#desk;
  }
  set desk(desk: Desk | undefined) {
    this.#desk = desk;
    this.#context.panel.requestUpdate();
  }

  /** Opened on a phone from a hand-off's QR code: the code, and how sending the photo went. */
  get phone(): Phone | undefined {
    return this.#phone;
  }
  set phone(phone: Phone | undefined) {
    this.#phone = phone;
    this.#context.panel.requestUpdate();
  }

  hostDisconnected(): void {
    this.end();
  }

  /** Opened from a hand-off's QR code: this is the phone. The code leaves the address bar at once. */
  openedOnPhone(): void {
    const code = handoffCodeInPage();
    if (!code) return;
    removeHandoffFragment();
    this.phone = { code, state: 'ready', problem: '' };
  }

  /**
   * The screens' chunk did not load (offline, a file missing on the shop's server): said beside the
   * buttons that need it, and the next press loads it again.
   */
  notLoaded = false;

  /** Loads the models' and hand-off's screens (once), then renders again. Rejects when they cannot be loaded. */
  screens(): Promise<typeof import('./alternatives.js')> {
    this.#screensLoad ??= import('./alternatives.js').then(
      (module) => {
        addStyles(this.#context.root, module.alternativesStyles);
        this.loaded = module;
        this.notLoaded = false;
        this.#context.panel.requestUpdate();
        return module;
      },
      (error: unknown) => {
        // A failed chunk load must not poison every later press.
        this.#screensLoad = undefined;
        this.notLoaded = true;
        console.warn('<tryon-button>: "See it on a model" and "Use your phone" could not be loaded.', error);
        this.#context.panel.requestUpdate();
        throw error;
      },
    );
    return this.#screensLoad;
  }

  /** The screens, or undefined when they could not be loaded (then `notLoaded` says so on screen). */
  async #screensOrSaid(): Promise<typeof import('./alternatives.js') | undefined> {
    try {
      return await this.screens();
    } catch {
      return undefined;
    }
  }

  /** "Use your phone": asks the proxy for a code, draws its QR code, counts down and waits for the photo. */
  readonly start = async () => {
    const screens = await this.#screensOrSaid();
    if (!screens) return;
    this.end();
    this.#running = screens.startDesk(this, this.#context);
  };

  /** On the computer: the number the phone shows, as typed; the photo comes only for the right one. */
  readonly confirm = (typed: string) => {
    void this.#running?.confirm(typed);
  };

  /** Stops waiting for a hand-off (back, a new code, the panel gone). */
  end(): void {
    this.#running?.end();
    this.#running = undefined;
  }

  readonly close = () => {
    this.end();
    this.desk = undefined;
    this.#context.focusStep();
  };

  /** On the phone: the photo goes to the computer's hand-off, with the consent given here. */
  readonly sendToComputer = async (blob: Blob | undefined) => {
    const phone = this.phone;
    if (!phone || !blob || phone.state === 'sending') return;
    this.phone = { ...phone, state: 'sending' };
    const screens = await this.#screensOrSaid();
    // Not sent: "Send to my computer" comes back beside the words saying why.
    if (!screens) this.phone = { ...phone, state: 'ready' };
    else await screens.sendFromPhone(this, this.#context, phone, blob);
  };
}

/**
 * Adds the screens' styles to the dialog's shadow root after its own, the way Lit adopts the
 * dialog's: a constructed sheet, or a <style> element (with Lit's nonce) where the browser has none.
 */
function addStyles(root: ShadowRoot, styles: CSSResult): void {
  // Without constructed sheets there is nothing adopted to keep: the <style> goes beside the dialog's.
  adoptStyles(root, [...((root.adoptedStyleSheets as CSSStyleSheet[] | undefined) ?? []), styles]);
}
