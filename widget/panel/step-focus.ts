// Focus on each new step, as a controller of the dialog: once asked (a new step, a step that changed
// what it shows), the next render with the dialog open moves focus to the step's first control (the
// one marked data-autofocus). Registered last, so it runs after every other controller's update.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class StepFocus implements ReactiveController {
  #asked = false;
  readonly #host: ReactiveControllerHost & { readonly renderRoot: HTMLElement | DocumentFragment };

  constructor(host: ReactiveControllerHost & { readonly renderRoot: HTMLElement | DocumentFragment }) {
    this.#host = host;
    host.addController(this);
  }

  /** Focus moves after the next render (which the asker brings about). */
  ask(): void {
    this.#asked = true;
  }

  hostUpdated(): void {
    const root = this.#host.renderRoot;
    if (!this.#asked || !root.querySelector('dialog')?.open) return;
    this.#asked = false;
    root.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }
}
