// "See all colours": the other colours of the product on the shopper, as draft previews made with
// the photo of the result on screen (no new upload). Each colour is its own small try-on at the
// draft tier (`quality: "preview"`), reserved and counted by the proxy, which also holds the cap:
// the product's `colourPreviews` says how many the widget asks for, and a refusal beyond it
// (`colour_preview_limit`) is shown on that colour, never hidden.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { TryonOutput } from './events.js';
import type { ProductInfo } from './proxy-client.js';
import { ProxyError } from './proxy-client.js';
import type { ProxyStatus } from './session.js';
import { isAbort } from './error-policy.js';

export type ColourState = 'making' | 'ready' | 'failed' | 'limit';

export interface ColourTile {
  variant: string;
  name: string;
  state: ColourState;
  /** The draft's front image, once ready. */
  output?: TryonOutput;
}

/** Makes one colour's draft; resolves with its final answer. */
export type MakeColourPreview = (variant: string, signal: AbortSignal) => Promise<ProxyStatus>;

/** The colours "See all colours" previews: the product's others, up to its cap; none when it is off. */
export function coloursToPreview(product: ProductInfo | undefined, shown: string | undefined): { id: string; name: string }[] {
  const cap = Math.max(0, Math.floor(product?.colourPreviews ?? 0));
  if (!cap || !product?.variants?.length) return [];
  return product.variants.filter((v) => v.id !== shown).slice(0, cap);
}

export class ColourPreviews implements ReactiveController {
  /** The tiles, by colour, for the photo they were made with. */
  tiles: ColourTile[] = [];
  /** The grid is on screen (instead of the result). */
  open = false;
  #photo: string | undefined;
  #abort: AbortController | undefined;
  readonly #host: ReactiveControllerHost;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  hostDisconnected(): void {
    this.reset();
  }

  /** Every colour has its answer (a draft, or a failure said on its tile). */
  get settled(): boolean {
    return this.tiles.length > 0 && this.tiles.every((t) => t.state !== 'making');
  }

  /**
   * Opens the grid for `photo`. Colours already previewed with this photo are kept (each was paid
   * for once); the others are asked for now, all at once.
   */
  show(photo: string, colours: { id: string; name: string }[], make: MakeColourPreview): void {
    if (photo !== this.#photo) this.reset();
    this.#photo = photo;
    this.open = true;
    this.#abort ??= new AbortController();
    const signal = this.#abort.signal;
    for (const colour of colours) {
      if (this.tiles.some((t) => t.variant === colour.id)) continue;
      const tile: ColourTile = { variant: colour.id, name: colour.name, state: 'making' };
      this.tiles = [...this.tiles, tile];
      make(colour.id, signal).then((answer) => {
        const output = answer.status === 'succeeded' ? answer.outputs.find((o) => o.type === 'image') : undefined;
        this.#update(colour.id, output ? { state: 'ready', output } : { state: 'failed' });
      }, (error: unknown) => {
        if (isAbort(error) || signal.aborted) return;
        const limit = error instanceof ProxyError && error.code === 'colour_preview_limit';
        this.#update(colour.id, { state: limit ? 'limit' : 'failed' });
      });
    }
    this.#host.requestUpdate();
  }

  hide(): void {
    this.open = false;
    this.#host.requestUpdate();
  }

  /** Another photo, a forgotten one, another product: the previews of the old photo stop and go. */
  reset(): void {
    this.#abort?.abort();
    this.#abort = undefined;
    this.#photo = undefined;
    this.tiles = [];
    this.open = false;
  }

  /** The photo the tiles were made with. */
  get photo(): string | undefined {
    return this.#photo;
  }

  #update(variant: string, change: Partial<ColourTile>): void {
    this.tiles = this.tiles.map((t) => (t.variant === variant ? { ...t, ...change } : t));
    this.#host.requestUpdate();
  }
}
