// The consent step: what happens to the photo, how long it and the result are kept, a link to the
// shop's privacy page, a checkbox. Its words are also what the consent version is a hash of.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Texts } from '../i18n/words/texts.js';

export interface ConsentStep {
  texts: Texts;
  productName: string;
  privacyUrl: string;
  /** How long the proxy keeps a photo and a result, once the product answer told us. */
  retention: { photoSeconds: number; resultSeconds: number } | undefined;
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

/** Hyphenated words ("try-on") kept whole on a narrow screen: a line may not break at their hyphen. */
function keepHyphenatedWhole(text: string): (string | TemplateResult)[] {
  return text.split(/(\S+-\S+)/).map((part, i) => (i % 2 ? html`<span class="whole">${part}</span>` : part));
}

/** The step's words as shown, in reading order: what the shopper agrees to. */
export function consentText(step: Pick<ConsentStep, 'texts' | 'productName' | 'privacyUrl' | 'retention'>) {
  const { texts, retention } = step;
  return {
    title: texts.t('consentTitle'),
    body: texts.t('consentBody', { product: step.productName }),
    retention: retention
      ? texts.t('retention', {
          photoTime: texts.duration(retention.photoSeconds),
          resultTime: texts.duration(retention.resultSeconds),
          forget: texts.t('forgetPhoto'),
        })
      : '',
    privacy: safeLink(step.privacyUrl) ? texts.t('consentPrivacy') : '',
    checkbox: texts.t('consentCheckbox'),
  };
}

/**
 * The id of what the shopper is asked to agree to (the text and the retention sentence): the
 * dialog names it in `aria-describedby` while this step shows, so a screen reader reads it with
 * the dialog's name.
 */
export const CONSENT_TEXT_ID = 'consent-text';

export function consentStep(step: ConsentStep): TemplateResult {
  const privacy = safeLink(step.privacyUrl);
  const words = consentText(step);
  // Focus opens on the heading, not the checkbox (the APG dialog pattern's advice when content
  // precedes the first control): the shopper then reads the text before reaching "I agree".
  return html`<div part="consent" class="body">
    <h3 id="step-title" tabindex="-1" data-autofocus>${words.title}</h3>
    <div id=${CONSENT_TEXT_ID}>
      <p>${words.body}</p>
      ${words.retention ? html`<p part="retention">${words.retention}</p>` : nothing}
    </div>
    ${privacy ? html`<p><a href=${privacy} target="_blank" rel="noopener">${words.privacy}</a></p>` : nothing}
    <label class="check"><input type="checkbox" .checked=${step.checked} @change=${step.onCheck}>
      <span>${keepHyphenatedWhole(words.checkbox)}</span></label>
    <div class="actions" part="actions">
      <button class="primary" part="primary-button" type="button" ?disabled=${!step.checked} @click=${step.onContinue}>${step.texts.t('continue')}</button>
    </div>
  </div>`;
}
