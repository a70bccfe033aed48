// Small servers on 127.0.0.1 and an ephemeral port: fixed files, or any fetch-style app.
import { serve } from '@hono/node-server';

export interface Served {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface FixedFile {
  type: string;
  body: string | Uint8Array;
}

/** Serves fixed files by path on 127.0.0.1 and an ephemeral port. */
export function serveFiles(files: Record<string, FixedFile>): Promise<Served> {
  return serveFetch(async (request) => {
    const file = files[new URL(request.url).pathname];
    if (!file) return new Response('not found', { status: 404 });
    return new Response(typeof file.body === 'string' ? file.body : new Uint8Array(file.body), {
      headers: { 'content-type': file.type, 'cache-control': 'no-store' },
    });
  });
}

export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** Runs a fetch-style handler (a Hono app's `fetch`, a forwarder) as an HTTP server on loopback. */
export function serveFetch(handle: FetchHandler): Promise<Served> {
  return new Promise((resolve) => {
    const server = serve({ fetch: handle, port: 0, hostname: '127.0.0.1' }, (info) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}
