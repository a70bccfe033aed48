// The hand-off's two screens. On the desktop: a QR code of this page with the code, the code in
// letters for typing, the time it has left, and what is happening (waiting, expired, received).
// On the phone, after the photo went up: "Sent — look at your computer", or why the code failed.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Texts } from '../texts.js';

export interface DesktopHandoffStep {
  texts: Texts;
  /** The QR code as an image URL; undefined while it is drawn. */
  qr: string | undefined;
  /** The code as typed, `ABCDE-FGHJK`; undefined while it is asked for. */
  code: string | undefined;
  /** `m:ss` left. */
  left: string;
  state: 'starting' | 'waiting' | 'expired' | 'failed';
  problem: string;
  onNewCode(): void;
  onBack(): void;
}

export function desktopHandoffStep(step: DesktopHandoffStep): TemplateResult {
  const { texts } = step;
  const ended = step.state === 'expired' || step.state === 'failed';
  return html`<div part="handoff" class="body">
    <h3 id="step-title" tabindex="-1">${texts.t('handoffTitle')}</h3>
    <p>${texts.t('handoffScan')}</p>
    <div class="handoff-code">
      ${step.qr && !ended ? html`<img part="qr-code" class="qr" src=${step.qr} alt=${texts.t('handoffQrAlt')} width="200" height="200">` : nothing}
      ${
        step.code && !ended
          ? html`<p part="handoff-code"><span>${texts.t('handoffCodeLabel')}</span>
        <strong class="code" dir="ltr">${step.code}</strong></p>`
          : nothing
      }
    </div>
    ${step.state === 'waiting' ? html`<p class="muted">${texts.t('handoffWaiting', { time: step.left })}</p>` : nothing}
    ${step.state === 'starting' ? html`<p class="muted">${texts.t('loading')}</p>` : nothing}
    ${ended ? html`<p class="problem" role="alert">${step.state === 'expired' ? texts.t('handoffExpired') : step.problem}</p>` : nothing}
    <div class="actions" part="actions">
      ${ended ? html`<button class="primary" part="primary-button" type="button" data-autofocus @click=${step.onNewCode}>${texts.t('handoffNewCode')}</button>` : nothing}
      <button type="button" part="secondary-button" @click=${step.onBack}>${texts.t('back')}</button>
    </div>
  </div>`;
}

export interface PhoneSentStep {
  texts: Texts;
  /** Sent, or the reason it was not (the code used or expired). */
  problem: string;
  onClose(): void;
}

export function phoneSentStep(step: PhoneSentStep): TemplateResult {
  const { texts } = step;
  return html`<div part="handoff-sent" class="body">
    <h3 id="step-title" tabindex="-1">${step.problem ? texts.t('handoffNotSent') : texts.t('handoffSent')}</h3>
    ${step.problem ? html`<p class="problem" role="alert">${step.problem}</p>` : html`<p>${texts.t('handoffSentNote')}</p>`}
    <div class="actions" part="actions">
      <button class="primary" part="primary-button" type="button" data-autofocus @click=${step.onClose}>${texts.t('close')}</button>
    </div>
  </div>`;
}
