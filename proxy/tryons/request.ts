// What the browser may send to start a try-on: a product id and which of its variants, a photo
// handle, its consent, a requestId that makes a retry the same try-on, and at most a narrowing of
// views or a wish for video. Or, instead of a photo, one of the shop's models (no consent: the picture is the shop's),
// or a finished try-on to render this piece over (an outfit: consent follows that try-on's photo). Read bounded, then checked; consent is asked for before anything else is judged.
import { z } from 'zod';
import { ProxyError } from '../http/errors.js';
import { readBoundedText, refuseDeclaredLength } from '../http/streams.js';
import { timedBody } from '../http/upload-deadlines.js';

const tryonRequest = z.object({
  product: z.string().min(1).max(128),
  // Exactly one of the two: the shopper's photo (a handle), or one of the shop's models by id.
  photo: z.string().min(1).max(4096).optional(),
  model: z.string().min(1).max(64).optional(),
  // Or a piece of an outfit: rendered over the finished result of this try-on (its handle), whose
  // photo's consent it follows.
  over: z.string().min(1).max(4096).optional(),
  consent: z.unknown().optional(),
  // Which consent text the shopper saw: the first 16+ hex digits of the SHA-256 of its exact
  // words, and its language. Optional, so clients that only send `consent: true` still work.
  consentVersion: z
    .string()
    .regex(/^[0-9a-f]{16,64}$/, 'must be 16 to 64 lowercase hex digits')
    .optional(),
  consentLanguage: z
    .string()
    .max(35)
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/, 'must be a language tag such as hi or bn-IN')
    .optional(),
  requestId: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'requestId must be 8 to 128 letters, digits, - or _'),
  views: z.array(z.string().max(40)).min(1).max(4).optional(),
  output: z.enum(['image', 'video']).optional(),
  // Checked against the product's variants by the route (unknown_variant); "" is no variant, as
  // an empty `variant` attribute on the button means.
  variant: z
    .string()
    .max(64)
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  // "preview": a colour draft (a draft of the chosen colour alone), where the catalog offers them.
  quality: z.enum(['full', 'preview']).optional(),
  // The browser may only turn the first look off (it only ever lowers what a try-on costs).
  preview: z.literal('off', { message: 'may only be "off"' }).optional(),
});

export type TryonRequest = z.infer<typeof tryonRequest>;

/**
 * The request's body as a try-on request: 413 too large, 408 stalled (the upload deadlines hold
 * for this small body too), 400 not JSON, 422 no consent or invalid.
 */
export async function readTryonRequest(
  request: Request,
  limits: { jsonBytes: number; uploadIdleMs: number; uploadTotalMs: number },
): Promise<TryonRequest> {
  const tooLarge = () => new ProxyError(413, 'invalid_request', 'The request is too large.');
  refuseDeclaredLength(request.headers, limits.jsonBytes, tooLarge);
  const timed = request.body ? timedBody(request.body, limits) : undefined;
  let text: string;
  try {
    text = await readBoundedText(timed?.stream ?? null, limits.jsonBytes, tooLarge);
  } finally {
    timed?.stop();
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProxyError(400, 'invalid_request', 'The request body must be JSON.');
  }
  // A model's picture is the shop's own: no consent is asked for it; a piece over a try-on follows
  // the consent its photo was given with.
  if (
    typeof body === 'object' &&
    body !== null &&
    (body as { model?: unknown }).model === undefined &&
    (body as { over?: unknown }).over === undefined &&
    (body as { consent?: unknown }).consent !== true
  ) {
    throw new ProxyError(422, 'consent_required', 'Please confirm that you agree before we use your photo.');
  }
  const parsed = tryonRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    throw new ProxyError(422, 'validation_failed', `${field}: ${issue?.message ?? 'is not valid'}`);
  }
  // `over` came after photo and model: sent with either it is 400 invalid_request, while photo with
  // model, or neither of the three, stays the 422 validation_failed it always was.
  const { photo, model, over } = parsed.data;
  if (over !== undefined && (photo !== undefined || model !== undefined)) {
    throw new ProxyError(
      400,
      'invalid_request',
      "Send exactly one of photo (your photo), model (one of the shop's models) and over (a try-on to add this piece to).",
    );
  }
  if (over === undefined && (photo === undefined) === (model === undefined)) {
    throw new ProxyError(422, 'validation_failed', 'photo, model, over: send exactly one of the three.');
  }
  return parsed.data;
}
