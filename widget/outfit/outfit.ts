// "Complete the look", as a controller created once with the panel: whether the result on screen
// offers it (a finished image try-on of a product with pieces that go with it), and the look
// itself (look.ts), a chunk of its own loaded only then, so the panel carries this small part alone.
// A new base try-on (another photo, colour or product) is a new outfit.
import { html, nothing } from 'lit';
import type { ReactiveController } from 'lit';
import type { Look, OutfitContext, ShownLook } from './look.js';

export type { OutfitContext } from './look.js';

export class Outfit implements ReactiveController {
  #look: Look | undefined;
  #load: Promise<typeof import('./look.js')> | undefined;
  /** The base try-on for which the look's chunk did not load (offline, a file missing on the shop's server): said where it would be. */
  #failedFor: string | undefined;
  readonly #context: OutfitContext;

  constructor(context: OutfitContext) {
    this.#context = context;
    context.panel.addController(this);
  }

  /** The base try-on on screen (or to return to), when it offers pieces: finished, an image, of a product with pairs. */
  get #base(): string | undefined {
    const { run } = this.#context;
    const { status, resume, complete, output, tryon } = run.session;
    // Closed on the result, the outfit is kept for reopening: the base is where the dialog returns to.
    const at = status === 'idle' ? resume : status;
    const offered = at === 'result' && complete && output === 'image' && (run.product?.pairs?.length ?? 0) > 0;
    return offered ? tryon : undefined;
  }

  /** Before each render: the look for the base on screen, its chunk loaded once; another base ends the outfit. */
  hostUpdate(): void {
    const base = this.#base;
    if (this.#look && this.#look.base !== base) {
      this.#look.stop();
      this.#look = undefined;
    }
    // A chunk that did not load is asked for again with the next result, not at every render.
    if (!base || this.#look || this.#failedFor === base) return;
    this.#load ??= import('./look.js').then((module) => {
      module.adoptLookStyles(this.#context.root);
      return module;
    });
    this.#load.then(
      (module) => {
        if (this.#look || this.#base !== base) return;
        this.#failedFor = undefined;
        this.#look = new module.Look(this.#context, base);
        this.#context.panel.requestUpdate();
      },
      (error: unknown) => {
        this.#load = undefined;
        if (this.#failedFor === base) return;
        this.#failedFor = base;
        console.warn('<tryon-button>: "Complete the look" could not be loaded.', error);
        this.#context.panel.requestUpdate();
      },
    );
  }

  hostDisconnected(): void {
    this.#look?.stop();
  }

  /** The look on the result: its pieces and words, once a piece is added (the cart's "Add the look"). */
  get look(): Look | undefined {
    return this.#look?.layers ? this.#look : undefined;
  }

  /** What the result shows instead of the base try-on, when the outfit has a piece (or a piece's first look). */
  shown(): ShownLook | undefined {
    return this.#base ? this.#look?.shown() : undefined;
  }

  /** The outfit's part of the result step. */
  view(): unknown {
    if (!this.#base) return nothing;
    if (this.#look) return this.#look.view();
    return this.#failedFor === this.#base
      ? html`<p class="error" part="error" role="alert">${this.#context.texts.t('alternativesNotLoaded')}</p>`
      : nothing;
  }
}
