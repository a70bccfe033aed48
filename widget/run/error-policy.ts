// What an error means for the shopper's try-on: which step "Try again" goes back to, and which
// handles the tab should forget. Pure: the run controller applies it.
import { noAnswer, ProxyCallError } from '../api/proxy-client.js';
import type { FailedStage } from './session.js';
import type { Strings } from '../i18n/en.js';

/** Error codes that mean "this photo will not do": trying again means choosing another. */
const photoCodes = new Set(['unsupported_media_type', 'photo_too_small', 'file_too_large', 'photo_limit_reached']);
/** Error codes that mean a handle is gone: start again from the photo. */
const handleCodes = new Set(['expired_handle', 'invalid_handle', 'not_found']);

/**
 * The try-on service no longer has the uploaded photo (it restarted, or keeps uploads less long
 * than the proxy's handle lives): the photo must be sent again, so "Try again" goes to the photo
 * step, where the photo chosen on this page is kept, and the tab's last photo is forgotten.
 */
const photoGoneCode = 'photo_expired';

/** The codes whose words end "start again with your photo" (`not_found` has the generic words). */
const startAgainCodes = new Set(['expired_handle', 'invalid_handle', photoGoneCode]);

/**
 * Codes no "Try again" can get past today: the day's budget or the shopper's own daily try-ons are
 * spent, or the shop's set-up refuses this page. The error step offers only Close for them.
 */
const notTodayCodes = new Set([
  'daily_limit_reached',
  'daily_budget_reached',
  'origin_not_allowed',
  'unauthorized',
  'proxy_misconfigured',
]);

/** Whether an error says the product cannot be tried on now (checked on every opening). */
export const unavailableNow = (error: unknown): boolean =>
  error instanceof ProxyCallError &&
  error.status === 200 &&
  (error.code === 'daily_budget_reached' || error.code === 'unknown_product');

/** True when the proxy refused the photo itself, so offering to send it again would be a dead end. */
export const photoRefused = (code: string | undefined): boolean => photoCodes.has(code ?? '');

/**
 * The error step's one way on, named as its words name it: a lost try-on says "start again with
 * your photo", so its button does too (and takes the shopper straight to the photo step).
 */
export const actionLabel = (code: string | undefined): keyof Strings | undefined =>
  notTodayCodes.has(code ?? '') ? undefined : startAgainCodes.has(code ?? '') ? 'startAgain' : 'tryAgain';

export const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';

export interface Failure {
  code: string;
  retryable: boolean;
  /** The step "Try again" starts from. */
  stage: FailedStage;
  /** The stored try-on (and, unless it failed while watching, the stored photo) is gone upstream. */
  forgetTryon: boolean;
  forgetPhoto: boolean;
}

/**
 * Reads an error thrown at `stage`: a proxy error keeps its code; a network failure is `offline`
 * when the device is, else `not_answering` (the shop's try-on service).
 */
export function failure(stage: FailedStage, error: unknown): Failure {
  let code = error instanceof ProxyCallError ? error.code : 'generic';
  if (error instanceof TypeError) code = noAnswer().code;
  const retryable = error instanceof ProxyCallError ? error.retryable : true;
  const gone = handleCodes.has(code);
  const photoGone = code === photoGoneCode;
  let failed: FailedStage = stage;
  if (photoCodes.has(code) || gone || photoGone) failed = 'photo';
  else if (code === 'unknown_product') failed = 'product';
  // An invalid handle is one the proxy cannot open at all (its secret changed): the photo's handle,
  // sealed the same way, is dead too, so "Use my last photo" must not offer it. An expired try-on
  // may still have a live photo.
  return {
    code,
    retryable,
    stage: failed,
    forgetTryon: gone,
    forgetPhoto: code === 'invalid_handle' || photoGone || (gone && stage !== 'watch'),
  };
}
