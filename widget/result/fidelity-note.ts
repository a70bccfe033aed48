// What the shopper is told of the proxy's check of a result against the product, beside the
// result: "Colours checked against the product" when it held; "Colours may differ from the product
// photo" with the product's own garment image beside it when it did not, so the shopper sees which
// colour they would receive; nothing at all when the check did not run. While a view that differed
// is made again, a note says so instead. The result's alt text says the same.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { TryonFidelity } from '../core/events.js';
import type { ProductInfo } from '../api/proxy-client.js';
import { networkUrl } from '../api/proxy-client.js';
import type { Texts } from '../i18n/words/texts.js';

/** What the label beside a result needs: the check as the status said it, and the garment image to show beside a difference. */
export interface ResultFidelity {
  fidelity: TryonFidelity | undefined;
  /** The tried variant's (or the product's own) garment image, absolute; undefined when the proxy gives none. */
  swatch: string | undefined;
}

/**
 * The garment image of what was tried on: the variant's own, or the product's when no variant was.
 * Never the product's for a variant: another colour beside the render would mislead more than none.
 * Through the same gate as every URL from the network; one refused is said in the console there.
 */
export function swatchOf(product: ProductInfo | undefined, variant: string | undefined, base: URL): string | undefined {
  const swatch = variant ? product?.variants?.find((v) => v.id === variant)?.swatch : product?.swatch;
  try {
    return swatch ? networkUrl(swatch, base) : undefined;
  } catch {
    return undefined;
  }
}

/** The verdict's words, or undefined when nothing is claimed (`unchecked`, or no check at all). */
function verdictWords(texts: Texts, fidelity: TryonFidelity | undefined): string | undefined {
  const verdict = fidelity?.verdict;
  return verdict === 'true'
    ? texts.t('fidelityChecked')
    : verdict === 'differs'
      ? texts.t('fidelityDiffers')
      : undefined;
}

/**
 * The result's alt text, with the verdict after it: a screen reader hears the claim with the picture
 * it is about. A dash joins the two, as every script of the dictionaries writes one.
 */
export function fidelityAlt(texts: Texts, alt: string, fidelity: TryonFidelity | undefined): string {
  const words = verdictWords(texts, fidelity);
  return words ? `${alt} — ${words}` : alt;
}

/** The label beside the result (or the note while a view is made again); nothing when nothing is claimed. */
export function fidelityNote(texts: Texts, productName: string, note: ResultFidelity): TemplateResult | typeof nothing {
  const { fidelity, swatch } = note;
  if (fidelity?.rerender === 'running')
    return html`<p class="fidelity" part="fidelity" data-verdict="running">${texts.t('fidelityRedoing')}</p>`;
  const words = verdictWords(texts, fidelity);
  if (!words) return nothing;
  // A garment image that does not load is left out (the label stands alone), not shown broken; the console says why.
  const hide = (event: Event) => {
    (event.target as HTMLElement).hidden = true;
    console.warn("<tryon-button>: the product's garment image did not load; the colour label is shown without it.");
  };
  return html`<p class="fidelity" part="fidelity" data-verdict=${fidelity!.verdict}>${
    fidelity!.verdict === 'differs' && swatch
      ? html`<img part="fidelity-swatch" src=${swatch} alt=${texts.t('fidelitySwatch', { product: productName })} @error=${hide}>`
      : nothing
  }<span>${words}</span></p>`;
}
