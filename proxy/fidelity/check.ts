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
export const DIFFERS_ABOVE = 6.2;
/** A palette colour the output shows within this (CIEDE2000, kL = 2) still counts as the garment's, for coverage. */
const STILL_THE_GARMENT = 28;
/** Output pixels nearer a palette colour than this (CIE76) are taken as that colour, however drifted. */
const ASSIGN_WITHIN = 40;
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
  // Each output pixel is taken as the nearest palette colour (within reach), and each palette
  // colour's difference is measured on the median of its pixels, so a drift moves it whole.
  const assigned = new Int8Array(region.pixels.length).fill(-1);
  const members: Lab[][] = palette.map(() => []);
  region.pixels.forEach((pixel, i) => {
    let best = -1;
    let bestDistance = ASSIGN_WITHIN;
    palette.forEach((colour, k) => {
      const d = distance76(pixel, colour.lab);
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    });
    if (best >= 0) {
      assigned[i] = best;
      members[best]!.push(pixel);
    }
  });
  const outputColours = mainColours(region.pixels);
  let weighted = 0;
  let weights = 0;
  const shown: (Lab | null)[] = palette.map((colour, k) => {
    const own = members[k]!;
    // Too few of its pixels: the output's nearest main colour stands for it (a mixed-up variant).
    const seen =
      own.length >= Math.max(3, region.pixels.length * 0.02)
        ? medianOf(own)
        : (outputColours
            .map((c) => c.lab)
            .sort((x, y) => deltaE2000(colour.lab, x, KL) - deltaE2000(colour.lab, y, KL))[0] ?? null);
    const difference = seen ? deltaE2000(colour.lab, seen, KL) : NOTHING_TO_COMPARE;
    weighted += colour.share * difference;
    weights += colour.share;
    return seen && difference <= STILL_THE_GARMENT ? seen : null;
  });
  const deltaE = weights ? weighted / weights : NOTHING_TO_COMPARE;
  const { coverage } = coverageOf(region, category, (i) => {
    const k = assigned[i]!;
    return k >= 0 && shown[k] !== null && distance76(region.pixels[i]!, shown[k]!) <= ASSIGN_WITHIN / 2;
  });
  return { deltaE, coverage, size: picture.source };
}

function medianOf(pixels: Lab[]): Lab {
  const mid = (values: number[]) => values.sort((x, y) => x - y)[values.length >> 1]!;
  return { L: mid(pixels.map((p) => p.L)), a: mid(pixels.map((p) => p.a)), b: mid(pixels.map((p) => p.b)) };
}

/** The garment image's palette, or why it cannot be had. */
export function paletteOf(bytes: Uint8Array): GarmentPalette {
  return garmentPalette(readPicture(bytes));
}

export function checkFidelity(input: FidelityInput): Promise<Fidelity> {
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
