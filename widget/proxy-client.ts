// Calls to the shop's token proxy (docs/proxy.md, "Routes"). XHR for the photo upload because only it
// reports upload progress; fetch for the rest; Server-Sent Events to watch a try-on, with polling
// every 2 s as the fallback, backing off while the network or the proxy is failing.
import type { TryonOutput } from './events.js';
import type { ProxyStatus } from './session.js';
import { networkUrl, RefusedUrl } from './network-url.js';
import { proxyBase } from './availability.js';

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

export interface ProductInfo {
  product: string;
  views: string[];
  video: boolean;
  tier: string;
  name?: string;
  /** The product's variants (colours) a try-on can ask for, with the shopper's name for each. */
  variants?: ProductVariant[];
  /** How long the proxy keeps a photo and a result, in seconds (absent from older proxies). */
  retention?: { photoSeconds: number; resultSeconds: number; shareLinkSeconds?: number };
  /** How many other colours may be previewed as drafts per try-on ("See all colours"); 0 or absent: off. */
  colourPreviews?: number;
  /** Whether the photo must show the whole body, head to feet (the photo check asks for it; absent: no). */
  fullBody?: boolean;
  /** false: no try-on of it today (absent from older proxies: available). */
  available?: boolean;
  unavailableReason?: string;
  /** The shop's models the product may be seen on ("See it on a model"); [] or absent: none. */
  models?: ProductModel[];
}

export interface ProductVariant {
  id: string;
  name: string;
}
/** One of the shop's models: `image` is a picture the proxy serves (made absolute against the endpoint). */
export interface ProductModel {
  id: string;
  name: string;
  image: string;
}
/** A desktop's hand-off (POST /handoffs): its handle, the phone's code, when the code ends. */
export interface StartedHandoff {
  handoff: string;
  code: string;
  expiresAt: string;
}
/** What the desktop reads of its hand-off. */
export interface HandoffState {
  status: 'waiting' | 'received' | 'expired';
  photo?: string;
  expiresAt: string;
}
export interface UploadedPhoto {
  photo: string;
  expiresAt: string;
}
export interface CreatedTryon {
  tryon: string;
  status: string;
  views: string[];
}
export interface TryonRequest {
  product: string;
  /** Exactly one of the two: the shopper's photo (a handle), or one of the shop's models by id. */
  photo?: string;
  model?: string;
  requestId: string;
  /** The variant (colour) to try on; absent for the product's own garment. */
  variant?: string;
  views?: string[];
  output?: 'image' | 'video';
  /** Which consent text the shopper agreed to (consent-version.ts) and its language. */
  consentVersion?: string;
  consentLanguage?: string;
  /** `preview`: a draft, front-view colour preview of a listed variant with the same photo ("See all colours"). */
  quality?: 'preview';
  /** `off`: no first look beside this try-on (the shopper already sees its colour's draft). */
  preview?: 'off';
}

export interface ProxyClientOptions {
  /** Milliseconds between status polls when Server-Sent Events are not available. */
  pollInterval?: number;
  /** Consecutive failed polls after which watching gives up with the last error. */
  maxPollFailures?: number;
  /** Set false to poll even where EventSource exists. */
  serverSentEvents?: boolean;
}

const terminal = new Set(['succeeded', 'failed']);

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

/** The longest wait between polls while the service is down, so the run resumes soon after it is back. */
const DOWN_POLL_CAP_MS = 5000;

/**
 * A status read is answered in milliseconds from the proxy's status board; one unanswered this long
 * means a proxy that accepts connections but has hung: as down as one that refuses them.
 */
const STATUS_TIMEOUT_MS = 8000;

function abortError(): DOMException {
  return new DOMException('The try-on was cancelled.', 'AbortError');
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
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

async function errorFrom(status: number, text: string, retryAfterHeader: string | null): Promise<ProxyCallError> {
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
function isNotAProxy(error: ProxyCallError): boolean {
  return error.code === 'bad_answer' || error.code === 'http_404' || error.code === 'http_405';
}

const toldNoProxy = new Set<string>();
function sayNoProxy(endpoint: string, status: number): void {
  if (toldNoProxy.has(endpoint)) return;
  toldNoProxy.add(endpoint);
  console.error(
    `<tryon-button>: no try-on proxy answers at ${endpoint} (HTTP ${status}, not the proxy's JSON). ` +
      'Set the endpoint attribute to where the token proxy runs (docs/integrations/deploy-proxy.md).',
  );
}

export class ProxyClient {
  readonly base: URL;
  readonly pollInterval: number;
  readonly maxPollFailures: number;
  readonly serverSentEvents: boolean;

  constructor(endpoint: string, options: ProxyClientOptions = {}) {
    this.base = proxyBase(endpoint);
    this.pollInterval = options.pollInterval ?? 2000;
    this.maxPollFailures = options.maxPollFailures ?? 6;
    this.serverSentEvents = options.serverSentEvents ?? true;
  }

  #url(path: string): string {
    return new URL(path, this.base).href;
  }

  async #json<T>(path: string, init: RequestInit = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.#url(path), { ...init, headers: { accept: 'application/json', ...init.headers } });
    } catch (error) {
      if (init.signal?.aborted) throw abortError();
      throw noAnswer();
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) throw await errorFrom(response.status, text, response.headers.get('retry-after'));
    if (response.status === 204) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ProxyCallError('bad_answer', { retryable: true, status: response.status });
    }
  }

  async product(id: string, signal?: AbortSignal): Promise<ProductInfo> {
    try {
      return await this.#json<ProductInfo>(`products/${encodeURIComponent(id)}`, { signal });
    } catch (error) {
      if (error instanceof ProxyCallError && isNotAProxy(error)) sayNoProxy(this.base.href, error.status);
      throw error;
    }
  }

  /** `fields` go before the photo (a hand-off's code and consent: the proxy judges them before the photo streams on). */
  uploadPhoto(
    photo: Blob,
    onProgress?: (percent: number) => void,
    signal?: AbortSignal,
    fields: Record<string, string> = {},
  ): Promise<UploadedPhoto> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortError());
      const xhr = new XMLHttpRequest();
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      const name = photo instanceof File ? photo.name : photo.type === 'image/jpeg' ? 'photo.jpg' : 'photo';
      form.append('photo', photo, name);
      xhr.open('POST', this.#url('photos'));
      xhr.setRequestHeader('accept', 'application/json');
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress?.(Math.round((event.loaded / event.total) * 100));
      };
      const abort = () => xhr.abort();
      signal?.addEventListener('abort', abort, { once: true });
      xhr.onabort = () => reject(abortError());
      xhr.onerror = () => reject(noAnswer());
      xhr.onload = async () => {
        signal?.removeEventListener('abort', abort);
        if (xhr.status < 200 || xhr.status >= 300) {
          reject(await errorFrom(xhr.status, xhr.responseText, xhr.getResponseHeader('retry-after')));
          return;
        }
        try {
          resolve(JSON.parse(xhr.responseText) as UploadedPhoto);
        } catch {
          reject(new ProxyCallError('bad_answer', { retryable: true, status: xhr.status }));
        }
      };
      xhr.send(form);
    });
  }

  /**
   * Asks the proxy to revoke a photo and every try-on and file made from it (204). A 404 means the
   * proxy never knew the handle: there is nothing left to forget either.
   */
  async forgetPhoto(photo: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.#json<unknown>(`photos/${encodeURIComponent(photo)}`, { method: 'DELETE', signal });
    } catch (error) {
      if (error instanceof ProxyCallError && error.status === 404) return;
      throw error;
    }
  }

  /** Starts a desktop → phone hand-off for the product (and variant). */
  startHandoff(product: string, variant: string | undefined, signal?: AbortSignal): Promise<StartedHandoff> {
    return this.#json<StartedHandoff>('handoffs', {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product, ...(variant ? { variant } : {}) }),
    });
  }

  /**
   * Reports the hand-off's state until the photo comes or the code ends: its event stream, and
   * when that breaks, a poll every pollInterval (as a try-on's watch does). Rejects with an
   * AbortError when `signal` aborts.
   */
  async watchHandoff(
    handoff: string,
    onState: (state: HandoffState) => void,
    signal?: AbortSignal,
  ): Promise<HandoffState> {
    const path = `handoffs/${encodeURIComponent(handoff)}`;
    if (this.serverSentEvents && typeof EventSource === 'function') {
      const streamed = await new Promise<HandoffState | undefined>((resolve, reject) => {
        if (signal?.aborted) return reject(abortError());
        const source = new EventSource(this.#url(`${path}/events`));
        const finish = (value: HandoffState | undefined, error?: unknown) => {
          source.close();
          signal?.removeEventListener('abort', abort);
          if (error) reject(error);
          else resolve(value);
        };
        const abort = () => finish(undefined, abortError());
        signal?.addEventListener('abort', abort, { once: true });
        source.addEventListener('handoff', (event) => {
          try {
            const state = JSON.parse((event as MessageEvent<string>).data) as HandoffState;
            onState(state);
            if (state.status !== 'waiting') finish(state);
          } catch {
            // An answer of another shape is skipped, as the try-on's stream skips one.
          }
        });
        source.onerror = () => finish(undefined);
      });
      if (streamed) return streamed;
    }
    for (;;) {
      try {
        const state = await this.#json<HandoffState>(path, { signal });
        onState(state);
        if (state.status !== 'waiting') return state;
      } catch (error) {
        if (signal?.aborted) throw abortError();
        if (!(error instanceof ProxyCallError) || !error.retryable) throw error;
      }
      await wait(this.pollInterval, signal);
    }
  }

  createTryon(request: TryonRequest, signal?: AbortSignal): Promise<CreatedTryon> {
    return this.#json<CreatedTryon>('tryons', {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json' },
      // A model's picture is the shop's: no consent is asked for it, so none is claimed.
      body: JSON.stringify(request.model !== undefined ? request : { ...request, consent: true }),
    });
  }

  /**
   * Output URLs come relative to the proxy's mount (`files/…`) and are made absolute against the endpoint.
   * One the widget will not use (network-url.ts) refuses the whole answer: the shopper sees the
   * error step rather than a result the endpoint may have tampered with, and watching stops.
   */
  #normalise(answer: ProxyStatus): ProxyStatus {
    const normalised = (list: unknown): TryonOutput[] =>
      (Array.isArray(list) ? (list as TryonOutput[]) : [])
        .filter((o) => o && typeof o.url === 'string')
        .map((o) => ({
          ...o,
          view: o.view || 'front',
          type: o.type === 'video' ? 'video' : 'image',
          url: networkUrl(o.url, this.base),
        }));
    try {
      const outputs = normalised(answer.outputs);
      // The first look's URLs pass the same gate as the full render's.
      const preview =
        answer.preview && typeof answer.preview === 'object' && typeof answer.preview.status === 'string'
          ? { status: answer.preview.status, outputs: normalised(answer.preview.outputs) }
          : undefined;
      return { ...answer, outputs, preview };
    } catch (error) {
      if (error instanceof RefusedUrl) throw new ProxyCallError('refused_url', { retryable: false });
      throw error;
    }
  }

  async status(tryon: string, signal?: AbortSignal): Promise<ProxyStatus> {
    if (signal?.aborted) throw abortError();
    const read = new AbortController();
    const giveUp = () => read.abort();
    const timer = setTimeout(giveUp, STATUS_TIMEOUT_MS);
    signal?.addEventListener('abort', giveUp, { once: true });
    try {
      return this.#normalise(
        await this.#json<ProxyStatus>(`tryons/${encodeURIComponent(tryon)}`, { signal: read.signal }),
      );
    } catch (error) {
      if (signal?.aborted) throw abortError();
      if (read.signal.aborted) throw new ProxyCallError('not_answering', { retryable: true });
      throw error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', giveUp);
    }
  }

  /**
   * Reports every status until the try-on ends; resolves with the terminal answer. Rejects with
   * an AbortError when `signal` aborts, or with the last ProxyCallError once polling gives up. While
   * the service is down (`serviceDown`) it never gives up: `onDown` is called once per outage, at
   * its first failed poll, and the next answer goes to `onStatus` as usual.
   */
  async watch(
    tryon: string,
    onStatus: (answer: ProxyStatus) => void,
    signal?: AbortSignal,
    onDown?: (error: ProxyCallError) => void,
  ): Promise<ProxyStatus> {
    if (this.serverSentEvents && typeof EventSource === 'function') {
      const streamed = await this.#stream(tryon, onStatus, signal);
      if (streamed) return streamed;
    }
    return this.#poll(tryon, onStatus, signal, onDown);
  }

  /** Resolves with the terminal answer, or undefined when the stream broke and polling should take over. */
  #stream(
    tryon: string,
    onStatus: (answer: ProxyStatus) => void,
    signal?: AbortSignal,
  ): Promise<ProxyStatus | undefined> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortError());
      const source = new EventSource(this.#url(`tryons/${encodeURIComponent(tryon)}/events`));
      const finish = (value: ProxyStatus | undefined, error?: unknown) => {
        source.close();
        signal?.removeEventListener('abort', abort);
        if (error) reject(error);
        else resolve(value);
      };
      const abort = () => finish(undefined, abortError());
      signal?.addEventListener('abort', abort, { once: true });
      source.addEventListener('status', (event) => {
        let parsed: ProxyStatus;
        try {
          parsed = JSON.parse((event as MessageEvent<string>).data) as ProxyStatus;
        } catch {
          return;
        }
        let answer: ProxyStatus;
        try {
          answer = this.#normalise(parsed);
        } catch (error) {
          // A refused URL ends the watch; an answer of another shape is skipped, as unparsable ones are.
          if (error instanceof ProxyCallError) finish(undefined, error);
          return;
        }
        onStatus(answer);
        if (terminal.has(answer.status)) finish(answer);
      });
      // EventSource retries on its own forever; we prefer the bounded, backing-off poll instead.
      source.onerror = () => finish(undefined);
    });
  }

  async #poll(
    tryon: string,
    onStatus: (answer: ProxyStatus) => void,
    signal?: AbortSignal,
    onDown?: (error: ProxyCallError) => void,
  ): Promise<ProxyStatus> {
    let failures = 0;
    let down = 0;
    for (;;) {
      try {
        const answer = await this.status(tryon, signal);
        failures = 0;
        down = 0;
        onStatus(answer);
        if (terminal.has(answer.status)) return answer;
        await wait(this.pollInterval, signal);
      } catch (error) {
        if (signal?.aborted || (error instanceof DOMException && error.name === 'AbortError')) throw error;
        if (error instanceof ProxyCallError && serviceDown(error)) {
          // The try-on may well be finishing upstream: keep asking, told once, and come back quickly.
          if (down === 0) onDown?.(error);
          down += 1;
          const retryAfter = error.retryAfter ? error.retryAfter * 1000 : 0;
          await wait(
            Math.max(retryAfter, Math.min(this.pollInterval * 2 ** Math.min(down, 4), DOWN_POLL_CAP_MS)),
            signal,
          );
          continue;
        }
        if (error instanceof ProxyCallError && !error.retryable) throw error;
        failures += 1;
        if (failures >= this.maxPollFailures) throw error;
        const retryAfter = error instanceof ProxyCallError && error.retryAfter ? error.retryAfter * 1000 : 0;
        await wait(Math.max(retryAfter, Math.min(this.pollInterval * 2 ** failures, 30_000)), signal);
      }
    }
  }
}
