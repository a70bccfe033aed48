// Watching the shop's proxy until something ends: a try-on's status (GET /tryons/{t}/events, a
// Server-Sent Events stream), falling back to a poll every pollInterval when the stream breaks,
// backing off while the network or the proxy is failing and never giving up while the service is
// only down. A hand-off's state is watched the same way (handoff-watch.ts, in the hand-off's chunk).
import type { ProxyStatus } from './proxy-answers.js';
import { abortError, ProxyCallError, serviceDown, wait } from './proxy-errors.js';

/** What watching needs of the proxy client: its timing, its URLs and its plain reads. */
export interface WatchedProxy {
  readonly pollInterval: number;
  readonly maxPollFailures: number;
  readonly serverSentEvents: boolean;
  /** The absolute URL of a path under the proxy's endpoint. */
  url(path: string): string;
  /** A GET of a JSON answer, failing as the client's plain calls fail. */
  read<T>(path: string, signal?: AbortSignal): Promise<T>;
  /** A POST of `body` as JSON, failing as the client's plain calls fail (a hand-off's number, handoff-flow.ts). */
  send<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T>;
  /** One read of a try-on's status, bounded in time, its URLs passed through the gate. */
  status(tryon: string, signal?: AbortSignal): Promise<ProxyStatus>;
  /** The gate a streamed status passes (proxy-answers.ts `normaliseStatus`). */
  normalise(answer: ProxyStatus): ProxyStatus;
}

const terminal = new Set(['succeeded', 'failed']);

/** The longest wait between polls while the service is down, so the run resumes soon after it is back. */
const DOWN_POLL_CAP_MS = 5000;

/**
 * Reports every status until the try-on ends; resolves with the terminal answer. Rejects with
 * an AbortError when `signal` aborts, or with the last ProxyCallError once polling gives up. While
 * the service is down (`serviceDown`) it never gives up: `onDown` is called once per outage, at
 * its first failed poll, and the next answer goes to `onStatus` as usual.
 */
export async function watchTryon(
  proxy: WatchedProxy,
  tryon: string,
  onStatus: (answer: ProxyStatus) => void,
  signal?: AbortSignal,
  onDown?: (error: ProxyCallError) => void,
): Promise<ProxyStatus> {
  if (proxy.serverSentEvents && typeof EventSource === 'function') {
    const streamed = await streamTryon(proxy, tryon, onStatus, signal);
    if (streamed) return streamed;
  }
  return pollTryon(proxy, tryon, onStatus, signal, onDown);
}

/** Resolves with the terminal answer, or undefined when the stream broke and polling should take over. */
function streamTryon(
  proxy: WatchedProxy,
  tryon: string,
  onStatus: (answer: ProxyStatus) => void,
  signal?: AbortSignal,
): Promise<ProxyStatus | undefined> {
  const path = `tryons/${encodeURIComponent(tryon)}/events`;
  return streamUntil<ProxyStatus>(
    proxy,
    path,
    'status',
    (data, end, fail) => {
      let parsed: ProxyStatus;
      try {
        parsed = JSON.parse(data) as ProxyStatus;
      } catch {
        return;
      }
      let answer: ProxyStatus;
      try {
        answer = proxy.normalise(parsed);
      } catch (error) {
        // A refused URL ends the watch; an answer of another shape is skipped, as unparsable ones are.
        if (error instanceof ProxyCallError) fail(error);
        return;
      }
      onStatus(answer);
      if (terminal.has(answer.status)) end(answer);
    },
    signal,
  );
}

/**
 * Listens to the event stream at `path` for `event` messages, each handed to `heard` with the means
 * to end the watch with a value or fail it. Resolves with undefined when the stream breaks, so the
 * caller's poll takes over: EventSource retries on its own forever; we prefer the bounded,
 * backing-off poll instead. Rejects with an AbortError when `signal` aborts.
 */
export function streamUntil<T>(
  proxy: WatchedProxy,
  path: string,
  event: string,
  heard: (data: string, end: (value: T) => void, fail: (error: unknown) => void) => void,
  signal?: AbortSignal,
): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const source = new EventSource(proxy.url(path));
    const finish = (value: T | undefined, error?: unknown) => {
      source.close();
      signal?.removeEventListener('abort', abort);
      if (error) reject(error);
      else resolve(value);
    };
    const abort = () => finish(undefined, abortError());
    signal?.addEventListener('abort', abort, { once: true });
    source.addEventListener(event, (message) =>
      heard(
        (message as MessageEvent<string>).data,
        (value) => finish(value),
        (error) => finish(undefined, error),
      ),
    );
    source.onerror = () => finish(undefined);
  });
}

async function pollTryon(
  proxy: WatchedProxy,
  tryon: string,
  onStatus: (answer: ProxyStatus) => void,
  signal?: AbortSignal,
  onDown?: (error: ProxyCallError) => void,
): Promise<ProxyStatus> {
  let failures = 0;
  let down = 0;
  for (;;) {
    try {
      const answer = await proxy.status(tryon, signal);
      failures = 0;
      down = 0;
      onStatus(answer);
      if (terminal.has(answer.status)) return answer;
      await wait(proxy.pollInterval, signal);
    } catch (error) {
      if (signal?.aborted || (error instanceof DOMException && error.name === 'AbortError')) throw error;
      if (error instanceof ProxyCallError && serviceDown(error)) {
        // The try-on may well be finishing upstream: keep asking, told once, and come back quickly.
        if (down === 0) onDown?.(error);
        down += 1;
        const retryAfter = error.retryAfter ? error.retryAfter * 1000 : 0;
        await wait(
          Math.max(retryAfter, Math.min(proxy.pollInterval * 2 ** Math.min(down, 4), DOWN_POLL_CAP_MS)),
          signal,
        );
        continue;
      }
      if (error instanceof ProxyCallError && !error.retryable) throw error;
      failures += 1;
      if (failures >= proxy.maxPollFailures) throw error;
      const retryAfter = error instanceof ProxyCallError && error.retryAfter ? error.retryAfter * 1000 : 0;
      await wait(Math.max(retryAfter, Math.min(proxy.pollInterval * 2 ** failures, 30_000)), signal);
    }
  }
}
