// What a run reads from the dialog it serves (questions only: everything the run says goes out as
// changes, tryon-run.ts), one run's signal and stage, and the requestId every try-on is sent with.
import type { ReactiveControllerHost } from 'lit';
import type { FailedStage } from './session.js';
import type { PanelHost } from '../core/panel-host.js';

export function newRequestId(): string {
  // randomUUID exists only in secure contexts; a shop page on plain http still needs an id.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * What the run reads of the dialog it serves: the dialog itself (it asks it to render again), the
 * element's settings, read afresh each time (the shop may change them at any moment), and the
 * shopper's words for an error code.
 */
export interface RunContext {
  readonly panel: ReactiveControllerHost;
  readonly host: Pick<PanelHost, 'endpoint' | 'product' | 'views' | 'variant' | 'pollInterval'>;
  readonly texts: { errorMessage(code: string): string };
}

/** One run: its signal, and the stage it is at (which decides what "Try again" repeats). */
export interface Run {
  signal: AbortSignal;
  stage: FailedStage;
}
