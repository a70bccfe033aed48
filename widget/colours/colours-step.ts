// "See all colours": the colour the shopper chose, large, over a row of the other colours' drafts
// as real thumbnails (a list, so a screen reader counts them), each a button named with its colour
// (aria-pressed on the one shown large), with "Make this one in full quality" (named with the
// colour shown) once its draft is in. The row flows with the dialog's direction and wraps.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Texts } from '../i18n/words/texts.js';
import type { ColourTile } from './drafts.js';

export interface ColoursStep {
  texts: Texts;
  productName: string;
  tiles: ColourTile[];
  /** The colour shown large (ColourDrafts' `chosen`). */
  chosen: ColourTile | undefined;
  onChoose(tile: ColourTile): void;
  onUpgrade(tile: ColourTile): void;
  onBack(): void;
  /** A colour's draft did not load: said as an error, never a blank tile. */
  onImageError(): void;
}

/** What a colour without its draft says: still being made, or none to show. */
const waiting = (texts: Texts, tile: ColourTile) =>
  texts.t(tile.output === undefined ? 'loading' : 'colourUnavailable');

export function coloursStep(step: ColoursStep): TemplateResult {
  const { texts, chosen } = step;
  return html`<div part="colours" class="body">
    <h3 id="step-title" tabindex="-1" data-autofocus>${texts.t('coloursTitle', { product: step.productName })}</h3>
    ${
      chosen
        ? html`<div class="frame" aria-busy=${chosen.output === undefined}>${
            chosen.output
              ? html`<img part="image" src=${chosen.output.url} alt=${texts.t('previewImageAlt', { product: chosen.name })} @error=${step.onImageError}>`
              : html`<p class="muted">${waiting(texts, chosen)}</p>`
          }</div>
    <p class="colour-name" id="chosen-colour">${chosen.name}</p>`
        : nothing
    }
    <ul class="colours" role="list">${step.tiles.map(
      (tile) => html`<li part="colour" aria-busy=${tile.output === undefined}>
      <button type="button" aria-pressed=${tile === chosen ? 'true' : 'false'} @click=${() => step.onChoose(tile)}>
        ${
          tile.output
            ? html`<img src=${tile.output.url} alt="" @error=${step.onImageError}>`
            : html`<span class="thumb-wait muted">${waiting(texts, tile)}</span>`
        }
        <span class="colour-label">${tile.name}</span>
      </button>
    </li>`,
    )}</ul>
    <div class="actions" part="actions">
      ${
        chosen?.output
          ? html`<button type="button" class="primary" part="primary-button" id="upgrade" aria-labelledby="upgrade chosen-colour"
        @click=${() => step.onUpgrade(chosen)}>${texts.t('makeFullQuality')}</button>`
          : nothing
      }
      <button type="button" part="secondary-button" @click=${step.onBack}>${texts.t('backToResult')}</button>
    </div>
  </div>`;
}
