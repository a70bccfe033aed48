// The cart report (POST /tryons/{h}/cart): the widget says "Add the look to cart" put an outfit's
// pieces in the cart, for the merchant's GET /usage (pieces added to cart). Read bounded like a
// try-on request; only pieces of the outfit the handle names are counted, so a report cannot
// inflate the figures with products it never tried on.
import { z } from 'zod';
import { ProxyError } from '../../http/errors.js';
import { readBoundedText, refuseDeclaredLength } from '../../http/streams.js';
import type { OutfitPiece } from '../../security/handles.js';

const cartReport = z.strictObject({
  pieces: z
    .array(
      z.strictObject({
        product: z.string().min(1).max(128),
        variant: z.string().min(1).max(64).optional(),
      }),
    )
    .min(1)
    .max(12),
});

/** How many pieces of `outfit` the report says were added (400 not JSON, 422 a piece not of the outfit). */
export async function readCartReport(
  request: Request,
  limits: { jsonBytes: number },
  outfit: OutfitPiece[],
): Promise<number> {
  const tooLarge = () => new ProxyError(413, 'invalid_request', 'The request is too large.');
  refuseDeclaredLength(request.headers, limits.jsonBytes, tooLarge);
  const text = await readBoundedText(request.body, limits.jsonBytes, tooLarge);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProxyError(400, 'invalid_request', 'The request body must be JSON.');
  }
  const parsed = cartReport.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProxyError(
      422,
      'validation_failed',
      `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'is not valid'}`,
    );
  }
  const products = new Set(parsed.data.pieces.map((piece) => piece.product));
  const strangers = [...products].filter((product) => !outfit.some((piece) => piece.product === product));
  if (strangers.length > 0)
    throw new ProxyError(422, 'validation_failed', `pieces: ${strangers.join(', ')} is not in this try-on's outfit`);
  return products.size;
}
