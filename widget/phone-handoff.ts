// "Use your phone", as a controller created once with the panel. On a computer: a code from the
// proxy, its QR code, the time left, and a watch until the phone's photo arrives (then tried on at
// once). On the phone, opened from that QR code: the photo goes to the computer's hand-off with the
// consent given here. Their screens and the QR code library are a chunk of their own
// (alternatives.ts), loaded here once for the models' screen too.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ProxyCallError } from './proxy-client.js';
import type { ProxyClient } from './proxy-client.js';
import { handoffCodeInPage, removeHandoffFragment } from './handoff-fragment.js';
import type { Texts } from './texts.js';

/**
 * Until when the desktop counts on a photo given by a hand-off: the hand-off answer does not say
 * when the photo's handle ends, so the code's own end is taken (a photo outlives its code by the
 * proxy's photo lifetime, an hour by default); past it, "Try this colour" asks for a photo again.
 */
const handoffPhotoExpiry = (codeExpiresAt: number): string => new Date(codeExpiresAt).toISOString();

/** The computer's hand-off on screen. */
export interface Desk {
  state: 'starting' | 'waiting' | 'expired' | 'failed';
  code?: string;
  expiresAt?: number;
  qr?: string;
  problem: string;
}

/** On the phone: the code, and how sending the photo went. */
export interface Phone {
  code: string;
  state: 'ready' | 'sending' | 'sent' | 'refused';
  problem: string;
}

/** What the hand-off asks of the panel. */
export interface PhoneHandoffOptions {
  client(): ProxyClient;
  /** The product's id as the proxy knows it, and the variant chosen on the page. */
  product(): string;
  variant(): string | undefined;
  texts(): Texts;
  /** The phone's photo arrived: tried on at once (`expiresAt`: until when its handle is counted on). */
  received(photo: string, expiresAt: string): void;
  /** On the phone: uploads the photo to the computer's hand-off `code`. */
  send(code: string, photo: Blob): Promise<void>;
  /** The step changed what it shows: focus goes to its first control. */
  focusStep(): void;
}

export class PhoneHandoff implements ReactiveController {
  #desk: Desk | undefined;
  #phone: Phone | undefined;
  #watch: AbortController | undefined;
  #tick: ReturnType<typeof setInterval> | undefined;
  /** The models' and hand-off's screens, once loaded. */
  loaded: typeof import('./alternatives.js') | undefined;
  #screensLoad: Promise<typeof import('./alternatives.js')> | undefined;
  readonly #host: ReactiveControllerHost;
  readonly #options: PhoneHandoffOptions;

  constructor(host: ReactiveControllerHost, options: PhoneHandoffOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** The computer's hand-off on screen ("Use your phone"), while it is. */
  get desk(): Desk | undefined {
    return this.#desk;
  }
  set desk(desk: Desk | undefined) {
    this.#desk = desk;
    this.#host.requestUpdate();
  }

  /** Opened on a phone from a hand-off's QR code: the code, and how sending the photo went. */
  get phone(): Phone | undefined {
    return this.#phone;
  }
  set phone(phone: Phone | undefined) {
    this.#phone = phone;
    this.#host.requestUpdate();
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

  /** Loads the models' and hand-off's screens (once), then renders again. */
  screens(): Promise<typeof import('./alternatives.js')> {
    this.#screensLoad ??= import('./alternatives.js').then((module) => {
      this.loaded = module;
      this.#host.requestUpdate();
      return module;
    });
    return this.#screensLoad;
  }

  /** "Use your phone": asks the proxy for a code, draws its QR code, counts down and waits for the photo. */
  readonly start = async () => {
    const { phoneAddress, qrCode, spacedCode } = await this.screens();
    this.end();
    const watch = new AbortController();
    this.#watch = watch;
    this.desk = { state: 'starting', problem: '' };
    this.#options.focusStep();
    const client = this.#options.client();
    try {
      const started = await client.startHandoff(
        this.#options.product(),
        this.#options.variant() || undefined,
        watch.signal,
      );
      const expiresAt = Date.parse(started.expiresAt);
      this.desk = { state: 'waiting', code: spacedCode(started.code), expiresAt, problem: '' };
      this.#tick = setInterval(() => {
        if (this.desk?.state === 'waiting' && Date.now() >= (this.desk.expiresAt ?? 0))
          this.desk = { ...this.desk, state: 'expired' };
        this.#host.requestUpdate();
      }, 1000);
      void qrCode(phoneAddress(started.code))
        .then((qr) => {
          if (this.#watch === watch && this.desk) this.desk = { ...this.desk, qr };
        })
        .catch(() => {
          // Without its QR code the code in letters still works: said, not hidden.
          if (this.#watch === watch && this.desk)
            this.desk = { ...this.desk, problem: this.#options.texts().t('error_generic') };
        });
      const final = await client.watchHandoff(started.handoff, () => undefined, watch.signal);
      if (this.#watch !== watch) return;
      if (final.status === 'received' && final.photo) {
        this.end();
        this.desk = undefined;
        this.#options.received(final.photo, handoffPhotoExpiry(expiresAt));
      } else {
        this.#stopTimers();
        this.desk = { ...this.desk!, state: 'expired' };
        this.#options.focusStep();
      }
    } catch (error) {
      if (watch.signal.aborted) return;
      this.#stopTimers();
      this.desk = {
        state: 'failed',
        problem: this.#options.texts().errorMessage(error instanceof ProxyCallError ? error.code : 'generic'),
      };
      this.#options.focusStep();
    }
  };

  #stopTimers(): void {
    clearInterval(this.#tick);
    this.#tick = undefined;
  }

  /** Stops waiting for a hand-off (back, a new code, the panel gone). */
  end(): void {
    this.#watch?.abort();
    this.#watch = undefined;
    this.#stopTimers();
  }

  readonly close = () => {
    this.end();
    this.desk = undefined;
    this.#options.focusStep();
  };

  /** On the phone: the photo goes to the computer's hand-off, with the consent given here. */
  readonly sendToComputer = async (blob: Blob | undefined) => {
    const phone = this.phone;
    if (!phone || !blob || phone.state === 'sending') return;
    this.phone = { ...phone, state: 'sending' };
    void this.screens();
    try {
      await this.#options.send(phone.code, blob);
      this.phone = { ...phone, state: 'sent', problem: '' };
    } catch (error) {
      this.phone = {
        ...phone,
        state: 'refused',
        problem: this.#options.texts().errorMessage(error instanceof ProxyCallError ? error.code : 'generic'),
      };
    }
    this.#options.focusStep();
  };
}
