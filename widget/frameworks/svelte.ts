// `<tryon-button>` in Svelte 5 markup, for svelte-check: its attributes, properties and
// `ontryon-*` event attributes typed. A type-only entry (`tryon-button/svelte`); import it once,
// e.g. in src/app.d.ts:
//   import type {} from 'tryon-button/svelte';
import type { HTMLAttributes } from 'svelte/elements';
import type { TryonButton } from '../tryon-button.component.js';
import type { TryonButtonAttributes, TryonButtonEventProps, TryonButtonProperties } from './tryon-button-attributes.js';

/** Everything `<tryon-button …>` accepts in Svelte markup. */
export type TryonButtonSvelteAttributes = HTMLAttributes<TryonButton> &
  TryonButtonAttributes &
  TryonButtonProperties &
  TryonButtonEventProps;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'tryon-button': TryonButtonSvelteAttributes;
  }
}
