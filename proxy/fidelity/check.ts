// The fidelity check: is a try-on's output true to the product? Per view, the output's garment
// region (garment-region.ts) against the garment's own palette (palette.ts) as a CIEDE2000
// difference (colour.ts), the garment's extent against its category's (coverage.ts), and the
// output itself (the views asked for, each decodable, of the expected size). What it cannot judge
// it calls `unchecked` with the reason, never `true`. Thresholds and what the check can and cannot
// see: docs/fidelity.md. Web-standard only: it runs in the proxy on Node and on Workers alike.
import { deltaE2000, distance76, isSkinTone } from './colour.js';
import type { Lab } from './colour.js';
import { coverageOf } from './coverage.js';
import { garmentRegion } from './garment-region.js';
import { garmentPalette, mainColours } from './palette.js';
import type { GarmentPalette, PaletteColour } from './palette.js';
import { readPicture, UnreadablePicture } from './picture.js';

export type FidelityVerdict = 'true' | 'differs' | 'unchecked';
export type GarmentCoverage = 'ok' | 'missing' | 'partial';
export interface ViewFidelity {
  view: string;
  colour: { deltaE: number };
  coverage: GarmentCoverage;
}
/** reason: why unchecked / what differed, for logs and docs. */
export interface Fidelity {
  verdict: FidelityVerdict;
  views: ViewFidelity[];
  reason?: string;
}
export interface FidelityInput {
  /** The variant's garment image, as the catalog gives it to upstream. */
  garment: { bytes: Uint8Array; contentType: string };
  /** The product's garment category (saree, lehenga, dress, sherwani, kurta, …). */
  category: string;
  /** null: the output could not be fetched. */
  views: Array<{ view: string; bytes: Uint8Array | null; contentType: string }>;
  expectedViews: string[];
  expectedSize?: { width: number; height: number };
  /** Past it the answer is `unchecked`, reason `over_budget`. */
  cpuBudgetMs?: number;
}

/**
 * A view's colour difference above this is `differs` (CIEDE2000 with textiles' lightness weight,
 * kL = 2). Set from the labelled set (test/proxy/fidelity-labelled.test.ts): above every faithful
 * render the sandbox makes, below a drift of ΔE 10.
 */
export const DIFFERS_ABOVE = 6.5;
/** A palette colour the output shows within this (CIEDE2000, kL = 2) still counts as the garment's, for coverage. */
const STILL_THE_GARMENT = 16;
/** A garment colour covering at least this share of it (or its main colour) says where the garment is. */
const COVERAGE_SHARE = 0.2;
/** Output pixels this near (CIE76) one of the output's colours that stands for the garment are the garment's. */
const SAME_COLOUR = 14;
/** A garment colour is matched only with an output colour covering at least this part of its own share. */
const MATCH_SHARE = 0.2;
/** An output colour covering less than this share of the garment region is not matched (a speck, an edge). */
const OUTPUT_LEAST = 0.03;
/** The difference a view is given when it has nothing of the garment to compare (no output, or no figure). */
export const NOTHING_TO_COMPARE = 100;
/** The garment's colours that are compared: the main ones, covering at least this share of it. */
const PALETTE_LEAST = 0.04;

/** Textile lightness weight (CIE 116): folds and shade change a cloth's lightness more than its colour. */
const KL = 3;

const round = (n: number) => Math.round(n * 10) / 10;

function compareView(
  palette: PaletteColour[],
  category: string,
  bytes: Uint8Array,
  keepSkin: boolean,
): { deltaE: number; coverage: GarmentCoverage; size: { width: number; height: number } } {
  const picture = readPicture(bytes);
  const region = garmentRegion(picture, keepSkin);
  if (!region || region.pixels.length === 0)
    return { deltaE: NOTHING_TO_COMPARE, coverage: 'missing', size: picture.source };
  // Each garment colour is matched with the output's main colour nearest it (lightness weighed a
  // third: shade and folds), and the difference is measured there. A drift moves that colour
  // whole; the backdrop behind the figure, or a sky in an arch, cannot stand in for the garment
  // unless it is nearer the garment's colour than the drifted garment is.
  const outputColours = mainColours(region.pixels, 10, OUTPUT_LEAST);
  let weighted = 0;
  let weights = 0;
  let main = 0;
  const shown: Lab[] = [];
  for (const [k, colour] of palette.entries()) {
    let best: Lab | null = null;
    let difference = NOTHING_TO_COMPARE;
    for (const candidate of outputColours) {
      // A garment's main colour is matched with a main colour of the output, not a patch of it.
      if (candidate.share < colour.share * MATCH_SHARE) continue;
      const d = deltaE2000(colour.lab, candidate.lab, KL);
      if (d < difference) {
        difference = d;
        best = candidate.lab;
      }
    }
    weighted += colour.share * difference;
    weights += colour.share;
    if (k === 0) main = difference;
    // Coverage follows the garment's body, not its trims: a thin border's colour is too easily
    // matched by the shopper's own clothes.
    if (best && difference <= STILL_THE_GARMENT && (k === 0 || colour.share >= COVERAGE_SHARE)) shown.push(best);
  }
  // The garment's main colour counts whole: its trims matching the shopper's own clothes must not
  // hide that its body does not.
  const deltaE = weights ? Math.max(main, weighted / weights) : NOTHING_TO_COMPARE;
  const { coverage } = coverageOf(region, category, (i) =>
    shown.some((colour) => distance76(region.pixels[i]!, colour) <= SAME_COLOUR),
  );
  return { deltaE, coverage, size: picture.source };
}

/** FNV-1a over the bytes: which garment image this is, for the palettes kept. */
function digestOf(bytes: Uint8Array): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return `${bytes.length}:${(hash >>> 0).toString(36)}`;
}

/**
 * The last few garment palettes, by their image: a shop's try-ons come back to the same garments,
 * and reading a garment image costs more than reading an output view.
 */
const keptPalettes = new Map<string, GarmentPalette>();
const KEPT_PALETTES = 64;

/** The garment image's palette (kept for the next try-on of the same image). */
export function paletteOf(bytes: Uint8Array): GarmentPalette {
  const key = digestOf(bytes);
  const kept = keptPalettes.get(key);
  if (kept) {
    keptPalettes.delete(key);
    keptPalettes.set(key, kept);
    return kept;
  }
  const palette = garmentPalette(readPicture(bytes));
  keptPalettes.set(key, palette);
  if (keptPalettes.size > KEPT_PALETTES) keptPalettes.delete(keptPalettes.keys().next().value!);
  return palette;
}

/**
 * Pieces worn over another garment (a dupatta, a stole, an open jacket): the check compares one
 * garment's colours with the whole clothed figure and cannot tell the piece from what is beneath
 * it, so it would call every faithful render of one `differs`. Such a try-on is `unchecked`
 * (reason `worn_over`), as is any piece put over an earlier result (the proxy's result check).
 */
export const WORN_OVER: readonly string[] = ['dupatta', 'stole', 'jacket', 'shawl'];

export function checkFidelity(input: FidelityInput): Promise<Fidelity> {
  if (WORN_OVER.includes(input.category.toLowerCase()))
    return Promise.resolve({ verdict: 'unchecked', views: [], reason: 'worn_over' });
  return Promise.resolve(check(input));
}

function check(input: FidelityInput): Fidelity {
  const started = performance.now();
  const overBudget = () => input.cpuBudgetMs !== undefined && performance.now() - started > input.cpuBudgetMs;
  let palette: GarmentPalette;
  try {
    palette = paletteOf(input.garment.bytes);
  } catch (error) {
    const reason = error instanceof UnreadablePicture ? error.reason : 'undecodable';
    return { verdict: 'unchecked', views: [], reason: `garment_${reason}` };
  }
  const colours = palette.colours.filter((c) => c.share >= PALETTE_LEAST);
  if (colours.length === 0) return { verdict: 'unchecked', views: [], reason: 'garment_not_found' };
  const skinLike = colours.reduce((sum, c) => sum + (isSkinTone(c.lab) ? c.share : 0), 0);
  const keepSkin = skinLike >= 0.3;

  const views: ViewFidelity[] = [];
  const problems: string[] = [];
  for (const expected of input.expectedViews)
    if (!input.views.some((v) => v.view === expected)) {
      views.push({ view: expected, colour: { deltaE: NOTHING_TO_COMPARE }, coverage: 'missing' });
      problems.push(`${expected}: view_missing`);
    }
  for (const output of input.views) {
    if (overBudget()) return { verdict: 'unchecked', views: [], reason: 'over_budget' };
    if (output.bytes === null) return { verdict: 'unchecked', views: [], reason: `${output.view}: output_unavailable` };
    let compared: ReturnType<typeof compareView>;
    try {
      compared = compareView(colours, input.category, output.bytes, keepSkin);
    } catch (error) {
      if (error instanceof UnreadablePicture && error.reason === 'undecodable') {
        views.push({ view: output.view, colour: { deltaE: NOTHING_TO_COMPARE }, coverage: 'missing' });
        problems.push(`${output.view}: output_undecodable`);
        continue;
      }
      const reason = error instanceof UnreadablePicture ? error.reason : 'undecodable';
      return { verdict: 'unchecked', views: [], reason: `${output.view}: output_${reason}` };
    }
    const deltaE = round(compared.deltaE);
    views.push({ view: output.view, colour: { deltaE }, coverage: compared.coverage });
    const size = input.expectedSize;
    if (size && (compared.size.width !== size.width || compared.size.height !== size.height))
      problems.push(
        `${output.view}: size ${compared.size.width}x${compared.size.height}, not ${size.width}x${size.height}`,
      );
    if (deltaE > DIFFERS_ABOVE) problems.push(`${output.view}: colour ΔE ${deltaE}`);
    if (compared.coverage !== 'ok') problems.push(`${output.view}: coverage ${compared.coverage}`);
  }
  if (overBudget()) return { verdict: 'unchecked', views: [], reason: 'over_budget' };
  return problems.length > 0 ? { verdict: 'differs', views, reason: problems.join('; ') } : { verdict: 'true', views };
}
