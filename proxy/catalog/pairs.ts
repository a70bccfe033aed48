// Pieces that complete a look: a product's `pairsWith` names other products of the same catalog
// (a dupatta for a lehenga), which the shopper may have rendered over a finished try-on of it. A
// catalog file naming one it does not have is refused at load, like a model it does not have; a
// shop's own lookup function cannot be checked whole, so there a piece it does not know is simply
// not listed (GET /products) and refused as not a pair (POST /tryons).
import { placeOf } from './schema.js';

/** Every `pairsWith` entry of a catalog file naming a product the file does not have, or the product itself. */
export function pairProblems(input: unknown): string[] {
  if (typeof input !== 'object' || input === null) return [];
  const { products } = input as { products?: unknown };
  if (typeof products !== 'object' || products === null) return [];
  const problems: string[] = [];
  for (const [id, product] of Object.entries(products)) {
    const named =
      typeof product === 'object' && product !== null ? (product as { pairsWith?: unknown }).pairsWith : undefined;
    if (!Array.isArray(named)) continue;
    for (const piece of named) {
      if (typeof piece !== 'string') continue;
      if (piece === id) problems.push(`${placeOf(id, ['pairsWith'])}: a product cannot pair with itself`);
      else if (!Object.hasOwn(products, piece))
        problems.push(`${placeOf(id, ['pairsWith'])}: product "${piece}" is not in the catalog's products`);
    }
  }
  return problems;
}

/** Whether `piece` is one of the pieces `base` lists. */
export const pairsWith = (base: { pairsWith?: string[] | undefined }, piece: string): boolean =>
  (base.pairsWith ?? []).includes(piece);
