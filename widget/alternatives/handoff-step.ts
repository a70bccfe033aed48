// The hand-off's two screens. On the desktop: a QR code of this page with the code, the code in
// letters for typing, the time it has left, and what is happening (waiting, expired, received);
// once the phone's photo came, a field for the number the phone shows. On the phone, after the
// photo went up: that number, large, and whose computer it goes to; or why the code failed.
// Errors of the number field are said by the dialog's one live region (handoff-flow.ts announces
// them) and shown beside the field, tied to it by aria-describedby.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Texts } from '../i18n/words/texts.js';

export interface DesktopHandoffStep {
  texts: Texts;
  /** The QR code as an image URL; undefined while it is drawn. */
  qr: string | undefined;
  /** The code as typed, `ABCDE-FGHJK`; undefined while it is asked for. */
  code: string | undefined;
  /** `m:ss` left. */
  left: string;
  state: 'starting' | 'waiting' | 'confirming' | 'expired' | 'ended' | 'failed';
  problem: string;
  onNewCode(): void;
  onBack(): void;
  /** The number typed on the desktop, as typed. */
  onConfirm(typed: string): void;
}

function numberForm(step: DesktopHandoffStep): TemplateResult {
  const { texts } = step;
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const input = (event.currentTarget as HTMLFormElement).elements.namedItem('number') as HTMLInputElement;
    step.onConfirm(input.value);
  };
  return html`<p>${texts.t('handoffConfirming', { time: step.left })}</p>
    <form part="handoff-confirm" class="handoff-confirm" novalidate @submit=${submit}>
      <label for="handoff-number">${texts.t('handoffNumberLabel')}</label>
      <input id="handoff-number" part="handoff-number-input" name="number" type="text" inputmode="numeric"
        autocomplete="one-time-code" enterkeyhint="done" maxlength="7" dir="ltr" data-autofocus
        aria-invalid=${step.problem ? 'true' : 'false'}
        aria-describedby=${step.problem ? 'handoff-number-problem' : nothing}>
      ${step.problem ? html`<p id="handoff-number-problem" class="problem">${step.problem}</p>` : nothing}
      <button class="primary" part="primary-button" type="submit">${texts.t('handoffConfirm')}</button>
    </form>`;
}

export function desktopHandoffStep(step: DesktopHandoffStep): TemplateResult {
  const { texts } = step;
  const ended = step.state === 'expired' || step.state === 'failed' || step.state === 'ended';
  if (step.state === 'confirming')
    return html`<div part="handoff" class="body">
      <h3 id="step-title" tabindex="-1">${texts.t('handoffTitle')}</h3>
      ${numberForm(step)}
      <div class="actions" part="actions">
        <button type="button" part="secondary-button" @click=${step.onBack}>${texts.t('back')}</button>
      </div>
    </div>`;
  // Ended by the clock or by wrong numbers: said by the live region; a failure to start, by this alert.
  const endedWords =
    step.state === 'ended'
      ? html`<p class="problem">${texts.errorMessage('handoff_tries_used')}</p>`
      : step.state === 'expired'
        ? html`<p class="problem">${texts.t('handoffExpired')}</p>`
        : html`<p class="problem" role="alert">${step.problem}</p>`;
  return html`<div part="handoff" class="body">
    <h3 id="step-title" tabindex="-1">${texts.t('handoffTitle')}</h3>
    ${step.state === 'ended' ? nothing : html`<p>${texts.t('handoffScan')}</p>`}
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
    ${ended ? endedWords : nothing}
    <div class="actions" part="actions">
      ${ended ? html`<button class="primary" part="primary-button" type="button" data-autofocus @click=${step.onNewCode}>${texts.t('handoffNewCode')}</button>` : nothing}
      <button type="button" part="secondary-button" @click=${step.onBack}>${texts.t('back')}</button>
    </div>
  </div>`;
}

export interface PhoneSentStep {
  texts: Texts;
  /** The reason it was not sent (the code used or expired); '' when sent. */
  problem: string;
  /** Sent: the number to type on the computer, spaced for reading (`123 456`). */
  number: string;
  onClose(): void;
}

export function phoneSentStep(step: PhoneSentStep): TemplateResult {
  const { texts } = step;
  if (!step.problem)
    return html`<div part="handoff-sent" class="body">
      <h3 id="step-title" tabindex="-1">${texts.t('handoffTypeNumber')}</h3>
      <p part="handoff-number" class="handoff-number"><strong dir="ltr">${step.number}</strong></p>
      <p>${texts.t('handoffNumberNote')}</p>
      <div class="actions" part="actions">
        <button class="primary" part="primary-button" type="button" data-autofocus @click=${step.onClose}>${texts.t('close')}</button>
      </div>
    </div>`;
  return html`<div part="handoff-sent" class="body">
    <h3 id="step-title" tabindex="-1">${texts.t('handoffNotSent')}</h3>
    <p class="problem" role="alert">${step.problem}</p>
    <div class="actions" part="actions">
      <button class="primary" part="primary-button" type="button" data-autofocus @click=${step.onClose}>${texts.t('close')}</button>
    </div>
  </div>`;
}
