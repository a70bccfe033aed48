// `<tryon-button>` in React 19's JSX: its attributes and its `ontryon-*` event props, typed.
// A type-only entry (`tryon-button/jsx`); import it once from any file of the app:
//   import type {} from 'tryon-button/jsx';
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { TryonButton } from '../tryon-button.component.js';
import type { TryonButtonAttributes, TryonButtonEventProps, TryonButtonProperties } from './tryon-button-attributes.js';

/** Everything `<tryon-button …>` accepts in React 19 JSX. */
export type TryonButtonJsxProps = DetailedHTMLProps<HTMLAttributes<TryonButton>, TryonButton> &
  TryonButtonAttributes &
  TryonButtonProperties &
  TryonButtonEventProps;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'tryon-button': TryonButtonJsxProps;
    }
  }
}
