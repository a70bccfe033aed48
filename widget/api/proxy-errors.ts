// What a call to the shop's proxy can end in besides its answer: the proxy's error answer (or a
// status from something in between) read into a ProxyCallError, no answer at all, the shopper's
// cancel (an AbortError), and the one console line for an endpoint where no proxy answers.

/**
 * A call to the shop's proxy that did not give what was asked: the proxy's own error answer, an HTTP
 * status from something in between, or no answer at all. (The proxy's side of the same answer is its
 * own `ProxyError`; this is the widget's view of it.)
 */
export class ProxyCallError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  /** The HTTP status, 0 when nothing answered. */
  readonly status: number;
  /** Seconds the proxy asked us to wait (429 Retry-After). */
  readonly retryAfter: number | undefined;

  constructor(
    code: string,
    facts: { retryable: boolean; message?: string; status?: number; retryAfter?: number | undefined },
  ) {
    super(facts.message || code);
    this.name = 'ProxyCallError';
    this.code = code;
    this.retryable = facts.retryable;
    this.status = facts.status ?? 0;
    this.retryAfter = facts.retryAfter;
  }
}

/**
 * A request that got no answer at all. The device being offline (the browser says so) is the
 * shopper's to fix; a refused or reset connection while the device is online means the shop's
 * try-on service is not answering, and blaming the shopper's connection would be wrong.
 */
export function noAnswer(): ProxyCallError {
  return navigator.onLine === false
    ? new ProxyCallError('offline', { retryable: true })
    : new ProxyCallError('not_answering', { retryable: true });
}

/**
 * The shop's try-on service is down or overloaded rather than refusing this request: no answer
 * while online, a 5xx (the proxy's own, or a gateway's page in front of a stopped proxy), or a
 * timeout. Watching keeps trying through these; the run resumes when the service answers again.
 */
export function serviceDown(error: unknown): boolean {
  if (!(error instanceof ProxyCallError)) return false;
  return error.code === 'not_answering' || error.status >= 500 || error.status === 408;
}

export function abortError(): DOMException {
  return new DOMException('The try-on was cancelled.', 'AbortError');
}

export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

export async function errorFrom(
  status: number,
  text: string,
  retryAfterHeader: string | null,
): Promise<ProxyCallError> {
  const retryAfter = retryAfterHeader && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : undefined;
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; retryable?: unknown } };
    const error = body.error;
    if (error && typeof error.code === 'string') {
      return new ProxyCallError(error.code, {
        message: typeof error.message === 'string' ? error.message : '',
        retryable: typeof error.retryable === 'boolean' ? error.retryable : status >= 500 || status === 429,
        status: status,
        retryAfter: retryAfter,
      });
    }
  } catch {
    // Not our JSON error shape (a CDN or gateway page): fall through to a code from the status.
  }
  return new ProxyCallError(`http_${status}`, {
    retryable: status >= 500 || status === 429,
    status: status,
    retryAfter: retryAfter,
  });
}

/**
 * The endpoint answered, but not as a try-on proxy does (a shop's own 404 page, HTML with 200): the
 * usual first-install mistake, an endpoint such as `/tryon` where no proxy was set up. The shopper
 * sees a plain error; the developer needs to be told where to look.
 */
export function isNotAProxy(error: ProxyCallError): boolean {
  return error.code === 'bad_answer' || error.code === 'http_404' || error.code === 'http_405';
}

const toldNoProxy = new Set<string>();
export function sayNoProxy(endpoint: string, status: number): void {
  if (toldNoProxy.has(endpoint)) return;
  toldNoProxy.add(endpoint);
  console.error(
    `<tryon-button>: no try-on proxy answers at ${endpoint} (HTTP ${status}, not the proxy's JSON). ` +
      'Set the endpoint attribute to where the token proxy runs (docs/integrations/deploy-proxy.md).',
  );
}
