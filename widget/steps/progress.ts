// The progress step, while uploading, queued and rendering: a bar or a spinner, the time so far
// against the time expected, and "Cancel". The words of the moment are in the dialog's live region.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Texts } from '../texts.js';

export interface ProgressStep {
  texts: Texts;
  productName: string;
  uploading: boolean;
  percent: number;
  /** Seconds since the try-on was submitted; undefined before it is. */
  elapsedSeconds: number | undefined;
  expectedSeconds: number;
  /** The shop's try-on service is not answering: no spinner or clock pretends it is working (the live region says why). */
  notAnswering: boolean;
  onCancel(): void;
}

export function progressStep(step: ProgressStep): TemplateResult {
  const { texts } = step;
  return html`<div part="progress" class="body">
    <h3 id="step-title" tabindex="-1" data-autofocus>${texts.t('progressTitle', { product: step.productName })}</h3>
    ${step.uploading
      ? html`<progress max="100" .value=${step.percent} aria-labelledby="status"></progress>`
      : step.notAnswering
      ? nothing
      : html`<div class="spinner" aria-hidden="true"></div>
        ${step.elapsedSeconds !== undefined
          ? html`<p class="muted">${texts.t('timing', { elapsed: texts.seconds(step.elapsedSeconds), expected: texts.seconds(step.expectedSeconds) })}</p>`
          : nothing}`}
    <div class="actions" part="actions">
      <button type="button" part="secondary-button" @click=${step.onCancel}>${texts.t('cancel')}</button>
    </div>
  </div>`;
}
