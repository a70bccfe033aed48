// "See all colours": the product's other colours on the shopper as colour drafts made with the
// photo of the result on screen (no new upload), each its own small try-on at the draft tier
// (sent as `quality: "preview"`), reserved and counted by the proxy. The product's `colourPreviews`
// says how many the widget asks for; the proxy holds the cap too, and a colour it refuses
// (`colour_preview_limit`) or that fails says so on its tile, never hidden.
import type { TryonOutput } from '../core/events.js';
import type { ProductInfo, ProxyStatus } from '../api/proxy-client.js';

export interface ColourTile {
  variant: string;
  name: string;
  /** Undefined while its draft is made; false when there is none to show. */
  output?: TryonOutput | false;
}

/** The colours "See all colours" drafts: the product's others, up to its cap; none when it is off. */
export function coloursToDraft(
  product: ProductInfo | undefined,
  shown: string | undefined,
): { id: string; name: string }[] {
  const cap = product?.colourPreviews ?? 0;
  return cap > 0 ? (product?.variants ?? []).filter((v) => v.id !== shown).slice(0, cap) : [];
}

export class ColourDrafts {
  tiles: ColourTile[] = [];
  /** The colours are on screen (instead of the result). */
  open = false;
  /** The colour the shopper chose to see large; until then, the first with its draft in. */
  #chosen: string | undefined;
  /** The photo the tiles were made with. */
  photo: string | undefined;
  #abort = new AbortController();

  constructor(readonly changed: () => void) {}

  /** The colour shown large: the one chosen, else the first whose draft is in, else the first. */
  get chosen(): ColourTile | undefined {
    return this.tiles.find((t) => t.variant === this.#chosen) ?? this.tiles.find((t) => t.output) ?? this.tiles[0];
  }

  /** The shopper chose a colour's thumbnail: it is shown large (at the panel's next render). */
  choose(variant: string): void {
    this.#chosen = variant;
  }

  /** Every colour has its answer. */
  get settled(): boolean {
    return this.tiles.length > 0 && this.tiles.every((t) => t.output !== undefined);
  }

  /** Opens the colours for `photo`: colours already drafted with it are kept (each was paid for once), the others asked for now. */
  show(
    photo: string,
    colours: { id: string; name: string }[],
    make: (variant: string, signal: AbortSignal) => Promise<ProxyStatus>,
  ): void {
    if (photo !== this.photo) this.reset();
    this.photo = photo;
    this.open = true;
    const { signal } = this.#abort;
    for (const { id, name } of colours) {
      if (this.tiles.some((t) => t.variant === id)) continue;
      this.tiles = [...this.tiles, { variant: id, name }];
      const settle = (output: TryonOutput | false) => {
        if (signal.aborted) return;
        this.tiles = this.tiles.map((t) => (t.variant === id ? { ...t, output } : t));
        this.changed();
      };
      make(id, signal).then(
        (answer) => settle((answer.status === 'succeeded' && answer.outputs.find((o) => o.type === 'image')) || false),
        () => settle(false),
      );
    }
    this.changed();
  }

  /** Another photo, a forgotten one, another product: the old photo's drafts stop and go. */
  reset(): void {
    this.#abort.abort();
    this.#abort = new AbortController();
    this.photo = undefined;
    this.#chosen = undefined;
    this.tiles = [];
    this.open = false;
  }
}
