// HTTP as shoppers and attackers send it: from a chosen loopback source address (Linux routes all
// of 127.0.0.0/8 to lo, so 127.0.0.2 and 127.0.0.3 are two different shoppers), and raw bytes on a
// socket for what fetch will not send (a lying Content-Length, an upload that stalls).
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface WireAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = unknown>(): T;
}

/** One request from `localAddress` (default 127.0.0.1), no connection reuse. */
export function send(
  url: string,
  options: { from?: string; method?: string; headers?: Record<string, string>; body?: Uint8Array | string } = {},
): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        // A length always: Node sends a GET or DELETE body without one, which the server reads as a second request.
        headers: {
          connection: 'close',
          ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
          ...options.headers,
        },
        localAddress: options.from ?? '127.0.0.1',
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: <T>() => JSON.parse(text) as T });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** A photo as a browser's FormData sends it: the body bytes and their content type. */
export async function photoForm(
  bytes: Uint8Array,
  field = 'photo',
): Promise<{ body: Uint8Array; contentType: string }> {
  const form = new FormData();
  form.append(field, new Blob([bytes as BlobPart], { type: 'image/jpeg' }), 'me.jpg');
  const encoded = new Response(form);
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

export interface RawExchange {
  socket: Socket;
  /** Everything the server sent until it closed the connection (or `ms` passed). */
  answer(ms: number): Promise<{ text: string; closed: boolean; elapsedMs: number }>;
}

/** Opens a socket to `url`'s host and writes `head` (and optionally more bytes later via `socket.write`). */
export function openRaw(url: string, head: string | Uint8Array): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const socket = connect({ host: target.hostname, port: Number(target.port) }, () => {
      socket.write(head);
      const started = Date.now();
      let text = '';
      let closed = false;
      const ended = new Promise<void>((done) => {
        socket.on('close', () => {
          closed = true;
          done();
        });
      });
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
      });
      socket.on('error', () => undefined);
      resolve({
        socket,
        answer: async (ms) => {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            ended,
            new Promise<void>((done) => {
              timer = setTimeout(done, ms);
            }),
          ]);
          clearTimeout(timer);
          return { text, closed, elapsedMs: Date.now() - started };
        },
      });
    });
    socket.once('error', reject);
  });
}

// The raw answer's parser is the one the early-refusal client uses (test/raw-http.ts).
export { parseRaw } from '../raw-http.js';
