// The one script a shop's page loads: the button alone. The panel comes later, on demand.
import { TryonButton } from './tryon-button.component.js';
import { define } from './tryon-button.define.js';

export { TryonButton, define };
export type * from './core/events.js';
export type { Strings } from './i18n/en.js';

define();

declare global {
  interface HTMLElementTagNameMap {
    'tryon-button': TryonButton;
  }
}
