// The progress step, while uploading, queued and rendering: a bar or a spinner, the time so far
// against the time it usually takes (the proxy's figure), and "Cancel"; past twice that, a note
// that it is taking longer than usual with "Keep waiting" beside "Cancel". The words of the
// moment are in the dialog's live region.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Texts } from '../i18n/words/texts.js';
import type { TryonOutput } from '../core/events.js';
import { image } from '../result/result-step.js';
import type { ImageView } from '../result/result-step.js';

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
  /** Past twice the usual time, until the shopper keeps waiting: the note, and "Keep waiting" that puts it away. */
  longerThanUsual?: { onKeepWaiting(): void } | undefined;
  /**
   * The first look, once its draft succeeded: shown marked as a quick preview, with the compare on
   * it and the time the full render still needs. No Download or Share here: only the full render is.
   */
  firstLook?: { output: TryonOutput; view: ImageView; onLoad(): void } | undefined;
  /** Under the first look: what the proxy's check says while a view that differed is made again (result/fidelity-note.ts). */
  fidelityNote?: unknown;
}

/** The first look, marked as such; `note` (the full render's time so far and expected) below it. */
export function firstLook(
  texts: Texts,
  look: NonNullable<ProgressStep['firstLook']>,
  note: unknown = nothing,
): TemplateResult {
  return html`<div class="first-look" part="first-look"><p class="first-look-badge" part="first-look-badge">${texts.t('previewBadge')}</p>
    ${image(look.view, look.output, texts.t('previewImageAlt', { product: look.view.productName }), look.onLoad)}${note}</div>`;
}

/** The full render's time so far against the time expected, once it was submitted. */
function timing(step: ProgressStep): unknown {
  const { texts, elapsedSeconds } = step;
  return elapsedSeconds === undefined
    ? nothing
    : html`<p class="muted">${texts.t('timing', { elapsed: texts.seconds(elapsedSeconds), expected: texts.seconds(step.expectedSeconds) })}</p>`;
}

export function progressStep(step: ProgressStep): TemplateResult {
  const { texts } = step;
  return html`<div part="progress" class="body">
    <h3 id="step-title" tabindex="-1" data-autofocus>${texts.t('progressTitle', { product: step.productName })}</h3>
    ${
      step.firstLook && !step.uploading
        ? firstLook(
            texts,
            step.firstLook,
            html`${step.notAnswering ? nothing : timing(step)}${step.fidelityNote ?? nothing}`,
          )
        : step.uploading
          ? html`<progress max="100" .value=${step.percent} aria-labelledby="status"></progress>`
          : step.notAnswering
            ? nothing
            : html`<div class="spinner" aria-hidden="true"></div>
        ${timing(step)}`
    }
    ${step.longerThanUsual ? html`<p class="longer-than-usual">${texts.t('longerThanUsual')}</p>` : nothing}
    <div class="actions" part="actions">
      ${
        step.longerThanUsual
          ? html`<button type="button" part="primary-button" class="primary" @click=${step.longerThanUsual.onKeepWaiting}>
              ${texts.t('keepWaiting')}
            </button>`
          : nothing
      }
      <button type="button" part="secondary-button" data-cancel @click=${step.onCancel}>${texts.t('cancel')}</button>
    </div>
  </div>`;
}
