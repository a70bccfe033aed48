import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Below this width the dialog is a bottom sheet (docs/widget.md, CSS parts: dialog). */
export const SHEET_QUERY = '(max-width: 600px)';

/**
 * Whether the screen is small enough for the bottom sheet, kept up to date as the window
 * narrows or widens (a phone turned, a window resized). The panel marks its dialog with it
 * instead of leaving the choice to a media rule in its shadow root's stylesheet: WebKit keeps
 * such a rule as it first evaluated it, so a resized window kept the wrong shape there.
 */
export class SmallScreen implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #query = matchMedia(SHEET_QUERY);
  readonly #onChange = () => this.#host.requestUpdate();

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  get matches(): boolean {
    return this.#query.matches;
  }

  hostConnected(): void {
    this.#query.addEventListener('change', this.#onChange);
  }

  hostDisconnected(): void {
    this.#query.removeEventListener('change', this.#onChange);
  }
}
