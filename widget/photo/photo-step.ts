// The photo step: tips, a drop zone with the thumbnail, and the ways to give a photo (file, camera,
// the last one this tab uploaded).
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { MAX_INPUT_BYTES, MIN_SHORT_SIDE, PhotoError } from './photo.js';
import type { BodyNeeded } from './rules.js';
import type { Texts } from '../i18n/words/texts.js';

export interface PhotoStep {
  texts: Texts;
  /** The prepared photo's thumbnail, once there is one to send (its part keeps the public name `preview`). */
  thumbnail: string | undefined;
  preparing: boolean;
  dragging: boolean;
  /** Why the chosen file was refused, in the shopper's words. */
  problem: string;
  hasLastPhoto: boolean;
  /** Whether "Forget my photo" has something to forget. */
  canForget: boolean;
  onForget(): void;
  onDragOver(event: DragEvent): void;
  onDragLeave(): void;
  onDrop(event: DragEvent): void;
  onSubmit(): void;
  onPick(camera: boolean): void;
  onUseLastPhoto(): void;
  onFile(event: Event): void;
  /** What the product needs the photo to show (rules.ts), once the product is known: the tips say it. */
  body?: BodyNeeded | undefined;
  /**
   * The photo check's verdict under the thumbnail (photo-check.ts), whether it lets the photo be
   * sent, where it looked (drawn over the thumbnail), and whether a refusal is on screen.
   */
  check?: PhotoStepCheck | undefined;
  /** Opened on a phone by a hand-off: the photo goes to the computer ("Send to my computer"), nothing else is offered. */
  phone?: { sending: boolean } | undefined;
}

export interface PhotoStepCheck {
  /** Its part of the step, under the thumbnail. */
  view: TemplateResult | typeof nothing;
  allowsSend: boolean;
  /** Where it looked, drawn over the thumbnail. */
  overlay?: TemplateResult | typeof nothing;
  /** A refusal is on screen: it stands in for the tips and "Choose a photo". */
  refusing?: boolean;
}

export function photoStep(step: PhotoStep): TemplateResult {
  const { texts } = step;
  const ready = Boolean(step.thumbnail) && (step.check?.allowsSend ?? true);
  // A refusal stands in for the tips (its drawing of a good photo says them) and for "Choose a
  // photo", and takes a smaller thumbnail, so the whole verdict and its buttons fit a laptop's
  // screen without scrolling.
  const refusing = step.check?.refusing === true;
  return html`<div part="photo" class="body">
    <h3 id="step-title" tabindex="-1">${step.phone ? texts.t('handoffPhoneTitle') : texts.t('photoTitle')}</h3>
    ${
      refusing
        ? nothing
        : html`<div class="tips">
      <p>${texts.t('tipsTitle')}</p>
      <ul>
        <li>${texts.t('tipOnePerson')}</li>
        <li>${texts.t('tipFacing')}</li>
        <li>${texts.t('tipLight')}</li>
        <li>${texts.t(step.body === 'whole' ? 'tipWholeBody' : step.body === 'upper' ? 'tipUpperBody' : 'tipBody')}</li>
      </ul>
    </div>`
    }
    <div part="dropzone" class="dropzone ${step.dragging ? 'over' : ''} ${refusing ? 'refusing' : ''}"
      @dragover=${step.onDragOver} @dragleave=${step.onDragLeave} @drop=${step.onDrop}>
      ${
        step.thumbnail
          ? html`<span class="thumb"><img part="preview" src=${step.thumbnail} alt=${texts.t('previewAlt')}>${step.check?.overlay ?? nothing}</span>`
          : html`<p class="muted">${step.preparing ? texts.t('preparing') : texts.t('dropHint')}</p>`
      }
    </div>
    ${step.check?.view ?? nothing}
    ${step.problem ? html`<p class="problem" role="alert">${step.problem}</p>` : nothing}
    <div class="actions" part="actions">
      ${
        ready
          ? html`<button class="primary" part="primary-button" type="button" data-autofocus ?disabled=${step.phone?.sending === true}
        @click=${step.onSubmit}>${step.phone ? texts.t('sendToComputer') : texts.t('submit')}</button>`
          : nothing
      }
      ${
        // A refusal offers "Choose another photo" itself: one button for it, not two.
        refusing
          ? nothing
          : html`<button class=${ready ? '' : 'primary'} part=${ready ? 'secondary-button' : 'primary-button'} type="button"
        ?data-autofocus=${!ready} @click=${() => step.onPick(false)}>${texts.t('choosePhoto')}</button>`
      }
      <button type="button" part="secondary-button" @click=${() => step.onPick(true)}>${texts.t('takePhoto')}</button>
      ${step.hasLastPhoto && !step.phone ? html`<button type="button" part="secondary-button" @click=${step.onUseLastPhoto}>${texts.t('useLastPhoto')}</button>` : nothing}
      ${step.canForget ? html`<button type="button" part="forget-button" @click=${step.onForget}>${texts.t('forgetPhoto')}</button>` : nothing}
    </div>
    <!-- The buttons above are the controls: these inputs only open the browser's picker. They
      stay rendered (visually hidden, not display:none, which has kept click() from opening the
      picker in some Safari versions) but out of the tab order and of the accessibility tree, so
      a screen reader meets "Choose a photo" and "Take a photo" once each. -->
    <input id="file" class="visually-hidden" type="file" tabindex="-1" aria-hidden="true" accept="image/*,.heic,.heif"
      aria-label=${texts.t('yourPhoto')} @change=${step.onFile}>
    <input id="camera" class="visually-hidden" type="file" tabindex="-1" aria-hidden="true" accept="image/*" capture="user"
      aria-label=${texts.t('takePhoto')} @change=${step.onFile}>
  </div>`;
}

/** Why a chosen file was refused, in the shopper's words. */
export function photoProblem(texts: Texts, error: unknown): string {
  if (!(error instanceof PhotoError)) return texts.t('photoUnreadable');
  switch (error.problem) {
    case 'not_image':
      return texts.t('photoNotImage');
    case 'too_small':
      return texts.t('photoTooSmall', { width: error.width ?? 0, height: error.height ?? 0, minSide: MIN_SHORT_SIDE });
    case 'too_large':
      return texts.t('photoTooLarge', { size: error.sizeMb ?? 0, maxSize: MAX_INPUT_BYTES / (1024 * 1024) });
    default:
      return texts.t('photoUnreadable');
  }
}
