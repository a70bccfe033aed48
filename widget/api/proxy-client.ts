// The shop's token proxy as the widget calls it (docs/proxy.md, "Routes"): the plain calls through
// fetch live here; the photo's upload (XHR, for its progress) is photo-upload.ts, watching a try-on
// or a hand-off (Server-Sent Events with a backing-off poll) is proxy-watch.ts, what the proxy
// answers is proxy-answers.ts, how a call fails is proxy-errors.ts and the gate for URLs from the
// network is network-url.ts. This module is the one entry to all of them: what the rest of the
// widget uses of api/ is re-exported below, and no module outside api/ imports another of its files.
import { proxyBase } from '../core/availability.js';
import { tryonSubject } from '../core/events.js';
import { normaliseStatus } from './proxy-answers.js';
import type {
  CreatedTryon,
  ProductInfo,
  ProxyStatus,
  StartedHandoff,
  TryonRequest,
  UploadedPhoto,
} from './proxy-answers.js';
import { abortError, errorFrom, isNotAProxy, noAnswer, ProxyCallError, sayNoProxy } from './proxy-errors.js';
import { uploadPhoto } from './photo-upload.js';
import { watchTryon } from './proxy-watch.js';
import type { WatchedProxy } from './proxy-watch.js';

export { ProxyCallError, abortError, noAnswer, serviceDown, wait } from './proxy-errors.js';
export { streamUntil } from './proxy-watch.js';
export type { WatchedProxy } from './proxy-watch.js';
export { networkUrl } from './network-url.js';
export type {
  CreatedTryon,
  HandoffState,
  ProductInfo,
  ProductModel,
  ProductPair,
  ProductVariant,
  ProxyStatus,
  StartedHandoff,
  TryonRequest,
  UploadedPhoto,
} from './proxy-answers.js';

export interface ProxyClientOptions {
  /** Milliseconds between status polls when Server-Sent Events are not available. */
  pollInterval?: number;
  /** Consecutive failed polls after which watching gives up with the last error. */
  maxPollFailures?: number;
  /** Set false to poll even where EventSource exists. */
  serverSentEvents?: boolean;
}

/**
 * A status read is answered in milliseconds from the proxy's status board; one unanswered this long
 * means a proxy that accepts connections but has hung: as down as one that refuses them.
 */
const STATUS_TIMEOUT_MS = 8000;

export class ProxyClient {
  readonly base: URL;
  readonly pollInterval: number;
  readonly maxPollFailures: number;
  readonly serverSentEvents: boolean;
  /** What the watchers use of this client (proxy-watch.ts), without its private parts becoming public. */
  readonly #watched: WatchedProxy;

  constructor(endpoint: string, options: ProxyClientOptions = {}) {
    this.base = proxyBase(endpoint);
    this.pollInterval = options.pollInterval ?? 2000;
    this.maxPollFailures = options.maxPollFailures ?? 6;
    this.serverSentEvents = options.serverSentEvents ?? true;
    this.#watched = {
      pollInterval: this.pollInterval,
      maxPollFailures: this.maxPollFailures,
      serverSentEvents: this.serverSentEvents,
      url: (path) => this.#url(path),
      read: (path, signal) => this.#json(path, { signal }),
      send: (path, body, signal) =>
        this.#json(path, {
          method: 'POST',
          signal,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      status: (tryon, signal) => this.status(tryon, signal),
      normalise: (answer) => normaliseStatus(answer, this.base),
    };
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
    return uploadPhoto(this.#url('photos'), photo, onProgress, signal, fields);
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
      body: JSON.stringify(tryonSubject(product, variant)),
    });
  }

  /** What watching needs of this client (a try-on's watch here, a hand-off's in handoff-watch.ts). */
  get watched(): WatchedProxy {
    return this.#watched;
  }

  createTryon(request: TryonRequest, signal?: AbortSignal): Promise<CreatedTryon> {
    return this.#json<CreatedTryon>('tryons', {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json' },
      // A model's picture is the shop's: no consent is asked for it, so none is claimed; a piece
      // over a try-on (`over`) follows the consent its base photo was given.
      body: JSON.stringify(request.photo === undefined ? request : { ...request, consent: true }),
    });
  }

  async status(tryon: string, signal?: AbortSignal): Promise<ProxyStatus> {
    if (signal?.aborted) throw abortError();
    const read = new AbortController();
    const giveUp = () => read.abort();
    const timer = setTimeout(giveUp, STATUS_TIMEOUT_MS);
    signal?.addEventListener('abort', giveUp, { once: true });
    try {
      return normaliseStatus(
        await this.#json<ProxyStatus>(`tryons/${encodeURIComponent(tryon)}`, { signal: read.signal }),
        this.base,
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
  watch(
    tryon: string,
    onStatus: (answer: ProxyStatus) => void,
    signal?: AbortSignal,
    onDown?: (error: ProxyCallError) => void,
  ): Promise<ProxyStatus> {
    return watchTryon(this.#watched, tryon, onStatus, signal, onDown);
  }
}
