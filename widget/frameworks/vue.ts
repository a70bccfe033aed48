// `<tryon-button>` in Vue templates, for vue-tsc: its attributes, properties and `@tryon-*` events
// typed, following Vue's guide for custom elements. A type-only entry (`tryon-button/vue`); import
// it once from any file of the app:
//   import type {} from 'tryon-button/vue';
// Vue must also be told the tag is a custom element (compilerOptions.isCustomElement; see
// docs/integrations/frameworks.md), or it looks for a Vue component of that name at run time.
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { TryonButton } from '../tryon-button.component.js';
import type { TryonEventMap } from '../core/events.js';
import type { TryonButtonAttributes, TryonButtonProperties } from './tryon-button-attributes.js';

/** `<tryon-button>` as vue-tsc sees it: a component whose props are the element's, emitting its events. */
export type TryonButtonVueElement = new () => TryonButton & {
  /** @deprecated For template type-checking only; a ref to the element has no `$props`. */
  $props: HTMLAttributes & TryonButtonAttributes & TryonButtonProperties & PublicProps;
  /** @deprecated For template type-checking only; the element dispatches DOM events. */
  $emit: EmitFn<{ [K in keyof TryonEventMap]: (event: TryonEventMap[K]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    'tryon-button': TryonButtonVueElement;
  }
}
