// The one error shape every answer uses: {"error":{"code","message","retryable"}}.
// A ProxyError carries what the shopper's widget needs to pick words and decide on a retry;
// anything else thrown inside the app is a bug and becomes a 500 without details.

/**
 * Every code the proxy answers, the one list: the widget's dictionaries give each its own words
 * (test/widget/error-texts.test.ts enumerates this list), and GET /usage counts them by code.
 * `proxy_misconfigured` is the Worker's answer before the app exists (worker.ts); `render_failed`
 * and `upstream_lost` come in a try-on's status rather than as an answer (so does
 * `upstream_unavailable`, when upstream stayed down past the try-on's bound: tryons/give-up.ts).
 */
export const ERROR_CODES = [
  'invalid_request',
  'consent_required',
  'validation_failed',
  'unknown_product',
  'unknown_variant',
  'not_found',
  'invalid_handle',
  'expired_handle',
  'origin_not_allowed',
  'file_too_large',
  'unsupported_media_type',
  'photo_too_small',
  'photo_has_metadata',
  'rate_limited',
  'photo_limit_reached',
  'daily_budget_reached',
  'view_not_offered',
  'video_not_offered',
  'upstream_auth',
  'out_of_credits',
  'upstream_unavailable',
  'upstream_timeout',
  'render_failed',
  'invalid_signature',
  'store_unavailable',
  'internal_error',
  'daily_limit_reached',
  'method_not_allowed',
  'upload_timeout',
  'too_many_streams',
  'unauthorized',
  'proxy_misconfigured',
  'colour_preview_limit',
  'colour_previews_off',
  'unknown_model',
  'handoff_used',
  'handoff_expired',
  'handoff_unknown',
  'handoff_waiting',
  'handoff_confirmed',
  'handoff_wrong_number',
  'handoff_tries_used',
  'upstream_lost',
  'photo_expired',
  // An outfit's piece over a try-on (POST /tryons `over`).
  'not_a_pair',
  'base_not_ready',
  'outfit_too_long',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 408 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504;

export interface ErrorBody {
  error: { code: ErrorCode | string; message: string; retryable: boolean };
}

export class ProxyError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: ErrorCode,
    message: string,
    readonly retryable = false,
    /** Seconds; sent as Retry-After. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ProxyError';
  }

  body(): ErrorBody {
    return { error: { code: this.code, message: this.message, retryable: this.retryable } };
  }

  toResponse(extraHeaders: Record<string, string> = {}): Response {
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', ...extraHeaders };
    if (this.retryAfter !== undefined) headers['retry-after'] = String(Math.max(1, Math.ceil(this.retryAfter)));
    return new Response(JSON.stringify(this.body()), { status: this.status, headers });
  }
}

export const isProxyError = (value: unknown): value is ProxyError => value instanceof ProxyError;

/**
 * The answer to an error nobody foresaw: logged in full (never shown), answered as a retryable 500
 * with nothing of the error in it. The app's and the admin listener's onError both end here.
 */
export function answerInternalError(
  error: Error,
  requestId: string | undefined,
  log: (entry: Record<string, unknown>) => void,
  headers: Record<string, string> = {},
): Response {
  log({ level: 'error', event: 'internal_error', requestId, name: error.name, message: error.message });
  return new ProxyError(500, 'internal_error', 'Something went wrong on our side; please try again.', true).toResponse(
    headers,
  );
}

/** Upstream refused our request as malformed (a 4xx other than auth, credits, limits, size, type). */
export class UpstreamRejected extends ProxyError {
  constructor(
    readonly upstreamStatus: number,
    /** The request fields upstream named in its refusal (its `error.details[].field`), if any. */
    readonly fields: readonly string[] = [],
  ) {
    super(502, 'upstream_unavailable', 'The try-on service refused the request.', false);
    this.name = 'UpstreamRejected';
  }
}
