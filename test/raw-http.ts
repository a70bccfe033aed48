// A request sent the way a browser or curl sends an upload the server may refuse early: the body
// goes out in pieces while the answer is read as it arrives, and sending stops once the server has
// answered or closed. fetch (undici) instead reports "fetch failed … write EPIPE" when a server
// answers 413 and closes while the body is still going out, which made such tests fail now and
// then, depending on how far the upload had got.
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  json<T = any>(): T;
}

/** Splits a raw HTTP/1.1 answer into status, headers and body (a chunked body joined). */
export function parseRaw(text: string): { status: number; headers: Record<string, string>; body: string } {
  const at = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = text.slice(0, at < 0 ? text.length : at).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = at < 0 ? '' : text.slice(at + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    let out = '';
    for (let rest = body; ;) {
      const lineEnd = rest.indexOf('\r\n');
      const size = parseInt(rest.slice(0, lineEnd), 16);
      if (!size) break;
      out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
      rest = rest.slice(lineEnd + 2 + size + 2);
    }
    body = out;
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body };
}

/**
 * Sends `method path` with `headers` and `body` to `url`'s host on one connection (`Connection:
 * close`), `Content-Length` set unless `chunked` (then the body goes out in chunked encoding, with
 * no length to check up front). Resolves with the whole answer once the server closes the
 * connection; rejects only when no answer came at all.
 */
export function sendReading(
  url: string,
  {
    method = 'POST',
    headers = {},
    body,
    chunked = false,
    pieceBytes = 16 * 1024,
  }: {
    method?: string;
    headers?: Record<string, string>;
    body: Uint8Array;
    chunked?: boolean;
    pieceBytes?: number;
  },
): Promise<RawAnswer> {
  const target = new URL(url);
  const head =
    `${method} ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n` +
    (chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${body.length}\r\n`) +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    '\r\n';
  return new Promise((resolve, reject) => {
    const received: Buffer[] = [];
    let answered = false;
    let failure: Error | undefined;
    const socket = connect({ host: target.hostname, port: Number(target.port) });
    socket.on('data', (chunk: Buffer) => {
      answered = true;
      received.push(chunk);
    });
    // A write the server no longer reads (EPIPE, ECONNRESET) is what this client expects of an
    // early refusal; only an answer that never came is a failure.
    socket.on('error', (error) => {
      failure = error;
    });
    socket.on('close', () => {
      if (received.length === 0) {
        reject(failure ?? new Error(`${method} ${url}: the connection closed with no answer`));
        return;
      }
      const text = Buffer.concat(received).toString('utf8');
      const answer = parseRaw(text);
      resolve({ ...answer, json: () => JSON.parse(answer.body) });
    });
    socket.once('connect', async () => {
      const write = (bytes: Uint8Array | string) =>
        new Promise<void>((done) => {
          if (socket.destroyed || socket.writableEnded) return done();
          socket.write(bytes, () => done());
        });
      await write(head);
      for (let at = 0; at < body.length && !answered && !socket.destroyed; at += pieceBytes) {
        const piece = body.subarray(at, at + pieceBytes);
        await write(
          chunked
            ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
            : piece,
        );
      }
      if (chunked && !answered) await write('0\r\n\r\n');
      // Half-close: the answer still comes in, and the server sees the request is whole.
      if (!socket.destroyed && !socket.writableEnded) socket.end();
    });
  });
}
