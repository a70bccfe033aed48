// The dialog's module, imported by <tryon-button> on first interaction (or prefetched).
import { TryonPanel } from './tryon-panel.component.js';

export { TryonPanel };

if (!customElements.get('tryon-panel')) customElements.define('tryon-panel', TryonPanel);

declare global {
  interface HTMLElementTagNameMap {
    'tryon-panel': TryonPanel;
  }
}
