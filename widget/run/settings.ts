// What a run reads from its element and asks of it (questions only: everything the run says goes
// out as changes, flow.ts), one run's signal and stage, and the requestId every try-on is sent with.
import type { FailedStage } from './session.js';

export function newRequestId(): string {
  // randomUUID exists only in secure contexts; a shop page on plain http still needs an id.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** What the run reads from its element, afresh each time (the shop may change it at any moment). */
export interface RunSettings {
  endpoint: string;
  product: string;
  /** Comma-separated views the shop asked for; empty for every view the product offers. */
  views: string;
  /** The variant (colour) chosen on the page; empty for the product's own garment. */
  variant: string;
  pollInterval: number;
}

/** What the run asks of its element: questions only; everything it says goes out as changes. */
export interface RunOptions {
  settings(): RunSettings;
  /** The prepared photo to upload, when the shopper chose one. */
  chosenPhoto(): Blob | undefined;
  /** The shopper's words for an error code. */
  errorMessage(code: string): string;
}

/** One run: its signal, and the stage it is at (which decides what "Try again" repeats). */
export interface Run {
  signal: AbortSignal;
  stage: FailedStage;
}
