// Whether the garment is where its category says it is worn: a saree or a lehenga to the ankle, a
// dress to its hem, a sherwani or a kurta to the knee … as a share of the figure's height from the
// top of the head (0) to the feet (1), read on a standing figure. The garment's extent is the
// lowest row its colours still cover a good part of; compared with where the category ends.
import type { GarmentRegion } from './garment-region.js';

export type GarmentCoverage = 'ok' | 'missing' | 'partial';

/** Where each category's garment ends on a standing figure (share of the figure's height). */
export const GARMENT_ENDS: Record<string, number> = {
  saree: 0.9,
  lehenga: 0.9,
  gown: 0.9,
  anarkali: 0.85,
  suit: 0.9,
  jumpsuit: 0.9,
  dress: 0.68,
  sherwani: 0.66,
  kurta: 0.62,
  bandhgala: 0.5,
};
/** A category not listed is judged to the hips. */
export const DEFAULT_END = 0.48;

/** How far above its category's end a garment may stop and still count as whole (folds, a short hem, a pose). */
export const END_TOLERANCE = 0.14;
/** Below this share of the body (under the head) in the garment's colours, the garment is missing. */
export const LEAST_GARMENT_SHARE = 0.08;
/** A row is the garment's when this share of the figure on it is in the garment's colours. */
const ROW_SHARE = 0.15;

/**
 * The coverage from which of the region's pixels are in the garment's colours (`isGarment`), and
 * the garment's lowest point as a share of the figure's height.
 */
export function coverageOf(
  region: GarmentRegion,
  category: string,
  isGarment: (index: number) => boolean,
): { coverage: GarmentCoverage; end: number; share: number } {
  const perRow = new Uint32Array(region.figureRows.length);
  let count = 0;
  for (let i = 0; i < region.pixels.length; i++)
    if (isGarment(i)) {
      perRow[region.rows[i]!]!++;
      count++;
    }
  const share = region.bodyPixels ? count / region.bodyPixels : 0;
  const height = Math.max(1, region.figureBottom - region.figureTop);
  let lowest = -1;
  for (let y = region.figureBottom; y >= region.figureTop; y--)
    if (perRow[y]! >= Math.max(2, region.figureRows[y]! * ROW_SHARE)) {
      lowest = y;
      break;
    }
  const end = lowest < 0 ? 0 : (lowest - region.figureTop) / height;
  if (share < LEAST_GARMENT_SHARE || lowest < 0) return { coverage: 'missing', end, share };
  const expected = GARMENT_ENDS[category.toLowerCase()] ?? DEFAULT_END;
  return { coverage: end < expected - END_TOLERANCE ? 'partial' : 'ok', end, share };
}
