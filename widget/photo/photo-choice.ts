// The shopper's choice of a photo, as a controller created once with the panel: the file picked or
// dropped, prepared on the device (photo.ts) with its thumbnail, the photo check on it before anything
// is uploaded (photo-check.ts, a chunk fetched only then), and the thumbnails of photos sent from this
// page, kept by photo handle for the before/after view. Nothing here uploads: the run does.
import type { ReactiveController } from 'lit';
import { prepareRawPhoto } from './photo.js';
import type { PreparedPhoto } from './photo.js';
import type { PhotoCheck } from './check/photo-check.js';
import { photoProblem } from './photo-step.js';
import { tryonSubject } from '../core/events.js';
import type { TryonEventDetail, TryonSubject } from '../core/events.js';
import type { DialogContext } from '../core/dialog-context.js';

type CheckVerdict = Omit<TryonEventDetail<'tryon-photo-check'>, 'product' | 'variant'>;

/** What the choice reads of the dialog's context: the run, as far as a photo is its business. */
export interface PhotoChoiceContext extends DialogContext {
  readonly run: {
    /** A photo may be chosen once consent was given. */
    readonly session: { readonly consented: boolean };
    /** The product and the variant chosen on the page now (`tryon-photo-check` names the one chosen when the check starts). */
    readonly subject: TryonSubject;
    /** A new photo is being prepared: a new logical try-on. */
    photoChosen(): void;
    /** Whether the product asks for the whole body, once the product is known. */
    needsFullBody(): Promise<boolean>;
  };
}

/** Thumbnails of photos uploaded from this page, by photo handle, for the before/after view. */
const beforeImages = new Map<string, string>();

export class PhotoChoice implements ReactiveController {
  prepared: PreparedPhoto | undefined;
  /** The chosen photo's thumbnail (an object URL of the prepared photo), shown in the photo step. */
  thumbnail: string | undefined;
  preparing = false;
  problem = '';
  dragging = false;
  /** The chosen photo's check: 'loading' while its chunk arrives; undefined with photo-check="off". */
  check: PhotoCheck | 'loading' | undefined;

  readonly #context: PhotoChoiceContext;

  constructor(context: PhotoChoiceContext) {
    this.#context = context;
    context.panel.addController(this);
  }

  hostConnected(): void {}

  /** Whether the check lets the photo leave the device (to the try-on, or to the computer). */
  get allowsSend(): boolean {
    return this.check === undefined || (this.check !== 'loading' && this.check.allowsSend);
  }

  /** Prepares a chosen photo and shows its thumbnail; nothing is uploaded yet. */
  async choose(file: Blob): Promise<void> {
    const context = this.#context;
    if (!context.run.session.consented) return;
    this.problem = '';
    this.preparing = true;
    context.panel.requestUpdate();
    context.run.photoChosen();
    try {
      this.prepared = await prepareRawPhoto(file);
      this.thumbnail = URL.createObjectURL(this.prepared.blob);
      context.focusStep();
      void this.#checkPhoto(this.prepared.blob);
    } catch (error) {
      this.forget();
      this.problem = photoProblem(context.texts, error);
    } finally {
      this.preparing = false;
      context.panel.requestUpdate();
    }
  }

  /** The photo on screen goes (another photo, a refused one, "Forget my photo"): its check stops. */
  forget(): void {
    this.prepared = undefined;
    this.thumbnail = undefined;
    if (this.check !== 'loading') this.check?.cancel();
    this.check = undefined;
    this.#context.panel.requestUpdate();
  }

  /** The photo now on screen was uploaded as `handle`: its thumbnail is the "before" of its try-ons. */
  uploaded(handle: string): void {
    if (this.thumbnail) beforeImages.set(handle, this.thumbnail);
  }

  /** The photo this tab uploaded last is used again: its thumbnail, when this page made one. */
  reused(handle: string): void {
    this.thumbnail = beforeImages.get(handle);
  }

  /** The "before" of a try-on made with the photo `handle`, when sent from this page. */
  before(handle: string | undefined): string | undefined {
    return handle ? beforeImages.get(handle) : undefined;
  }

  /** "Forget my photo": every thumbnail of every photo this tab kept goes too. */
  forgetAll(): void {
    for (const url of new Set([...beforeImages.values(), this.thumbnail ?? ''])) if (url) URL.revokeObjectURL(url);
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
    this.#context.panel.requestUpdate();
  }

  /** The photo check, before anything is uploaded (`photo-check` attribute): its chunk is fetched only now. */
  async #checkPhoto(photo: Blob): Promise<void> {
    const context = this.#context;
    const attribute = context.host.getAttribute('photo-check');
    const { variant } = context.run.subject;
    const report = (verdict: CheckVerdict) =>
      context.emit('tryon-photo-check', { ...tryonSubject(context.host.product, variant), ...verdict });
    if (attribute === 'off') return report({ result: 'skipped', reasons: [], mode: 'off' });
    this.check = 'loading';
    context.panel.requestUpdate();
    try {
      // The chunk and the product's answer together: a photo chosen before the product was known
      // waits for it, so a garment that needs the whole body is never checked as one that does not.
      const [{ PhotoCheck }, needsFullBody] = await Promise.all([
        import('./check/photo-check.js'),
        context.run.needsFullBody(),
      ]);
      if (this.prepared?.blob !== photo) return;
      this.check = new PhotoCheck({
        photo,
        attribute,
        needsFullBody,
        language: context.texts.code,
        emit: report,
        changed: () => {
          context.focusStep();
          context.panel.requestUpdate();
        },
        announce: (text) => context.announce(text),
        chooseAnother: () => context.root.querySelector<HTMLInputElement>('#file')?.click(),
      });
    } catch (error) {
      // Its chunk did not load: the shopper goes on unchecked, and the page is told.
      console.warn(`<tryon-button>: the photo check did not load (${String(error)}); the photo goes on unchecked.`);
      if (this.prepared?.blob === photo) this.check = undefined;
      report({ result: 'unavailable', reasons: [], mode: attribute === 'strict' ? 'strict' : 'warn' });
    }
    context.panel.requestUpdate();
  }
}
