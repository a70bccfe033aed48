// Status streams (GET /tryons/{h}/events) each hold a connection for up to streamMaxMs: uncapped,
// one client could hold hundreds and the instance run out of sockets and memory for everyone.
// A slot is taken before a stream opens and given back when it ends, however it ends (finished,
// the browser gone, the deadline, an error). Counted per instance: a Node process, or a Workers
// isolate (there a try-on's Durable Object caps its watchers across isolates, tryons/status-store-durable.ts).
import type { SSEStreamingApi } from 'hono/streaming';
import { ProxyError } from './errors.js';
import type { Log } from '../operator/log.js';

/** How long a refused watcher is asked to wait; the widget polls meanwhile. */
const RETRY_SECONDS = 10;

export interface StreamCaps {
  /** 0: no cap. */
  streamsPerClient: number;
  /** 0: no cap. */
  streamsPerInstance: number;
}

export class StreamSlots {
  private open = 0;
  private readonly byClient = new Map<string, number>();

  constructor(private readonly caps: StreamCaps) {}

  /** Streams open now (all clients). */
  get size(): number {
    return this.open;
  }

  /** Takes a slot for `client`: the function that gives it back (once), or 429 too_many_streams. */
  take(client: string): () => void {
    const held = this.byClient.get(client) ?? 0;
    const { streamsPerClient, streamsPerInstance } = this.caps;
    if (
      (streamsPerClient > 0 && held >= streamsPerClient) ||
      (streamsPerInstance > 0 && this.open >= streamsPerInstance)
    ) {
      throw new ProxyError(
        429,
        'too_many_streams',
        'Too many status streams are open; please wait a moment.',
        true,
        RETRY_SECONDS,
      );
    }
    this.open++;
    this.byClient.set(client, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.open--;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left > 0) this.byClient.set(client, left);
      else this.byClient.delete(client);
    };
  }
}

/**
 * The end of an event stream that broke on our side (both streams, status and hand-off, end so):
 * logged, and told to the browser as a retryable internal_error event, since the answer's status
 * line has long gone out.
 */
export function sayStreamFailed(log: Log, message: string): (error: Error, stream: SSEStreamingApi) => Promise<void> {
  return async (error, stream) => {
    log({ level: 'error', event: 'sse_failed', message: error.message });
    await stream.writeSSE({
      event: 'error',
      data: JSON.stringify({ error: { code: 'internal_error', message, retryable: true } }),
    });
  };
}
