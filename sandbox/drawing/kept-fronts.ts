// The last few front renders, by what they were made from. A front is a pure function of its
// inputs (the photo's bytes, the garment's, the mode, the backdrop, the category and drape, and the tier), and a shop's
// demo, like the tests, tries the same photo on the same garment again and again (a catalog after
// a first look, a retry, another shopper on the shop's model): drawing it once saves the sandbox's
// costliest step without changing a pixel. Each job still waits its own drawn time, captions its
// own views and gets its own output files; only the drawing of the front is shared.
import { createHash } from 'node:crypto';
import type { Front } from './picture.js';
import type { Tier } from '../api/tiers.js';

export interface FrontInputs {
  person: Uint8Array;
  garment: Uint8Array;
  garmentFromPerson: boolean;
  background: string;
  /** The garment's category and drape: the dressing differs by them. */
  category: string;
  subtype?: string | undefined;
  tier: Tier;
}

/** What identifies a front: a digest of the bytes and the settings it is drawn with. */
export function frontKey(inputs: FrontInputs): string {
  const hash = createHash('sha256');
  for (const bytes of [inputs.person, inputs.garment]) {
    hash.update(String(bytes.byteLength)).update(':').update(bytes);
  }
  hash.update(
    JSON.stringify([inputs.garmentFromPerson, inputs.background, inputs.category, inputs.subtype ?? null, inputs.tier]),
  );
  return hash.digest('hex');
}

/** Up to `size` fronts, least recently used dropped first; a front that failed to draw is never kept. */
export class KeptFronts {
  readonly #fronts = new Map<string, Promise<Front>>();

  constructor(private readonly size = 4) {}

  /** The front for these inputs, drawn by `draw` unless kept; `kept` says which (for the job's log). */
  get(inputs: FrontInputs, draw: () => Promise<Front>): { front: Promise<Front>; kept: boolean } {
    const key = frontKey(inputs);
    const known = this.#fronts.get(key);
    if (known) {
      this.#fronts.delete(key);
      this.#fronts.set(key, known);
      return { front: known, kept: true };
    }
    const front = draw();
    front.catch(() => this.#fronts.delete(key));
    this.#fronts.set(key, front);
    while (this.#fronts.size > this.size) this.#fronts.delete(this.#fronts.keys().next().value!);
    return { front, kept: false };
  }
}

/**
 * The fronts of the last few results, by the bytes of their front view's output: a person file
 * with the same bytes is that result sent back (an outfit's next piece is rendered over it, the
 * proxy uploading the output as a person file), and the piece is drawn over the result's own
 * layers rather than over a photo of it (render.ts, renderOver).
 */
export class KeptResults {
  readonly #fronts = new Map<string, Front>();

  constructor(private readonly size = 16) {}

  static key(bytes: Uint8Array): string {
    return createHash('sha256').update(bytes).digest('hex');
  }

  remember(output: Uint8Array, front: Front): void {
    const key = KeptResults.key(output);
    this.#fronts.delete(key);
    this.#fronts.set(key, front);
    while (this.#fronts.size > this.size) this.#fronts.delete(this.#fronts.keys().next().value!);
  }

  /** The front a result with these bytes was rendered from, if it is one of the last few. */
  of(person: Uint8Array): Front | undefined {
    return this.#fronts.get(KeptResults.key(person));
  }
}
