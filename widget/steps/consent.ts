// The consent step: what happens to the photo, a link to the shop's privacy page, a checkbox.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Texts } from '../texts.js';

export interface ConsentStep {
  texts: Texts;
  productName: string;
  privacyUrl: string;
  checked: boolean;
  onCheck(event: Event): void;
  onContinue(): void;
}

/** Only web links: a `javascript:` privacy-url from a theme setting must not become a link. */
function safeLink(url: string): string {
  if (!url) return '';
  try {
    return ['http:', 'https:'].includes(new URL(url, location.href).protocol) ? url : '';
  } catch {
    return '';
  }
}

export function consentStep(step: ConsentStep): TemplateResult {
  const { texts } = step;
  const privacy = safeLink(step.privacyUrl);
  return html`<div part="consent" class="body">
    <h3 id="step-title" tabindex="-1">${texts.t('consentTitle')}</h3>
    <p>${texts.t('consentBody', { product: step.productName })}</p>
    ${privacy ? html`<p><a href=${privacy} target="_blank" rel="noopener">${texts.t('consentPrivacy')}</a></p>` : nothing}
    <label class="check"><input type="checkbox" data-autofocus .checked=${step.checked} @change=${step.onCheck}>
      <span>${texts.t('consentCheckbox')}</span></label>
    <div class="actions" part="actions">
      <button class="primary" part="primary-button" type="button" ?disabled=${!step.checked} @click=${step.onContinue}>${texts.t('continue')}</button>
    </div>
  </div>`;
}
