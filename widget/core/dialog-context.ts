// What every part of the dialog reads of it: one context, built once by the panel
// (panel/panel-context.ts) and handed to each of its parts, which take from it what they need
// instead of asking the panel through closures of their own. Types only, here below the parts so
// each may name it; what a part needs besides (the run, the photo, the colours) its own interface
// adds, in its own folder.
import type { ReactiveControllerHost } from 'lit';
import type { Texts } from '../i18n/words/texts.js';
import type { TryonEventDetail, TryonEventName } from './events.js';
import type { PanelHost } from './panel-host.js';

export interface DialogContext {
  /** The dialog element: its parts are its controllers, and it renders again when asked. */
  readonly panel: ReactiveControllerHost;
  /** Where the dialog is drawn (its shadow root): the steps' controls, a download's link. */
  readonly root: ShadowRoot;
  /** The element the dialog belongs to, its settings read afresh. */
  readonly host: PanelHost;
  /** The texts in the element's language now. */
  readonly texts: Texts;
  /** The product's name as the shopper reads it. */
  readonly productName: string;
  /** Puts `text` in the dialog's one live region ('' empties it). */
  announce(text: string): void;
  /** The step changed what it shows: after the next render, focus goes to its first control. */
  focusStep(): void;
  /** Dispatches a public event on the element, and hands it to the conversion events. */
  emit<K extends TryonEventName>(name: K, detail: TryonEventDetail<K>): void;
}
