// A real sandbox and a real proxy on loopback (ephemeral ports), with a catalog whose garment
// and person images are real pictures made with sharp, and every proxy log line captured.
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { closeAfter } from './close-after.js';
import sharp from 'sharp';
import { startSandbox } from '../../sandbox/server.js';
import { startProxy, type StartOptions } from '../../proxy/node.js';
import type { CatalogFile } from '../../proxy/catalog/catalog.js';
import { Upstream } from '../../proxy/upstream/client.js';

export { closeAfter, type Closable } from './close-after.js';

export const KEYS = { sk_test_a: 'ws_1', sk_live_b: 'ws_1', sk_test_c: 'ws_2' } as const;
export const SECRET = 'proxy-secret-for-tests-0123456789abcdef';

export const CATALOG: CatalogFile = {
  defaults: { tier: 'draft', views: ['front'], background: 'studio_white', provider: 'auto' },
  products: {
    'saree-banarasi-red': {
      mode: 'garment_to_person',
      garmentImage: 'garments/banarasi-red.png',
      garment: { category: 'saree', subtype: 'bengali' },
      views: ['front', 'three_quarter_left', 'side', 'back'],
      tier: 'premium',
      background: 'haveli_warm',
      video: { durationSeconds: 1, fps: 8 },
      name: 'Banarasi saree, red',
    },
    'lehenga-emerald': {
      mode: 'person_to_person',
      referencePersonImage: 'models/lehenga-emerald.jpg',
      garment: { category: 'lehenga' },
    },
    'dress-aline-indigo': {
      mode: 'garment_to_person',
      garmentImage: 'garments/dress-indigo.png',
      garment: { category: 'dress', subtype: 'a-line' },
    },
  },
};

export async function personPhoto(width = 480, height = 640, format: 'jpeg' | 'png' = 'jpeg'): Promise<Uint8Array> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 170, b: 150 } } }).composite([
    {
      input: Buffer.from(
        `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 4}" r="${width / 8}" fill="#734"/><rect x="${width / 3}" y="${height / 3}" width="${width / 3}" height="${height / 2}" fill="#345"/></svg>`,
      ),
    },
  ]);
  return new Uint8Array(format === 'png' ? await image.png().toBuffer() : await image.jpeg().toBuffer());
}

async function garmentImage(color: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width: 300, height: 400, channels: 4, background: { ...color, alpha: 1 } } })
    .png()
    .toBuffer();
}

export interface Stack {
  url: string;
  /** The admin listener's origin, when the proxy was given an adminToken. */
  adminUrl?: string | undefined;
  sandboxUrl: string;
  logs: Record<string, unknown>[];
  assetsDir: string;
  upstreamCalls: string[];
  state(): Promise<SandboxState>;
  fault(body: Record<string, unknown>): Promise<void>;
  clearFaults(): Promise<void>;
  close(): Promise<void>;
}

export interface SandboxState {
  workspaces: Record<
    string,
    {
      credits: number;
      jobs: {
        id: string;
        status: string;
        charged: number;
        polls: number;
        idempotency_key?: string;
        parent: string | null;
        tier: string;
      }[];
    }
  >;
  requests: Record<string, number>;
}

export async function writeAssets(dir: string): Promise<void> {
  await mkdir(join(dir, 'garments'), { recursive: true });
  await mkdir(join(dir, 'models'), { recursive: true });
  await writeFile(join(dir, 'garments/banarasi-red.png'), await garmentImage({ r: 180, g: 20, b: 40 }));
  await writeFile(join(dir, 'garments/dress-indigo.png'), await garmentImage({ r: 40, g: 40, b: 140 }));
  await writeFile(join(dir, 'models/lehenga-emerald.jpg'), await personPhoto(400, 600));
}

/** The sandbox as the tests run it: on loopback, a random port, instant renders, the test keys, silent. */
export function startTestSandbox(options: Parameters<typeof startSandbox>[0] = {}): ReturnType<typeof startSandbox> {
  return startSandbox({
    port: 0,
    hostname: '127.0.0.1',
    speed: 0,
    keys: { ...KEYS },
    log: () => undefined,
    ...options,
  });
}

/** The sandbox's test controls (`/sandbox/state`, `/sandbox/faults`) at `sandboxUrl`. */
export function sandboxControls(sandboxUrl: string): Pick<Stack, 'state' | 'fault' | 'clearFaults'> {
  return {
    state: async () => (await (await fetch(`${sandboxUrl}/sandbox/state`)).json()) as SandboxState,
    fault: async (body) => {
      const response = await fetch(`${sandboxUrl}/sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status !== 201) throw new Error(`fault refused: ${response.status} ${await response.text()}`);
    },
    clearFaults: async () => {
      await fetch(`${sandboxUrl}/sandbox/faults`, { method: 'DELETE' });
    },
  };
}

export async function startStack(
  options: {
    apiKey?: string;
    proxy?: Partial<StartOptions>;
    sandbox?: { speed?: number; webhookUrl?: string; webhookSecret?: string; keys?: Record<string, string> };
  } = {},
): Promise<Stack> {
  const assetsDir = await mkdtemp(join(tmpdir(), 'tryon-proxy-test-'));
  await writeAssets(assetsDir);
  const sandbox = await startTestSandbox(options.sandbox);
  const logs: Record<string, unknown>[] = [];
  const upstreamCalls: string[] = [];
  const countingFetch: typeof fetch = (input, init) => {
    upstreamCalls.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
    return fetch(input, init);
  };
  const proxy = await startProxy({
    apiKey: options.apiKey ?? 'sk_test_a',
    baseUrl: sandbox.url,
    secret: SECRET,
    allowedOrigins: ['https://shop.example'],
    catalog: CATALOG,
    assetsDir,
    log: (entry) => logs.push(entry),
    fetch: countingFetch,
    ...options.proxy,
    limits: { retryBaseMs: 20, pollIntervalMs: 200, ...options.proxy?.limits },
  });
  return {
    url: proxy.url,
    adminUrl: proxy.adminUrl,
    sandboxUrl: sandbox.url,
    logs,
    assetsDir,
    upstreamCalls,
    ...sandboxControls(sandbox.url),
    close: async () => {
      await proxy.close();
      await sandbox.close();
      await rm(assetsDir, { recursive: true, force: true });
    },
  };
}

/** A stack of this test's own (`startStack`'s options), closed when the test ends. */
export async function useStack(t: TestContext, options: Parameters<typeof startStack>[0] = {}): Promise<Stack> {
  return closeAfter(t, await startStack(options));
}

export async function uploadPhoto(
  stack: { url: string },
  bytes?: Uint8Array,
  headers: Record<string, string> = {},
): Promise<Response> {
  const form = new FormData();
  form.append('photo', new Blob([(bytes ?? (await personPhoto())) as BlobPart], { type: 'image/jpeg' }), 'me.jpg');
  return fetch(`${stack.url}/photos`, { method: 'POST', body: form, headers });
}

export async function photoHandle(
  stack: { url: string; logs?: Record<string, unknown>[] },
  bytes?: Uint8Array,
): Promise<string> {
  const response = await uploadPhoto(stack, bytes);
  if (response.status !== 201) {
    // A 500's cause is in the proxy's log, not in its answer.
    const logged = (stack.logs ?? []).filter((entry) => entry.level === 'error').slice(-3);
    throw new Error(`upload failed: ${response.status} ${await response.text()} ${JSON.stringify(logged)}`);
  }
  return ((await response.json()) as { photo: string }).photo;
}

export interface TryonAnswer {
  tryon: string;
  status: string;
  views: string[];
}
export interface StatusAnswer {
  status: string;
  outputs: { view: string; url: string; type: string; contentType?: string }[];
  views: string[];
  progress?: number;
  error?: { code: string; message: string; retryable: boolean };
}

let counter = 0;
export const newRequestId = () =>
  `req_${Date.now().toString(36)}_${(counter++).toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

export async function startTryon(
  stack: { url: string; logs?: Record<string, unknown>[] },
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const response = await fetch(`${stack.url}/tryons`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ consent: true, requestId: newRequestId(), ...body }),
  });
  // A 500's cause is in the proxy's log, not in its answer: said beside the test's own failure.
  if (response.status >= 500) {
    const logged = (stack.logs ?? []).filter((entry) => entry.level === 'error').slice(-3);
    if (logged.length > 0)
      console.error(`POST /tryons answered ${response.status}; the proxy logged ${JSON.stringify(logged)}`);
  }
  return response;
}

/** Polls the proxy's status route (bounded) until `done` says so. */
export async function waitForStatus(
  stack: { url: string },
  tryon: string,
  done: (s: StatusAnswer) => boolean,
  timeoutMs = 20_000,
): Promise<StatusAnswer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${stack.url}/tryons/${tryon}`);
    const body = (await response.json()) as StatusAnswer;
    if (response.status !== 200) throw new Error(`status ${response.status}: ${JSON.stringify(body)}`);
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Output URLs are relative to the mount (`files/…`): resolved as the widget does, against the proxy's address with a trailing slash.
export const absolute = (stack: { url: string }, url: string) => new URL(url, stack.url.replace(/\/?$/, '/')).href;

/**
 * A sandbox, an upstream client for it and one try-on job held in `processing` (the sandbox's
 * `hold` outcome), for tests that drive the status board directly: only what they do moves it.
 */
export async function startHeldJob(
  name: string,
): Promise<{ sandbox: Awaited<ReturnType<typeof startSandbox>>; upstream: Upstream; jobId: string }> {
  const sandbox = await startTestSandbox({ keys: { sk_test_a: 'ws_1' } });
  const upstream = new Upstream({
    apiKey: 'sk_test_a',
    baseUrl: sandbox.url,
    timeoutMs: 5_000,
    uploadTimeoutMs: 5_000,
    retries: 0,
    retryBaseMs: 10,
    log: () => undefined,
  });
  const photo = await upstream.uploadFile(await personPhoto(), {
    kind: 'person',
    contentType: 'image/jpeg',
    filename: 'me.jpg',
  });
  const garment = await upstream.uploadFile(await personPhoto(), {
    kind: 'garment',
    contentType: 'image/jpeg',
    filename: 'g.jpg',
  });
  await fetch(`${sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jobOutcome: 'hold', times: 1 }),
  });
  const job = await upstream.submitTryon('image', {
    mode: 'garment_to_person',
    person_image: photo.id,
    garment_image: garment.id,
    garment: { category: 'dress' },
    consent_token: true,
    idempotency_key: `${name}-${Date.now()}`,
  });
  return { sandbox, upstream, jobId: job.id };
}
