// Keeps Tab and Shift+Tab cycling inside the modal dialog instead of escaping to the browser's
// own controls (showModal() makes the page inert, but not the browser chrome), in the manner of
// Shoelace's Modal: one small unit that listens to its host's keys while the host is connected.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

const tabbable =
  'button:not([disabled]), a[href], input:not([tabindex="-1"]):not([disabled]), video[controls], [tabindex="0"]';

export class FocusTrapController implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #container: () => HTMLElement | null;

  constructor(
    host: ReactiveControllerHost & HTMLElement,
    /** The element focus stays inside, in the host's shadow root. */
    container: () => HTMLElement | null,
  ) {
    this.#host = host;
    this.#container = container;
    host.addController(this);
  }

  hostConnected(): void {
    this.#host.addEventListener('keydown', this.#onKeydown);
  }

  hostDisconnected(): void {
    this.#host.removeEventListener('keydown', this.#onKeydown);
  }

  readonly #onKeydown = (event: KeyboardEvent): void => {
    const container = this.#container();
    if (event.key !== 'Tab' || !container) return;
    const focusable = [...container.querySelectorAll<HTMLElement>(tabbable)].filter(
      (el) => el.getClientRects().length > 0,
    );
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    const active = this.#host.shadowRoot?.activeElement;
    if (event.shiftKey && (active === first || !active)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !active)) {
      event.preventDefault();
      first.focus();
    }
  };
}
