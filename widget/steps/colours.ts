// "See all colours": the product's other colours on the shopper as quick previews, in a grid (a
// list, so a screen reader counts them), each with "Make this one in full quality" once its draft is
// in. The grid flows with the dialog's direction and wraps to two columns on a phone.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Texts } from '../texts.js';
import type { ColourTile } from '../colour-previews.js';

export interface ColoursStep {
  texts: Texts;
  productName: string;
  tiles: ColourTile[];
  onUpgrade(tile: ColourTile): void;
  onBack(): void;
}

function tile(step: ColoursStep, colour: ColourTile): TemplateResult {
  const { texts } = step;
  const id = `colour-${colour.variant}`;
  const shown = colour.state === 'ready' && colour.output
    ? html`<img part="image" src=${colour.output.url} alt=${texts.t('colourAlt', { variant: colour.name })}>`
    : html`<p class="muted">${texts.t(colour.state === 'making' ? 'colourMaking' : colour.state === 'limit' ? 'colourLimit' : 'colourFailed')}</p>`;
  return html`<li class="colour" part="colour" aria-busy=${colour.state === 'making' ? 'true' : 'false'}>
    <h4 id=${id}>${colour.name}</h4>
    <div class="frame">${shown}</div>
    ${colour.state === 'ready'
      ? html`<button type="button" part="secondary-button" aria-label=${texts.t('makeFullQualityNamed', { variant: colour.name })}
          @click=${() => step.onUpgrade(colour)}>${texts.t('makeFullQuality')}</button>`
      : nothing}
  </li>`;
}

export function coloursStep(step: ColoursStep): TemplateResult {
  const { texts } = step;
  return html`<div part="colours" class="body">
    <h3 id="step-title" tabindex="-1" data-autofocus>${texts.t('coloursTitle', { product: step.productName })}</h3>
    <p class="muted"><span class="first-look-badge">${texts.t('previewBadge')}</span> ${texts.t('coloursNote')}</p>
    <ul class="colours" role="list">${step.tiles.map((t) => tile(step, t))}</ul>
    <div class="actions" part="actions">
      <button type="button" part="secondary-button" @click=${step.onBack}>${texts.t('backToResult')}</button>
    </div>
  </div>`;
}
