// "See all colours": the other colours' drafts in a grid (a list, so a screen reader counts
// them), each named by a heading, with "Make this one in full quality" (named with its colour) once
// its draft is in. The grid flows with the dialog's direction and wraps to two columns on a phone.
import { html } from 'lit';
import type { TemplateResult } from 'lit';
import type { Texts } from '../i18n/words/texts.js';
import type { ColourTile } from './drafts.js';

export interface ColoursStep {
  texts: Texts;
  productName: string;
  tiles: ColourTile[];
  onUpgrade(tile: ColourTile): void;
  onBack(): void;
  /** A colour's draft did not load: said as an error, never a blank tile. */
  onImageError(): void;
}

export function coloursStep(step: ColoursStep): TemplateResult {
  const { texts } = step;
  return html`<div part="colours" class="body">
    <h3 id="step-title" tabindex="-1" data-autofocus>${texts.t('coloursTitle', { product: step.productName })}</h3>
    <ul class="colours" role="list">${step.tiles.map(
      (tile, i) => html`<li part="colour" aria-busy=${tile.output === undefined}>
      <h4 id="c${i}">${tile.name}</h4>
      <div class="frame">${
        tile.output
          ? html`<img part="image" src=${tile.output.url} alt=${texts.t('previewImageAlt', { product: tile.name })} @error=${step.onImageError}>`
          : html`<p class="muted">${texts.t(tile.output === undefined ? 'loading' : 'colourUnavailable')}</p>`
      }</div>
      ${
        tile.output
          ? html`<button type="button" part="secondary-button" id="b${i}" aria-labelledby="b${i} c${i}"
        @click=${() => step.onUpgrade(tile)}>${texts.t('makeFullQuality')}</button>`
          : ''
      }
    </li>`,
    )}</ul>
    <div class="actions" part="actions">
      <button type="button" part="secondary-button" @click=${step.onBack}>${texts.t('backToResult')}</button>
    </div>
  </div>`;
}
