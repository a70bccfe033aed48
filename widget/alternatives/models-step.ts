// "See it on a model": the product's models as a grid of buttons (a picture and a name each; Tab
// reaches every one, Enter or Space picks it), for a shopper who would rather not upload a photo.
// Picking one goes straight to the try-on; the shop's own picture needs no consent.
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import type { Texts } from '../i18n/words/texts.js';

export interface ModelChoice {
  id: string;
  name: string;
  image: string;
}

export interface ModelsStep {
  texts: Texts;
  productName: string;
  models: ModelChoice[];
  onPick(model: string): void;
  onBack(): void;
}

export function modelsStep(step: ModelsStep): TemplateResult {
  const { texts } = step;
  return html`<div part="models" class="body">
    <h3 id="step-title" tabindex="-1">${texts.t('modelsTitle', { product: step.productName })}</h3>
    <ul class="models" part="model-grid" role="list">
      ${step.models.map(
        (model, i) => html`<li>
        <button type="button" part="model" class="model" ?data-autofocus=${i === 0} @click=${() => step.onPick(model.id)}>
          <!-- The button's name is the model's name; the picture says nothing more to a screen reader. -->
          <img src=${model.image} alt="" loading="lazy" decoding="async">
          <span>${model.name}</span>
        </button>
      </li>`,
      )}
    </ul>
    <div class="actions" part="actions">
      <button type="button" part="secondary-button" @click=${step.onBack}>${texts.t('ownPhotoInstead')}</button>
    </div>
  </div>`;
}
