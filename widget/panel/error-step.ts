// The error step: the message in the shopper's words (role=alert), one way on named as the words
// name it ("Try again", or "Start again with your photo" for a lost try-on), and "Close"; only
// "Close" when nothing can succeed today (the day's budget or the shopper's daily try-ons spent).
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import type { Texts } from '../i18n/words/texts.js';
import { nothing } from 'lit';

export interface ErrorStep {
  texts: Texts;
  message: string | undefined;
  /** The label of the way on (error-policy.ts `actionLabel`), so the button says what the message says; none when nothing can succeed today. */
  action: string | undefined;
  onRetry(): void;
  onClose(): void;
  /** The first look kept when the full render failed after it (progress.ts `firstLook`). */
  kept?: TemplateResult | undefined;
}

export function errorStep(step: ErrorStep): TemplateResult {
  const { texts } = step;
  return html`<div class="body">
    <h3 id="step-title" tabindex="-1">${texts.t('errorTitle')}</h3>
    <div role="alert" part="error" class="error"><p>${step.message || texts.t('error_generic')}</p></div>
    ${step.kept ?? nothing}
    <div class="actions" part="actions">
      ${
        step.action
          ? html`<button class="primary" part="primary-button" type="button" data-autofocus @click=${step.onRetry}>${step.action}</button>
          <button type="button" part="secondary-button" @click=${step.onClose}>${texts.t('close')}</button>`
          : html`<button class="primary" part="primary-button" type="button" data-autofocus @click=${step.onClose}>${texts.t('close')}</button>`
      }
    </div>
  </div>`;
}
