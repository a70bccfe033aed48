import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { LONGER_THAN_USUAL } from '../run/product.js';

/**
 * Re-renders its host every second while running, for the elapsed-time display, and tells when a
 * try-on has taken longer than usual: the progress step's note, until the shopper keeps waiting.
 */
export class ClockController implements ReactiveController {
  #timer: ReturnType<typeof setInterval> | undefined;
  now = Date.now();
  /** The try-on whose "longer than usual" note the shopper put away with "Keep waiting". */
  #keptWaiting: string | undefined;

  readonly #host: ReactiveControllerHost;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  set running(on: boolean) {
    if (on && this.#timer === undefined) {
      this.now = Date.now();
      this.#timer = setInterval(() => {
        this.now = Date.now();
        this.#host.requestUpdate();
      }, 1000);
    } else if (!on && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /** Whether a try-on submitted at `submittedAt` has taken twice the `usualMs` it usually takes, or longer. */
  longerThanUsual(submittedAt: number | undefined, usualMs: number): boolean {
    return submittedAt !== undefined && this.now - submittedAt >= LONGER_THAN_USUAL * usualMs;
  }

  /** "Keep waiting": this try-on's note is put away (the render goes on, and the clock with it). */
  keepWaiting(tryon: string): void {
    this.#keptWaiting = tryon;
    this.#host.requestUpdate();
  }

  /** Whether the shopper chose to keep waiting for this try-on. */
  keptWaiting(tryon: string): boolean {
    return this.#keptWaiting === tryon;
  }

  hostDisconnected(): void {
    this.running = false;
  }
}
