// How the proxy talks to upstream at all: the key on every call, a timeout on every call (an idle
// timeout for streamed bodies), retries with jittered backoff for calls that are safe to repeat,
// and upstream's failures turned into our error shape. Knows no route and no answer's meaning.
import { ProxyError, UpstreamRejected } from '../http/errors.js';
import type { Log } from '../operator/log.js';
import { observeChunks, readBoundedText } from '../http/streams.js';

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  fetch?: typeof fetch | undefined;
  retries: number;
  retryBaseMs: number;
  log: Log;
  /** Hears every attempt: route (no ids), upstream status (0: none came) and milliseconds. */
  observe?: ((route: string, status: number, ms: number) => void) | undefined;
}

export interface SendOptions {
  /** Repeat on a retryable failure (reads, and the submit carrying an idempotency key). */
  retry: boolean;
  timeoutMs: number;
  /** Answer with the body still streaming (downloads); the timeout then covers the gap between chunks. */
  streamBody?: boolean;
  /**
   * Receives the timer's re-arm function: a streamed upload calls it on every chunk, so a slow
   * but moving shopper's upload is not cut, while a stalled one is.
   */
  onArm?: (arm: () => void) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How a call to upstream meets a redirect: never followed, since following would carry the key to
 * wherever upstream points. Node's fetch (undici) takes `error`, which also spares a streamed upload
 * the tee that `manual` and `follow` make (undici buffers the whole photo in the branch kept for
 * a redirect); workerd refuses `error` ("must be one of follow or manual"), so there we ask for `manual`
 * and turn the 3xx answer into an upstream error ourselves.
 */
export const redirectMode: RequestRedirect = (() => {
  try {
    new Request('http://upstream.invalid/', { redirect: 'error' });
    return 'error';
  } catch {
    return 'manual';
  }
})();

/** A redirect answer seen under `manual`: a 3xx, or the opaque-redirect response of the fetch standard. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/**
 * Failures after which upstream surely started nothing: every attempt was refused before upstream
 * could act on it (the connection was refused, or upstream answered a 3xx or 4xx). A timeout, a 5xx
 * or a connection lost mid-call may hide work upstream did, and so does an earlier such attempt
 * followed by a refusal: those failures are not in this set.
 */
const startedNothing = new WeakSet<object>();

/** Whether `error`, thrown by a call to upstream, proves that upstream started nothing. */
export const upstreamStartedNothing = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && startedNothing.has(error);

/** The connection was refused or the host is unknown: the request never reached upstream (Node's fetch says so in `cause.code`). */
function neverReached(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown; errors?: { code?: unknown }[] } } | undefined)?.cause;
  const refused = (code: unknown) => code === 'ECONNREFUSED' || code === 'ENOTFOUND';
  return (
    refused(cause?.code) ||
    (Array.isArray(cause?.errors) && cause.errors.length > 0 && cause.errors.every((each) => refused(each.code)))
  );
}

/** The largest refusal body read for its field names; a longer one is not read at all. */
const REFUSAL_BYTES = 16 * 1024;

/**
 * The field names a 400 or 422 refusal lists in `error.details[].field` (the shape the sandbox
 * answers, docs/upstream-api.md): only the names, never upstream's words, which are not passed on.
 * Any other answer, or one that cannot be read, names none.
 */
async function refusedFields(response: Response): Promise<string[]> {
  if (response.status !== 400 && response.status !== 422) return [];
  try {
    const text = await readBoundedText(response.body, REFUSAL_BYTES);
    const details = (JSON.parse(text) as { error?: { details?: unknown } } | null)?.error?.details;
    if (!Array.isArray(details)) return [];
    return details.flatMap((detail: unknown) => {
      const field = (detail as { field?: unknown } | null)?.field;
      return typeof field === 'string' && /^[a-z_.]{1,64}$/.test(field) ? [field] : [];
    });
  } catch {
    return [];
  }
}

export class UpstreamTransport {
  private readonly fetcher: typeof fetch;
  private readonly base: string;

  constructor(private readonly options: TransportOptions) {
    this.fetcher = options.fetch ?? ((input, init) => fetch(input, init));
    this.base = options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  }

  /**
   * `route` names the call in logs (`GET /v1/jobs/{id}`), never with an id in it. A failure is
   * marked for upstreamStartedNothing when no attempt can have started anything.
   */
  async send(route: string, path: string, init: RequestInit, how: SendOptions): Promise<Response> {
    const uncertain = { seen: false };
    try {
      return await this.attempts(route, path, init, how, uncertain);
    } catch (error) {
      if (!uncertain.seen && typeof error === 'object' && error !== null) startedNothing.add(error);
      throw error;
    }
  }

  /** `uncertain.seen` turns true at the first attempt that may have reached upstream and started something. */
  private async attempts(
    route: string,
    path: string,
    init: RequestInit,
    how: SendOptions,
    uncertain: { seen: boolean },
  ): Promise<Response> {
    const attempts = how.retry ? 1 + this.options.retries : 1;
    let lastError: ProxyError | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) {
        const backoff = this.options.retryBaseMs * 2 ** (attempt - 1) * (0.5 + Math.random());
        await sleep(backoff);
      }
      const controller = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const disarm = () => clearTimeout(timer);
      const arm = () => {
        disarm();
        timer = setTimeout(() => controller.abort(new DOMException('upstream timeout', 'TimeoutError')), how.timeoutMs);
        // The call it guards keeps the process alive while it runs; the timer alone never should (a
        // download nobody finished reading would otherwise hold a closed server's process for a
        // whole timeout). Node's timers have unref; a Worker's have none and need none.
        (timer as { unref?: () => void } | undefined)?.unref?.();
      };
      arm();
      how.onArm?.(arm);
      const started = Date.now();
      try {
        const response = await this.fetcher(`${this.base}${path}`, {
          ...init,
          redirect: redirectMode,
          headers: {
            ...(init.headers as Record<string, string> | undefined),
            authorization: `Bearer ${this.options.apiKey}`,
            accept: 'application/json',
          },
          signal: controller.signal,
        });
        this.options.observe?.(route, response.status, Date.now() - started);
        if (isRedirect(response)) {
          disarm();
          await response.body?.cancel().catch(() => undefined);
          throw this.redirectRefused(route, response.status);
        }
        if (response.ok) {
          if (!how.streamBody || !response.body) {
            // Read the body under the same timeout, then let go of the timer.
            const text = await response.text();
            disarm();
            return new Response(text, { status: response.status, headers: response.headers });
          }
          // A download: the timeout becomes an idle timeout between chunks.
          arm();
          return new Response(observeChunks(response.body, arm, disarm, disarm), {
            status: response.status,
            headers: response.headers,
          });
        }
        // A refusal's fields are read (bounded, under the same timeout): they tell a file upstream
        // no longer knows from any other mistake (refusedFields).
        const fields = await refusedFields(response);
        disarm();
        await response.body?.cancel().catch(() => undefined);
        if (response.status >= 500) uncertain.seen = true;
        lastError = this.errorForStatus(route, response, fields);
        this.options.log({
          event: 'upstream_error',
          route,
          status: response.status,
          attempt: attempt + 1,
          ms: Date.now() - started,
        });
        if (!lastError.retryable || response.status === 429) throw lastError;
      } catch (error) {
        disarm();
        if (error instanceof ProxyError) {
          if (!error.retryable || error.code === 'rate_limited') throw error;
          lastError = error;
          continue;
        }
        // undici, under `redirect: 'error'`, rejects with "unexpected redirect" as the cause.
        if ((error as { cause?: { message?: unknown } } | undefined)?.cause?.message === 'unexpected redirect')
          throw this.redirectRefused(route, 0);
        const timedOut = controller.signal.aborted;
        if (timedOut || !neverReached(error)) uncertain.seen = true;
        this.options.observe?.(route, 0, Date.now() - started);
        lastError = timedOut
          ? new ProxyError(
              504,
              'upstream_timeout',
              'The try-on service took too long to answer; please try again.',
              true,
            )
          : new ProxyError(
              502,
              'upstream_unavailable',
              'The try-on service could not be reached; please try again.',
              true,
            );
        this.options.log({
          event: timedOut ? 'upstream_timeout' : 'upstream_unreachable',
          route,
          attempt: attempt + 1,
          ms: Date.now() - started,
        });
      }
    }
    throw lastError ?? new ProxyError(502, 'upstream_unavailable', 'The try-on service could not be reached.', true);
  }

  /**
   * Loud, and not retried: a redirect means TRYON_BASE_URL points somewhere it should not (http
   * for https, a moved host), and following it would hand the key to another address.
   */
  private redirectRefused(route: string, status: number): ProxyError {
    this.options.log({
      level: 'error',
      event: 'upstream_redirect_refused',
      route,
      ...(status ? { status } : {}),
      message:
        'the try-on service answered with a redirect, which the proxy never follows with the key; check TRYON_BASE_URL',
    });
    return new ProxyError(
      502,
      'upstream_unavailable',
      'The try-on service could not be reached; please try again.',
      false,
    );
  }

  /** Upstream's HTTP failure → the error the shopper's widget gets (docs/upstream-api.md, "Gaps"). */
  private errorForStatus(route: string, response: Response, fields: string[]): ProxyError {
    const status = response.status;
    if (status === 401 || status === 403) {
      // Loud: this is the shop's configuration, not the shopper's doing.
      this.options.log({
        level: 'error',
        event: 'upstream_auth_failed',
        route,
        status,
        message: 'the try-on service refused the API key; check TRYON_API_KEY',
      });
      return new ProxyError(502, 'upstream_auth', 'The shop’s try-on service is not set up correctly.', false);
    }
    if (status === 402) return new ProxyError(503, 'out_of_credits', 'Try-on is not available right now.', false);
    if (status === 429) {
      const after = Number(response.headers.get('retry-after'));
      return new ProxyError(
        429,
        'rate_limited',
        'Too many try-ons right now; please wait a moment.',
        true,
        Number.isFinite(after) && after > 0 ? after : 5,
      );
    }
    if (status === 404) return new ProxyError(404, 'not_found', 'That try-on no longer exists.', false);
    if (status === 413) return new ProxyError(413, 'file_too_large', 'That photo is too large.', false);
    if (status === 415)
      return new ProxyError(
        415,
        'unsupported_media_type',
        'That file is not a photo we can use (PNG, JPEG, WebP or HEIC).',
        false,
      );
    if (status >= 500)
      return new ProxyError(
        502,
        'upstream_unavailable',
        'The try-on service is having trouble; please try again.',
        true,
      );
    this.options.log({ level: 'error', event: 'upstream_rejected', route, status, fields });
    return new UpstreamRejected(status, fields);
  }
}
