// The result step: the image of each view, whole and first (a tablist when there are several, with
// the arrow keys of the tabs pattern), the shopper's photo and the before/after divide as toggles
// under it, what the proxy's check says of its colours (fidelity-note.ts), the video, and what to do next.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { TryonOutput } from '../core/events.js';
import type { CompareController } from './compare.js';
import { fidelityAlt, fidelityNote } from './fidelity-note.js';
import type { ResultFidelity } from './fidelity-note.js';
import type { Texts } from '../i18n/words/texts.js';

export interface ResultStep {
  texts: Texts;
  productName: string;
  outputs: TryonOutput[];
  /** The views asked for, in order; tabs appear for them before their image is in. */
  views: string[];
  selectedView: string;
  /** The shopper's own photo, when it was sent from this page: the "before" of the comparison. */
  before: string | undefined;
  compare: CompareController;
  offerVideo: boolean;
  /** The label of "Try this colour" when the page chose another variant than the one shown; else undefined. */
  colourOffer: string | undefined;
  onSelect(view: string): void;
  onDownload(): void;
  onShare(): void;
  onAnotherPhoto(): void;
  onForget(): void;
  onMakeVideo(): void;
  onTryColour(): void;
  /** "Add to cart" for the variant tried on; undefined when the page offers none. */
  cart?: ResultCart;
  /** The first look this result just replaced: it fades out over the full render (not under reduced motion). */
  fadeFrom?: string | undefined;
  /** "See all colours" is offered (a product with variants and colour drafts on). */
  offerColours?: boolean;
  onSeeColours?(): void;
  /** An image shown here did not load (a wrong URL, an expired file): said as an error, never a blank "ready". */
  onImageError?: (() => void) | undefined;
  /** See ImageView's `round`. */
  round?: number;
  /** The proxy's check against the product: the label beside the result and in its alt text. */
  fidelity?: ResultFidelity;
  /** "Complete the look": the outfit's pieces and the pieces offered, drawn by its own chunk; after the actions. */
  outfit?: unknown;
}

/** What one drawn try-on image needs: the before/after comparison when the shopper's photo is known. */
export interface ImageView {
  texts: Texts;
  productName: string;
  before: string | undefined;
  compare: CompareController;
  fadeFrom?: string | undefined;
  /** How many times the pictures were asked for afresh after an outage (ResultView's pictureRound): each is asked under a new URL. */
  round?: number;
  /** The image (or the shopper's photo beside it) did not load. */
  onImageError?: (() => void) | undefined;
}

/** "Add to cart": where it stands for this result, and what pressing it does. */
export interface ResultCart {
  state: 'idle' | 'adding' | 'added' | 'failed';
  /** With `failed`: the sentence to show (role=alert). */
  problem?: string;
  /** Primary unless "Try this colour" already is. */
  primary: boolean;
  /** The button's words for its state when they are not "Add to cart"'s (the outfit's "Add the look to cart"). */
  label?: string;
  onAdd(): void;
}

/**
 * The button stays focusable in every state (aria-disabled, not disabled), so focus never drops
 * to the page while it works; its label says where the add stands.
 */
function cartButton(step: ResultStep, cart: ResultCart): TemplateResult {
  const { texts } = step;
  const label =
    cart.label ??
    (cart.state === 'adding'
      ? texts.t('addingToCart')
      : cart.state === 'added'
        ? texts.t('addedToCart')
        : texts.t('addToCart'));
  const busy = cart.state === 'adding' || cart.state === 'added';
  const onClick = () => {
    if (!busy) cart.onAdd();
  };
  const describedBy = cart.state === 'failed' ? 'cart-error' : nothing;
  // Two literal templates rather than one with a computed part: the parts stay readable by the API reference's check.
  return cart.primary
    ? html`<button type="button" class="primary" part="add-to-cart-button primary-button" data-cart=${cart.state}
        aria-disabled=${busy ? 'true' : 'false'} aria-describedby=${describedBy} @click=${onClick}>${label}</button>`
    : html`<button type="button" part="add-to-cart-button secondary-button" data-cart=${cart.state}
        aria-disabled=${busy ? 'true' : 'false'} aria-describedby=${describedBy} @click=${onClick}>${label}</button>`;
}

/** Arrow keys (mirrored right to left), Home and End move between the tabs, as the tabs pattern asks. */
function onTabKey(event: KeyboardEvent, select: (view: string) => void): void {
  const current = event.currentTarget as HTMLElement;
  const tabs = [...(current.parentElement?.querySelectorAll<HTMLElement>('[role="tab"]') ?? [])];
  const at = tabs.indexOf(current);
  const rtl = getComputedStyle(current).direction === 'rtl';
  const step: Record<string, number> = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, ArrowDown: 1, ArrowUp: -1 };
  let next: number | undefined;
  if (event.key in step) next = (at + (step[event.key] ?? 0) + tabs.length) % tabs.length;
  else if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = tabs.length - 1;
  if (next === undefined) return;
  event.preventDefault();
  const tab = tabs[next];
  if (!tab) return;
  select(tab.dataset['view'] ?? '');
  tab.focus();
}

/**
 * A picture's URL for its `round`th asking after a failure: the same file under another query,
 * because a browser answers an <img> of a URL that failed from its memory cache, failed again. The
 * proxy's file route reads only its path.
 */
function askedAgain(url: string, round: number): string {
  if (round === 0) return url;
  const again = new URL(url, document.baseURI);
  again.searchParams.set('again', String(round));
  return again.href;
}

/**
 * "Show my photo" and "Before and after", two toggles (aria-pressed) under the picture: the
 * shopper's photo whole in the try-on's place, or the two under the divide; pressed again, the
 * try-on whole.
 */
function beforeAfter(step: ImageView): TemplateResult {
  const { texts, compare } = step;
  return html`<div class="before-after" part="before-after">
    <button type="button" part="photo-toggle secondary-button" aria-pressed=${compare.shown === 'photo' ? 'true' : 'false'}
      @click=${compare.togglePhoto}>${texts.t('showPhoto')}</button>
    <button type="button" part="compare-toggle secondary-button" aria-pressed=${compare.shown === 'compare' ? 'true' : 'false'}
      @click=${compare.toggleCompare}>${texts.t('compare')}</button>
  </div>`;
}

/**
 * One drawn try-on image (the full render or the first look), whole. When the shopper's photo is
 * known, the toggles under it show that photo in its place, or the two under the before/after
 * divide. `alt` names what it is; `onLoad` hears it painted.
 */
export function image(
  step: ImageView,
  output: TryonOutput | undefined,
  alt = step.texts.t('resultAlt', { product: step.productName }),
  onLoad?: () => void,
): TemplateResult {
  const { texts, compare, onImageError } = step;
  if (!output) return html`<div class="frame"><p class="muted">${texts.t('viewPending')}</p></div>`;
  // The replaced first look, over the full render, fading out: decoration only.
  const fade = step.fadeFrom ? html`<img class="fade-out" src=${step.fadeFrom} alt="" aria-hidden="true">` : nothing;
  const src = askedAgain(output.url, step.round ?? 0);
  if (!step.before)
    return html`<div class="frame"><img part="image" src=${src} alt=${alt} @load=${onLoad} @error=${onImageError}>${fade}</div>`;
  // One outer template for every state, so the toggles are the same elements after a press and
  // keep the focus; only the picture inside the frame changes.
  return html`<div class="frame">${compare.shown === 'compare' ? divide(step, src, alt, fade, onLoad) : pictures(step, src, alt, fade, onLoad)}</div>${beforeAfter(step)}`;
}

/**
 * The try-on and the shopper's photo in one grid cell, the one not shown hidden (and out of the
 * accessibility tree): the frame keeps the taller one's height, so toggling moves nothing around it.
 */
function pictures(step: ImageView, src: string, alt: string, fade: unknown, onLoad?: () => void): TemplateResult {
  const { texts, compare, onImageError } = step;
  const photo = compare.shown === 'photo';
  return html`<div class="pictures">
      <img part="image" class=${photo ? 'off' : ''} src=${src} alt=${alt} @load=${onLoad} @error=${onImageError}>${fade}
      <img class=${photo ? 'photo' : 'photo off'} src=${step.before ?? ''} alt=${texts.t('yourPhoto')} @error=${onImageError}>
    </div>`;
}

/** The try-on and the shopper's photo under the before/after divide. */
function divide(step: ImageView, src: string, alt: string, fade: unknown, onLoad?: () => void): TemplateResult {
  const { texts, compare, onImageError } = step;
  const position = compare.position;
  return html`<div class="compare" part="compare"
      @pointerdown=${compare.onPointer} @pointermove=${compare.onPointer}>
    <img part="image" src=${src} alt=${alt} @load=${onLoad} @error=${onImageError}>${fade}
    <img class="before" src=${step.before ?? ''} alt="" @error=${onImageError}>
    <!-- Visual labels only: the slider's own name says "Before and after". -->
    <span class="compare-label" data-side="before" aria-hidden="true">${texts.t('compareBefore')}</span>
    <span class="compare-label" data-side="after" aria-hidden="true">${texts.t('compareAfter')}</span>
    <div role="slider" part="compare-handle" tabindex="0" aria-label=${texts.t('compare')}
      aria-valuemin="0" aria-valuemax="100" aria-valuenow=${position} aria-valuetext="${position}%"
      aria-orientation="horizontal" @keydown=${compare.onKey}></div>
  </div>`;
}

export function resultStep(step: ResultStep): TemplateResult {
  const { texts } = step;
  const images = step.outputs.filter((o) => o.type === 'image');
  const video = step.outputs.find((o) => o.type === 'video');
  const shownViews = step.views.length ? step.views : [...new Set(images.map((o) => o.view))];
  const selected = shownViews.includes(step.selectedView)
    ? step.selectedView
    : (images[0]?.view ?? shownViews[0] ?? 'front');
  const shown = images.find((o) => o.view === selected);
  const switcher = shownViews.length > 1;
  // The colour the shopper just picked is the likeliest next step, so it takes the focus.
  const offer = step.colourOffer;
  const onKey = (event: KeyboardEvent) => onTabKey(event, step.onSelect);
  const alt = fidelityAlt(texts, texts.t('resultAlt', { product: step.productName }), step.fidelity?.fidelity);
  return html`<div part="result" class="body">
    <!-- Named for what it shows: "ready" is the live region's, said once, not beside it again. -->
    <h3 id="step-title" tabindex="-1" ?data-autofocus=${!switcher && !offer}>${texts.t('resultTitle', { product: step.productName })}</h3>
    ${
      switcher
        ? html`<div role="tablist" part="views" aria-label=${texts.t('views')}>
        ${shownViews.map(
          (view) => html`<button role="tab" type="button" id="tab-${view}" data-view=${view}
          aria-selected=${view === selected ? 'true' : 'false'} aria-controls="view-panel"
          tabindex=${view === selected ? '0' : '-1'} ?data-autofocus=${view === selected && !offer}
          @click=${() => step.onSelect(view)} @keydown=${onKey}>${texts.viewName(view)}</button>`,
        )}
      </div>
      <div role="tabpanel" id="view-panel" aria-labelledby="tab-${selected}">${image(step, shown, alt)}</div>`
        : image(step, shown, alt)
    }
    ${step.fidelity ? fidelityNote(texts, step.productName, step.fidelity) : nothing}
    ${video ? html`<video part="video" controls playsinline src=${video.url} aria-label=${texts.t('videoLabel', { product: step.productName })}></video>` : nothing}
    ${step.cart?.state === 'failed' ? html`<div role="alert" id="cart-error" part="cart-error" class="error"><p>${step.cart.problem}</p></div>` : nothing}
    <div class="actions" part="actions">
      ${step.cart ? cartButton(step, step.cart) : nothing}
      ${offer ? html`<button class="primary" type="button" part="primary-button" data-autofocus @click=${step.onTryColour}>${offer}</button>` : nothing}
      <button type="button" part="secondary-button" ?disabled=${!shown && !video} @click=${step.onDownload}>${texts.t('download')}</button>
      <button type="button" part="secondary-button" ?disabled=${!shown && !video} @click=${step.onShare}>${texts.t('share')}</button>
      <button type="button" part="secondary-button" @click=${step.onAnotherPhoto}>${texts.t('anotherPhoto')}</button>
      ${step.offerVideo ? html`<button type="button" part="secondary-button" @click=${step.onMakeVideo}>${texts.t('makeVideo')}</button>` : nothing}
      ${step.offerColours ? html`<button type="button" part="secondary-button" @click=${() => step.onSeeColours?.()}>${texts.t('seeAllColours')}</button>` : nothing}
      <button type="button" part="forget-button" @click=${step.onForget}>${texts.t('forgetPhoto')}</button>
    </div>
    ${step.outfit ?? nothing}
  </div>`;
}
