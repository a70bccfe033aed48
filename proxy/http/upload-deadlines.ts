// An upload holds a connection and memory for as long as the sender likes, unless it is timed:
// a body that sends nothing for `idleMs` while the proxy waits for it, or that has not arrived
// whole within `totalMs`, fails with 408 upload_timeout. The source is left alone (cancelling it
// would tear down the socket before the 408 is written); the answer closes the connection.
import { ProxyError } from './errors.js';
import { NO_READ_AHEAD } from './streams.js';

export const uploadTimeoutError = () =>
  new ProxyError(
    408,
    'upload_timeout',
    'The upload stopped arriving; please try again on a steadier connection.',
    true,
  );

export interface TimedBody {
  stream: ReadableStream<Uint8Array>;
  /** Set once a deadline was missed (a consumer such as fetch may hide the stream's own error). */
  timedOut(): boolean;
  /** Stops the clock (the body was read, or the request ended otherwise). */
  stop(): void;
}

const TIMEOUT = Symbol('timeout');

/** A clock left running by an abandoned body must not keep a Node process alive (no-op on Workers). */
function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

export function timedBody(
  source: ReadableStream<Uint8Array>,
  limits: { uploadIdleMs: number; uploadTotalMs: number },
): TimedBody {
  const reader = source.getReader();
  const deadline = limits.uploadTotalMs > 0 ? Date.now() + limits.uploadTotalMs : Infinity;
  let missed = false;
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  // Pulled only when the reader asks (streams.ts, NO_READ_AHEAD): a stalled upstream then stops the
  // shopper's socket instead of filling this stream's queue.
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // One clock per read, for whichever deadline comes first. Racing every read against one
        // long-lived promise for the total instead would make that promise hold each read's chunk
        // until it settles: the whole upload kept in memory.
        const idleMs = limits.uploadIdleMs > 0 ? limits.uploadIdleMs : Infinity;
        const waitMs = Math.min(idleMs, stopped ? Infinity : deadline - Date.now());
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late =
          waitMs === Infinity
            ? undefined
            : new Promise<typeof TIMEOUT>((resolve) => {
                timer = unref(setTimeout(() => resolve(TIMEOUT), Math.max(0, waitMs)));
              });
        const next = reader.read();
        try {
          const result = late ? await Promise.race([next, late]) : await next;
          if (result === TIMEOUT) {
            missed = true;
            stop();
            // The read still pending settles when the connection closes; nobody waits for it.
            next.catch(() => undefined);
            controller.error(uploadTimeoutError());
            return;
          }
          if (result.done) {
            stop();
            controller.close();
          } else {
            controller.enqueue(result.value);
          }
        } catch (error) {
          stop();
          controller.error(error);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel(reason) {
        stop();
        return reader.cancel(reason).catch(() => undefined);
      },
    },
    NO_READ_AHEAD,
  );
  return { stream, timedOut: () => missed, stop };
}
