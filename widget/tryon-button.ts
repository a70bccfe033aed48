// The one script a shop's page loads: the button alone. The panel comes later, on demand.
import { TryonButton } from './tryon-button.component.js';

export { TryonButton };
export type * from './events.js';
export type { Strings } from './i18n/en.js';

/**
 * Registers <tryon-button>. Registering twice (a theme block and a script tag on one page) is
 * harmless: the first definition wins and later calls do nothing.
 */
export function define(name = 'tryon-button'): void {
  if (!customElements.get(name))
    customElements.define(name, name === 'tryon-button' ? TryonButton : class extends TryonButton {});
}

define();

declare global {
  interface HTMLElementTagNameMap {
    'tryon-button': TryonButton;
  }
}
