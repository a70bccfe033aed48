// The shopper's choice of a photo, as a controller created once with the panel: the file picked or
// dropped, prepared on the device (photo.ts) with its preview, the photo check on it before anything
// is uploaded (photo-check.ts, a chunk fetched only then), and the previews of photos sent from this
// page, kept by photo handle for the before/after view. Nothing here uploads: the run does.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { prepareRawPhoto } from './photo.js';
import type { PreparedPhoto } from './photo.js';
import type { PhotoCheck } from './check/photo-check.js';
import { photoProblem } from './photo-step.js';
import type { Texts } from '../i18n/words/texts.js';
import type { TryonEventDetail } from '../core/events.js';

type CheckVerdict = Omit<TryonEventDetail<'tryon-photo-check'>, 'product' | 'variant'>;

/** What the choice asks of the panel. */
export interface PhotoChoiceOptions {
  /** Whether a photo may be chosen now (consent was given). */
  mayChoose(): boolean;
  /** A new photo is being prepared: a new logical try-on (the run hears it). */
  chosen(): void;
  texts(): Texts;
  /** The element's `photo-check` attribute now. */
  checkMode(): string | null;
  /** Whether the product asks for the whole body, once the product is known. */
  needsFullBody(): Promise<boolean>;
  /** What reports `tryon-photo-check`, about the variant chosen when the check starts. */
  checkReporter(): (verdict: CheckVerdict) => void;
  /** The photo step changed what it shows: focus goes to its first control. */
  focusStep(): void;
  /** Puts words in the live region. */
  announce(text: string): void;
  /** Opens the file picker for another photo. */
  pickAnother(): void;
}

/** Previews of photos uploaded from this page, by photo handle, for the before/after view. */
const beforeImages = new Map<string, string>();

export class PhotoChoice implements ReactiveController {
  prepared: PreparedPhoto | undefined;
  preview: string | undefined;
  preparing = false;
  problem = '';
  dragging = false;
  /** The chosen photo's check: 'loading' while its chunk arrives; undefined with photo-check="off". */
  check: PhotoCheck | 'loading' | undefined;

  readonly #host: ReactiveControllerHost;
  readonly #options: PhotoChoiceOptions;

  constructor(host: ReactiveControllerHost, options: PhotoChoiceOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  hostConnected(): void {}

  /** Whether the check lets the photo leave the device (to the try-on, or to the computer). */
  get allowsSend(): boolean {
    return this.check === undefined || (this.check !== 'loading' && this.check.allowsSend);
  }

  /** Prepares a chosen photo and shows its preview; nothing is uploaded yet. */
  async choose(file: Blob): Promise<void> {
    if (!this.#options.mayChoose()) return;
    this.problem = '';
    this.preparing = true;
    this.#host.requestUpdate();
    this.#options.chosen();
    try {
      this.prepared = await prepareRawPhoto(file);
      this.preview = URL.createObjectURL(this.prepared.blob);
      this.#options.focusStep();
      void this.#checkPhoto(this.prepared.blob);
    } catch (error) {
      this.forget();
      this.problem = photoProblem(this.#options.texts(), error);
    } finally {
      this.preparing = false;
      this.#host.requestUpdate();
    }
  }

  /** The photo on screen goes (another photo, a refused one, "Forget my photo"): its check stops. */
  forget(): void {
    this.prepared = undefined;
    this.preview = undefined;
    if (this.check !== 'loading') this.check?.cancel();
    this.check = undefined;
    this.#host.requestUpdate();
  }

  /** The photo now on screen was uploaded as `handle`: its preview is the "before" of its try-ons. */
  uploaded(handle: string): void {
    if (this.preview) beforeImages.set(handle, this.preview);
  }

  /** The photo this tab uploaded last is used again: its preview, when this page made one. */
  reused(handle: string): void {
    this.preview = beforeImages.get(handle);
  }

  /** The "before" of a try-on made with the photo `handle`, when sent from this page. */
  before(handle: string | undefined): string | undefined {
    return handle ? beforeImages.get(handle) : undefined;
  }

  /** "Forget my photo": every preview of every photo this tab kept goes too. */
  forgetAll(): void {
    for (const url of new Set([...beforeImages.values(), this.preview ?? ''])) if (url) URL.revokeObjectURL(url);
    beforeImages.clear();
    this.forget();
  }

  readonly onFile = (event: Event) => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) void this.choose(file);
  };

  readonly onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    this.#drag(true);
  };

  readonly onDragLeave = () => this.#drag(false);

  readonly onDrop = (event: DragEvent) => {
    event.preventDefault();
    this.#drag(false);
    const file = event.dataTransfer?.files?.[0];
    if (file) void this.choose(file);
  };

  #drag(on: boolean): void {
    this.dragging = on;
    this.#host.requestUpdate();
  }

  /** The photo check, before anything is uploaded (`photo-check` attribute): its chunk is fetched only now. */
  async #checkPhoto(photo: Blob): Promise<void> {
    const options = this.#options;
    const attribute = options.checkMode();
    const report = options.checkReporter();
    if (attribute === 'off') return report({ result: 'skipped', reasons: [], mode: 'off' });
    this.check = 'loading';
    this.#host.requestUpdate();
    try {
      // The chunk and the product's answer together: a photo chosen before the product was known
      // waits for it, so a garment that needs the whole body is never checked as one that does not.
      const [{ PhotoCheck }, needsFullBody] = await Promise.all([
        import('./check/photo-check.js'),
        options.needsFullBody(),
      ]);
      if (this.prepared?.blob !== photo) return;
      this.check = new PhotoCheck({
        photo,
        attribute,
        needsFullBody,
        language: options.texts().code,
        emit: report,
        changed: () => {
          options.focusStep();
          this.#host.requestUpdate();
        },
        announce: options.announce,
        chooseAnother: options.pickAnother,
      });
    } catch (error) {
      // Its chunk did not load: the shopper goes on unchecked, and the page is told.
      console.warn(`<tryon-button>: the photo check did not load (${String(error)}); the photo goes on unchecked.`);
      if (this.prepared?.blob === photo) this.check = undefined;
      report({ result: 'unavailable', reasons: [], mode: attribute === 'strict' ? 'strict' : 'warn' });
    }
    this.#host.requestUpdate();
  }
}
