// Catalog images given as URLs are fetched by the proxy: from servers the shop runs, but whose
// answers it should not trust without bounds. A fetch is capped in size (counted as it streams),
// follows only a few redirects on the URL's own origin, and gives up after a configured time;
// each refusal is the usual "not set up correctly" error and a log line naming the reason.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { GarmentFiles } from '../../proxy/catalog/garment-files.js';
import { MemoryStore } from '../../proxy/store/memory.js';
import { ProxyError } from '../../proxy/http/errors.js';
import type { Upstream } from '../../proxy/upstream/client.js';

const MOST_BYTES = 256 * 1024;
/** The give-up time the timeout test measures; the other tests allow a loaded machine far longer. */
const TIMEOUT_MS = 400;
const PATIENT_MS = 15_000;

interface ImageServer {
  url: string;
  hits: string[];
  /** Bytes written by each answer that was cut short by the client. */
  cut: number[];
  noteCut(written: number): void;
  /** Resolves once `count` answers were cut short by the client (their 'close' events). */
  cutAnswers(count: number): Promise<void>;
  close(): Promise<void>;
}

async function imageServer(
  handler: (request: IncomingMessage, response: ServerResponse, server: ImageServer) => void,
): Promise<ImageServer> {
  const server = createServer((request, response) => {
    image.hits.push(request.url!);
    handler(request, response, image);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const waiters = new Set<() => void>();
  const cut: number[] = [];
  const image: ImageServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: [],
    cut,
    noteCut: (written) => {
      cut.push(written);
      for (const waiter of waiters) waiter();
    },
    cutAnswers: (count) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (cut.length < count) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return image;
}

/** Streams a PNG's signature and then zeros, 64 KiB at a time, until `total` or the client goes. */
function streamLarge(response: ServerResponse, server: ImageServer, total: number, declare: boolean): void {
  response.writeHead(200, { 'content-type': 'image/png', ...(declare ? { 'content-length': String(total) } : {}) });
  let written = 0;
  let gone = false;
  response.on('close', () => {
    gone = true;
    if (written < total) server.noteCut(written);
  });
  const more = () => {
    while (!gone && written < total) {
      const piece = new Uint8Array(Math.min(64 * 1024, total - written));
      if (written === 0) piece.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      written += piece.length;
      if (!response.write(piece)) return void response.once('drain', more);
    }
    if (!gone) response.end();
  };
  more();
}

describe('catalog images fetched by URL', () => {
  let png: Uint8Array;
  let shop: ImageServer;
  let elsewhere: ImageServer;
  const logs: Record<string, unknown>[] = [];
  const garmentFiles = (timeoutMs = PATIENT_MS) =>
    new GarmentFiles({} as Upstream, new MemoryStore(), {
      uploadTimeoutMs: 2000,
      catalogImageBytes: MOST_BYTES,
      catalogImageTimeoutMs: timeoutMs,
      log: (entry) => logs.push(entry),
    });

  before(async () => {
    png = new Uint8Array(
      await sharp({ create: { width: 64, height: 64, channels: 3, background: '#a33' } })
        .png()
        .toBuffer(),
    );
    elsewhere = await imageServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    shop = await imageServer((request, response, server) => {
      const path = request.url!;
      if (path === '/dress.png') return void response.writeHead(200, { 'content-type': 'image/png' }).end(png);
      if (path === '/moved.png') return void response.writeHead(301, { location: '/dress.png' }).end();
      if (path === '/hop-1.png') return void response.writeHead(302, { location: `${server.url}/moved.png` }).end();
      if (path === '/elsewhere.png')
        return void response.writeHead(302, { location: `${elsewhere.url}/dress.png` }).end();
      if (path === '/other-port.png')
        return void response
          .writeHead(307, { location: `http://localhost:${new URL(server.url).port}/dress.png` })
          .end();
      if (path === '/loop.png') return void response.writeHead(302, { location: '/loop.png' }).end();
      if (path === '/huge.png') return streamLarge(response, server, 50 * 1024 * 1024, false);
      if (path === '/huge-declared.png') return streamLarge(response, server, 50 * 1024 * 1024, true);
      if (path === '/stalls.png') {
        response.writeHead(200, { 'content-type': 'image/png' });
        return void response.write(png.subarray(0, 100));
      }
      // /silent.png: never answers.
    });
  });
  after(async () => {
    await Promise.all([shop.close(), elsewhere.close()]);
  });

  const notSetUp = (error: unknown) =>
    error instanceof ProxyError && error.status === 500 && /not set up correctly/.test(error.message);

  async function refusedWith(path: string, reason: RegExp, timeoutMs?: number): Promise<void> {
    const before = logs.length;
    await assert.rejects(garmentFiles(timeoutMs).picture(`${shop.url}${path}`), notSetUp);
    const line = logs.slice(before).find((entry) => entry.event === 'catalog_image_unreadable');
    assert.ok(line, `a log line for ${path}`);
    assert.equal(line.path, `${shop.url}${path}`);
    assert.match(String(line.message), reason);
  }

  it('fetches an image, and follows a redirect or two on the same origin', async () => {
    for (const path of ['/dress.png', '/moved.png', '/hop-1.png']) {
      const { bytes, contentType } = await garmentFiles().picture(`${shop.url}${path}`);
      assert.equal(contentType, 'image/png');
      assert.deepEqual(bytes, png, path);
    }
  });

  it('refuses a redirect to another host or port, without ever asking it', async () => {
    const asked = () => shop.hits.filter((path) => path === '/dress.png').length;
    const before = asked();
    await refusedWith('/elsewhere.png', /redirect.*another origin/);
    // localhost is this very server, by another name: another origin all the same.
    await refusedWith('/other-port.png', /redirect.*another origin/);
    assert.deepEqual(elsewhere.hits, []);
    assert.equal(asked(), before);
  });

  it('stops after a few redirects', async () => {
    const before = shop.hits.length;
    await refusedWith('/loop.png', /redirects/);
    assert.ok(shop.hits.length - before <= 4, `${shop.hits.length - before} requests`);
  });

  it('stops reading an image over the size cap, declared or not, and says so', async () => {
    await refusedWith('/huge-declared.png', new RegExp(`larger than ${MOST_BYTES} bytes`));
    await refusedWith('/huge.png', new RegExp(`larger than ${MOST_BYTES} bytes`));
    await shop.cutAnswers(2);
    assert.equal(shop.cut.length, 2);
    for (const written of shop.cut) assert.ok(written < 10 * 1024 * 1024, `${written} bytes written before the cut`);
  });

  it(
    'gives up on a server that never answers, or stops mid-image, after the configured time',
    { timeout: 20_000 },
    async () => {
      for (const path of ['/silent.png', '/stalls.png']) {
        const started = Date.now();
        await refusedWith(path, new RegExp(`within ${TIMEOUT_MS} ms`), TIMEOUT_MS);
        const took = Date.now() - started;
        assert.ok(took >= TIMEOUT_MS - 50 && took < TIMEOUT_MS + 2000, `${path}: gave up after ${took} ms`);
      }
    },
  );
});

describe('the file id cache beside the catalog', () => {
  it('keeps catalog images across restarts, never a try-on output sent back as a person file', async () => {
    const { MemoryGarmentIds } = await import('../../proxy/catalog/garment-ids-memory.js');
    const saved: Record<string, string>[] = [];
    const ids = new MemoryGarmentIds(Date.now, {
      fileIdCache: { load: () => Promise.resolve({}), save: (map) => Promise.resolve(void saved.push(map)) },
    });
    await ids.saveGarmentId('garment:garments/dupatta.png', 'file_a');
    await ids.saveGarmentId('person:output:file_out1', 'file_b');
    assert.equal(await ids.garmentId('person:output:file_out1'), 'file_b', 'known to this process');
    assert.deepEqual(saved.at(-1), { 'garment:garments/dupatta.png': 'file_a' });
  });
});
