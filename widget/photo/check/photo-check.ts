// The photo check, main-thread side: its own chunk, imported by the panel only once a photo is
// chosen (and never with photo-check="off"). It hands the prepared photo to the check's module
// worker (worker.ts, built beside the widget as photo-check-worker.js), turns what the
// worker measured into reasons (verdict.ts), and shows the verdict in the photo step:
// the reason in the shopper's words beside a drawing of a good photo, "Choose another photo" and,
// in `warn` mode, "Use it anyway"; over the thumbnail, where it looked (the figure's outline, the
// face's box), so a refusal can be understood. Its texts are its own small dictionaries (i18n/),
// loaded with it, so the panel and the page's dictionaries do not grow.
//
// It never blocks the flow: no module workers, a model that does not load, a check that throws or
// takes too long → "unavailable", said in words and in the console, and the photo can be sent.
import { css, html, nothing, svg } from 'lit';
import type { SVGTemplateResult, TemplateResult } from 'lit';
import { lookedAt, reasonsFor } from './verdict.js';
import type { PhotoCheckReason, PhotoMeasures } from './verdict.js';
import { checkEn } from './i18n/english.js';
import type { CheckTexts } from './i18n/english.js';
import type { CheckAnswer } from './worker.js';
import type { TryonPhotoCheckDetail } from '../../core/events.js';
import { askWorker, workersAvailable, WorkerStartError } from '../../core/worker-file.js';

export type PhotoCheckMode = 'warn' | 'strict';

/** The first check of a page loads the worker and its models (about 1.3 MB); later ones are fast. */
const TIMEOUT_MS = 30_000;

let worker: Worker | undefined;
let nextId = 0;

/** Measures the photo in the worker (one worker a page, kept for the next photo). */
async function measure(photo: Blob): Promise<{ measures: PhotoMeasures; ms: number }> {
  // A literal URL beside this module, so a shop's bundler emits the worker (widget/core/worker-file.ts).
  worker ??= new Worker(new URL('./photo-check-worker.js', import.meta.url), { type: 'module' });
  const running = worker;
  try {
    const answer = await askWorker<CheckAnswer>(running, { id: ++nextId, photo }, TIMEOUT_MS);
    if ('error' in answer) throw new Error(answer.error);
    return { measures: answer.measures, ms: answer.ms };
  } catch (error) {
    // A worker that could not start (its file missing, a CSP refusing it): drop it, so a later photo tries afresh.
    if (error instanceof WorkerStartError && worker === running) worker = undefined;
    throw error;
  }
}

export interface CheckOutcome {
  result: 'pass' | 'fail' | 'unavailable';
  reasons: PhotoCheckReason[];
  ms?: number;
  /** What the verdict was made on: the face judged by and its figure (verdict.ts, lookedAt). */
  looked?: ReturnType<typeof lookedAt>;
}

/** Checks a prepared photo. Never throws: a check that cannot run is `unavailable`, and says why in the console. */
export async function checkPhoto(photo: Blob, needsFullBody: boolean): Promise<CheckOutcome> {
  if (!workersAvailable()) {
    console.warn(
      '<tryon-button>: this browser has no module workers or OffscreenCanvas, so the photo check does not run; the photo goes on unchecked.',
    );
    return { result: 'unavailable', reasons: [] };
  }
  try {
    const { measures, ms } = await measure(photo);
    const reasons = reasonsFor(measures, needsFullBody);
    return { result: reasons.length > 0 ? 'fail' : 'pass', reasons, ms, looked: lookedAt(measures) };
  } catch (error) {
    console.warn(
      `<tryon-button>: the photo check could not run (${error instanceof Error ? error.message : String(error)}); the photo goes on unchecked.`,
    );
    return { result: 'unavailable', reasons: [] };
  }
}

/** The check's texts in a language, English for one it lacks (or when its chunk cannot load). */
export async function checkTexts(code: string): Promise<CheckTexts> {
  if (code === 'en' || !/^[a-z]{2,3}$/.test(code)) return checkEn;
  try {
    const module = (await import(`./i18n/check-${code}.ts`)) as { default?: CheckTexts };
    return module.default ?? checkEn;
  } catch {
    return checkEn;
  }
}

export interface PhotoCheckOptions {
  photo: Blob;
  /** The `photo-check` attribute as written. */
  attribute: string | null;
  needsFullBody: boolean;
  /** The language the panel speaks. */
  language: string;
  /** Dispatches `tryon-photo-check` (the panel adds product and variant). */
  emit(detail: Omit<TryonPhotoCheckDetail, 'product' | 'variant'>): void;
  /** Something on screen changed. */
  changed(): void;
  /** Said by the live region. */
  announce(text: string): void;
  /** "Choose another photo": the panel opens the picker. */
  chooseAnother(): void;
}

let toldMode = '';

/** `warn` unless the page said `strict`; anything else unknown is said in the console, once. */
export function checkMode(attribute: string | null): PhotoCheckMode {
  if (attribute === 'strict') return 'strict';
  if (attribute !== null && attribute !== '' && attribute !== 'warn' && toldMode !== attribute) {
    toldMode = attribute;
    console.warn(`<tryon-button>: photo-check="${attribute}" is not warn, strict or off; the check warns.`);
  }
  return 'warn';
}

/** One photo's check: its state, its events, and what the photo step shows of it. */
export class PhotoCheck {
  readonly mode: PhotoCheckMode;
  phase: 'checking' | CheckOutcome['result'] = 'checking';
  reasons: PhotoCheckReason[] = [];
  /** Where the check looked: drawn over the thumbnail with a refusal. */
  looked: CheckOutcome['looked'];
  overridden = false;
  texts: CheckTexts = checkEn;
  #cancelled = false;
  #textsReady = false;
  readonly #options: PhotoCheckOptions;

  constructor(options: PhotoCheckOptions) {
    this.#options = options;
    this.mode = checkMode(options.attribute);
    void this.#run();
  }

  async #run(): Promise<void> {
    const { photo, needsFullBody, language } = this.#options;
    const checking = checkPhoto(photo, needsFullBody);
    // "Checking your photo…" in the shopper's language as soon as its texts are in (a small chunk).
    this.texts = await checkTexts(language);
    this.#textsReady = true;
    if (this.#cancelled) return;
    this.#options.changed();
    const outcome = await checking;
    if (this.#cancelled) return;
    this.phase = outcome.result;
    this.reasons = outcome.reasons;
    this.looked = outcome.looked;
    this.#options.emit({
      result: outcome.result,
      reasons: [...outcome.reasons],
      mode: this.mode,
      ...(outcome.ms !== undefined ? { ms: outcome.ms } : {}),
    });
    this.#options.announce(this.#spoken());
    this.#options.changed();
  }

  /** Another photo was chosen (or none): this one's answer, when it comes, is dropped. */
  cancel(): void {
    this.#cancelled = true;
  }

  /** Whether "Try it on" is offered: after a pass, when the check could not run, or overridden in `warn`. */
  get allowsSend(): boolean {
    return this.phase === 'pass' || this.phase === 'unavailable' || (this.phase === 'fail' && this.overridden);
  }

  #spoken(): string {
    const t = this.texts;
    switch (this.phase) {
      case 'pass':
        return t.passed;
      case 'unavailable':
        return t.unavailable;
      case 'fail':
        // The reasons only: the note on what to do is beside the buttons, where focus goes, and the
        // live region is on screen too, where saying it twice would push the buttons off a laptop's.
        return this.reasons.map((r) => t[r]).join(' ');
      default:
        return t.checking;
    }
  }

  readonly #useAnyway = () => {
    this.overridden = true;
    this.#options.emit({ result: 'fail', reasons: [...this.reasons], mode: this.mode, overridden: true });
    this.#options.changed();
  };

  /** Whether its refusal is on screen (not yet overridden with "Use it anyway"). */
  get refusing(): boolean {
    return this.phase === 'fail' && !this.overridden;
  }

  /** Whether the thumbnail shows where the check looked: with a refusal on screen, when it found a figure or a face. */
  #drawn(): boolean {
    return this.refusing && Boolean(this.looked?.face ?? this.looked?.figure);
  }

  /** What the drawing over the thumbnail shows, in words: its description. */
  #lookedWords(): string {
    const t = this.texts;
    return [this.looked?.figure ? t.lookedFigure : '', this.looked?.face ? t.lookedFace : ''].filter(Boolean).join(' ');
  }

  /** Over the thumbnail: where the check looked, while its refusal is on screen. */
  overlay(): TemplateResult | typeof nothing {
    return this.#drawn() && this.looked ? lookedDrawing(this.looked, this.#lookedWords()) : nothing;
  }

  /** The check's part of the photo step, under the thumbnail. */
  view(root: ShadowRoot | HTMLElement): TemplateResult | typeof nothing {
    adoptCheckStyles(root);
    const t = this.texts;
    switch (this.phase) {
      case 'checking':
        return this.#textsReady ? html`<p part="photo-check" class="check-note">${t.checking}</p>` : nothing;
      case 'pass':
        return html`<p part="photo-check" class="check-note">${t.passed}</p>`;
      case 'unavailable':
        return html`<p part="photo-check" class="check-note">${t.unavailable}</p>`;
      default:
        break;
    }
    if (this.overridden) return nothing;
    const strict = this.mode === 'strict';
    return html`<div part="photo-check" class="check" role="group" aria-labelledby="check-reasons">
      <figure class="check-example">
        ${goodPhotoDrawing(t.exampleAlt)}
        <figcaption>${t.exampleCaption}</figcaption>
      </figure>
      <div class="check-words">
        <ul id="check-reasons" class="check-reasons">${this.reasons.map((r) => html`<li>${t[r]}</li>`)}</ul>
        <p>${strict ? t.strictNote : t.warnNote}</p>
        <div class="actions">
          <button type="button" class="primary" part="primary-button" data-autofocus @click=${this.#options.chooseAnother}>${t.chooseAnother}</button>
          ${strict ? nothing : html`<button type="button" part="secondary-button" @click=${this.#useAnyway}>${t.useAnyway}</button>`}
        </div>
      </div>
    </div>`;
  }
}

/** The outline and the box, in photo shares, as SVG points in a 100 × 100 box. */
const at = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 1000) / 10;

/** A shape drawn twice, dark and wide under light and narrow: it shows on any photo, light or dark. */
const haloed = (shape: (stroke: string, width: number) => SVGTemplateResult) =>
  svg`${shape('#000', 4)}${shape('#fff', 2)}`;

/**
 * Where the check looked, over the thumbnail: the figure's outline and the face's box, an image
 * whose description says what they are (lookedFigure, lookedFace). In the photo's coordinates,
 * not the reading direction's: the photo is not mirrored right to left, nor is this.
 */
function lookedDrawing(looked: NonNullable<CheckOutcome['looked']>, label: string): TemplateResult {
  const { face, figure } = looked;
  const points = figure
    ? figure.outline.flatMap((v, i) => (i % 2 === 0 ? [`${at(v)},${at(figure.outline[i + 1] ?? 0)}`] : [])).join(' ')
    : '';
  return html`<svg class="check-overlay" viewBox="0 0 100 100" preserveAspectRatio="none"
    role="img" aria-label=${label} focusable="false">
    ${figure ? haloed((stroke, width) => svg`<polygon class="check-figure" points=${points} fill="none" stroke=${stroke} stroke-width=${width} vector-effect="non-scaling-stroke" stroke-linejoin="round"/>`) : nothing}
    ${face ? haloed((stroke, width) => svg`<rect class="check-face" x=${at(face.left)} y=${at(face.top)} width=${at(face.left + face.width) - at(face.left)} height=${at(face.top + face.height) - at(face.top)} fill="none" stroke=${stroke} stroke-width=${width} vector-effect="non-scaling-stroke"/>`) : nothing}
  </svg>`;
}

/**
 * A drawing of a good photo: one person standing, head to feet, facing the camera, in even light.
 * Drawn (no file to fetch), in the panel's text colour so it reads in light and dark themes.
 */
function goodPhotoDrawing(label: string): TemplateResult {
  return html`<svg class="check-drawing" role="img" aria-label=${label} viewBox="0 0 60 100" width="60" height="100">
    <rect x="1" y="1" width="58" height="98" rx="4" fill="none" stroke="currentColor" stroke-opacity="0.4" stroke-width="2"/>
    <circle cx="30" cy="17" r="7" fill="currentColor"/>
    <path d="M21 27h18l3 28h-5l-1 38h-6l-0-30h0l-0 30h-6l-1-38h-5z" fill="currentColor"/>
    <path d="M21 28l-6 22M39 28l6 22" stroke="currentColor" stroke-width="4" stroke-linecap="round" fill="none"/>
  </svg>`;
}

/** The check's styles, added to the panel's shadow root once (a constructed sheet: no inline style, fine under a strict CSP). */
const checkStyles = css`
  .check { display: flex; gap: 0.75rem; align-items: flex-start; margin-block: 0.5rem; }
  /* At most as wide as the drawing and a little: a long caption (Tamil's) wraps, not squeezes the words. */
  .check-example { margin: 0; display: flex; flex-direction: column; align-items: center; gap: 0.25rem; flex: none; max-inline-size: 6rem; text-align: center; font-size: 0.8125rem; }
  .check-drawing { color: inherit; }
  .check-words { flex: 1; min-inline-size: 0; }
  .check-reasons { margin: 0 0 0.5rem; padding-inline-start: 1.25rem; font-weight: 600; }
  .check-words p { margin: 0 0 0.5rem; }
  .check-note { margin-block: 0.5rem; }
  .check button { min-block-size: 2.75rem; }
  .dropzone.refusing img { max-block-size: 10rem; }
  .check-overlay { position: absolute; inset: 0; inline-size: 100%; block-size: 100%; pointer-events: none; overflow: visible; }
`;

function adoptCheckStyles(root: ShadowRoot | HTMLElement): void {
  const sheet = checkStyles.styleSheet;
  if (!(root instanceof ShadowRoot) || !sheet || root.adoptedStyleSheets.includes(sheet)) return;
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
