// GET /tryons/{h}/events: the try-on's status as Server-Sent Events. The first event is read
// before the stream opens (so an upstream failure is an ordinary error answer); then every change
// the shared status board sees is sent once, with a heartbeat comment to keep idle connections
// open, until the try-on is finished (its first look, if any, is sent with each event as it is then), the browser leaves or streamMaxMs passes (the widget reconnects).
// Streams are capped per client and per instance (stream-slots.ts): past a cap, 429 too_many_streams.
import { streamSSE } from 'hono/streaming';
import type { Handler } from 'hono';
import { isTerminal, type TryonSnapshot } from '../tryons/snapshot.js';
import { openForRead } from '../photos/read-gate.js';
import { mountBase, readPreview, statusBody } from '../tryons/status-answer.js';
import { StreamSlots, sayStreamFailed } from '../http/stream-slots.js';
import type { ProxyServices } from './services.js';
import type { ProxyEnv } from '../http/request-facts.js';

/** What these routes use of the shared services: no more, so a change elsewhere cannot reach them unseen. */
type TryonEventServices = Pick<
  ProxyServices,
  'board' | 'client' | 'handles' | 'limits' | 'log' | 'metrics' | 'now' | 'publicUrl' | 'reads' | 'revocations'
>;

/** Counts the stream as open for as long as `write` runs (the operator's SSE gauge), and holds its slot as long. */
function counted<S>(
  services: TryonEventServices,
  release: () => void,
  write: (stream: S) => Promise<void>,
): (stream: S) => Promise<void> {
  return async (stream) => {
    services.metrics.sseConnections(1);
    try {
      await write(stream);
    } finally {
      // The slot first: whoever sees the gauge fall may open a stream at once.
      release();
      services.metrics.sseConnections(-1);
    }
  };
}

export function tryonEvents(services: TryonEventServices): Handler<ProxyEnv> {
  const slots = new StreamSlots(services.limits);
  return async (c) => {
    const claims = await openForRead(services, c, 'tryon', c.req.param('handle') ?? '');
    const base = mountBase(services);
    const release = slots.take(services.client(c));
    let first: TryonSnapshot;
    let preview: TryonSnapshot | undefined;
    try {
      [first, preview] = await Promise.all([services.board.read(claims.jobId), readPreview(services, claims)]);
    } catch (error) {
      release();
      throw error;
    }
    c.header('cache-control', 'no-store');
    c.header('x-accel-buffering', 'no');
    return streamSSE(
      c,
      counted(services, release, async (stream) => {
        let last = '';
        const send = async (snapshot: TryonSnapshot) => {
          const text = JSON.stringify(await statusBody(services, claims, snapshot, base, preview));
          if (text === last) return;
          last = text;
          await stream.writeSSE({ event: 'status', data: text });
        };
        // Done when the try-on is; only a failed try-on waits on for its first look, which the
        // shopper keeps (a succeeded one replaces it, so nothing more is worth sending).
        const finished = (snapshot: TryonSnapshot) =>
          isTerminal(snapshot.status) && (snapshot.status === 'succeeded' || !preview || isTerminal(preview.status));
        await send(first);
        if (finished(first)) return;

        let pending: TryonSnapshot | undefined;
        let latest = first;
        let wake: (() => void) | undefined;
        let closed = false;
        const stop = () => {
          closed = true;
          wake?.();
        };
        const unwatchTryon = services.board.watch(claims.jobId, (snapshot) => {
          pending = snapshot;
          latest = snapshot;
          wake?.();
        });
        // The first look is watched through the same board (one poll per interval for everyone, woken
        // by webhooks); each change of it is sent as a status event carrying the try-on's latest state.
        const unwatchPreview = claims.previewJobId
          ? services.board.watch(claims.previewJobId, (snapshot) => {
              preview = snapshot;
              pending ??= latest;
              wake?.();
            })
          : undefined;
        const unwatch = () => {
          unwatchTryon();
          unwatchPreview?.();
        };
        stream.onAbort(stop);
        // A browser gone while the first event was written is not told again: its slot goes now.
        if (stream.aborted) stop();
        const heartbeat = setInterval(() => {
          void stream.write(': heartbeat\n\n').catch(() => undefined);
        }, services.limits.heartbeatMs);
        const deadline = setTimeout(stop, services.limits.streamMaxMs);
        try {
          while (!closed) {
            if (!pending)
              await new Promise<void>((resolve) => {
                wake = resolve;
              });
            wake = undefined;
            const snapshot = pending;
            pending = undefined;
            if (snapshot) {
              // The shopper forgot the photo while watching: no more file links for it.
              if (await services.revocations.isRevoked(claims.photoId)) break;
              await send(snapshot);
              if (finished(snapshot)) break;
            }
          }
        } finally {
          unwatch();
          clearInterval(heartbeat);
          clearTimeout(deadline);
        }
      }),
      sayStreamFailed(services.log, 'The status stream failed.'),
    );
  };
}
