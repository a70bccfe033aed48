import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Re-renders its host every second while running, for the elapsed-time display. */
export class ClockController implements ReactiveController {
  #timer: ReturnType<typeof setInterval> | undefined;
  now = Date.now();

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

  hostDisconnected(): void {
    this.running = false;
  }
}
