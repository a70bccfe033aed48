// Registering <tryon-button>, apart from the module that does it on import, so the script-tag
// build can evaluate the element's code in one task and register it in the next.
import { TryonButton } from './tryon-button.component.js';

/**
 * Registers <tryon-button>. Registering twice (a theme block and a script tag on one page) is
 * harmless: the first definition wins and later calls do nothing.
 */
export function define(name = 'tryon-button'): void {
  if (!customElements.get(name))
    customElements.define(name, name === 'tryon-button' ? TryonButton : class extends TryonButton {});
}
