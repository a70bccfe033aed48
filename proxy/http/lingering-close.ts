// Lingering close, as nginx does it, for the Node server. An answer given before the request's
// body was read (a 413 for a declared length over the limit, a 408, a refusal mid-upload) goes out
// with `Connection: close`; Node then destroys the socket as soon as the answer is written. With
// body bytes still arriving, the kernel answers them with a reset, and a client still sending
// (Node's fetch, a browser) may lose our answer to that reset: it sees "fetch failed" instead of
// the JSON error and its headers. So instead the socket is half-closed after the answer (the
// client reads it whole, then EOF) and what keeps coming is read and dropped, never parsed, until
// the client closes its side or a bound in time or bytes is reached: then it is closed for good.
// Workers and a reverse proxy in front (nginx) do the same on their side; this is Node's only.
// Typed by shape rather than node:net, so this module stays free of Node imports like the rest.

/** How long and how much is read of a body nobody wants, after the answer. */
export interface LingerBounds {
  ms: number;
  bytes: number;
}

/** nginx's lingering_time. */
const LONGEST_LINGER_MS = 30_000;

/** What is read at most after an answer, whatever the limits (as @hono/node-server's own drain). */
const LEAST_LINGER_BYTES = 64 * 1024 * 1024;

/**
 * The bounds for a proxy with these limits: the upload deadline (at most 30 s), and 64 MB or a few
 * times the largest photo, so an oversize photo of any size a phone makes is read to its end.
 */
export function lingerBounds(limits: { uploadBytes: number; uploadTotalMs: number }): LingerBounds {
  return {
    ms: limits.uploadTotalMs > 0 ? Math.min(limits.uploadTotalMs, LONGEST_LINGER_MS) : LONGEST_LINGER_MS,
    bytes: Math.max(LEAST_LINGER_BYTES, 4 * limits.uploadBytes),
  };
}

type Listener = (...args: never[]) => void;

interface LingeringSocket {
  destroySoon?: () => void;
  readonly destroyed: boolean;
  readonly readableEnded: boolean;
  end(): unknown;
  destroy(): unknown;
  resume(): unknown;
  _read?(size: number): void;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  once(event: 'end' | 'close' | 'error', listener: () => void): unknown;
  listeners(event: 'data'): Listener[];
  off(event: 'data', listener: Listener): unknown;
}

interface ConnectionSource {
  on(event: 'connection', listener: (socket: LingeringSocket) => void): unknown;
}

/** Makes every connection of `server` linger, within `bounds`, before it closes after an answer. */
export function lingerBeforeClosing(server: ConnectionSource, bounds: LingerBounds): void {
  server.on('connection', (socket) => {
    const closeAtOnce = socket.destroySoon?.bind(socket);
    if (!closeAtOnce) return;
    let lingering = false;
    // Node calls destroySoon once a `Connection: close` answer is finished.
    socket.destroySoon = () => {
      if (lingering) return;
      if (socket.destroyed || socket.readableEnded) {
        closeAtOnce();
        return;
      }
      lingering = true;
      let read = 0;
      const close = () => {
        clearTimeout(timer);
        socket.destroy();
      };
      const timer = setTimeout(close, bounds.ms);
      const drop = (chunk: Uint8Array) => {
        read += chunk.length;
        if (read > bounds.bytes) close();
      };
      // Only this listener sees what follows: the HTTP parser must not read it as a new request.
      socket.on('data', drop);
      for (const listener of socket.listeners('data')) if (listener !== drop) socket.off('data', listener);
      socket.once('end', close);
      socket.once('error', close);
      socket.once('close', () => clearTimeout(timer));
      socket.end();
      socket.resume();
      // Node's HTTP parser may have stopped the socket's reading underneath the stream (it reads the
      // socket directly and pauses it when the request body backs up); _read starts it again.
      socket._read?.(0);
    };
  });
}
