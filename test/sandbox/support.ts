// Shared by the sandbox suites: a real sandbox on an ephemeral loopback port, real images, and a
// bounded poll for conditions nothing can be awaited on.
import sharp from 'sharp';
import { startSandbox } from '../../sandbox/server.js';
import type { SandboxOptions } from '../../sandbox/server.js';

export const testKey = 'sk_test_alpha';
export const liveKey = 'sk_live_alpha';
export const otherKey = 'sk_test_beta';
export const keys = { [testKey]: 'ws_1', [liveKey]: 'ws_1', [otherKey]: 'ws_2' };

export type Sandbox = Awaited<ReturnType<typeof startSandbox>> & {
  logs: string[];
  call: (
    method: string,
    path: string,
    init?: { key?: string | null; json?: unknown; body?: BodyInit; headers?: Record<string, string> },
  ) => Promise<Response>;
  json: <T = any>(
    method: string,
    path: string,
    init?: { key?: string | null; json?: unknown },
  ) => Promise<{ status: number; body: T }>;
};

export async function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const logs: string[] = [];
  const started = await startSandbox({ keys, speed: 0, log: (line) => logs.push(line), ...options });
  const call: Sandbox['call'] = (method, path, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    const key = init.key === undefined ? testKey : init.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    return fetch(`${started.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  };
  const json: Sandbox['json'] = async (method, path, init = {}) => {
    const response = await call(method, path, init);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return { ...started, logs, call, json };
}

/** A person-like photo: a head and a body on a plain ground. */
export function personPhoto(width = 400, height = 600, format: 'jpeg' | 'png' | 'webp' = 'jpeg'): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#5a7aa0"/>
    <circle cx="${width / 2}" cy="${height * 0.17}" r="${width * 0.13}" fill="#e0b090"/>
    <rect x="${width * 0.3}" y="${height * 0.3}" width="${width * 0.4}" height="${height * 0.62}" fill="#333344"/></svg>`;
  return sharp(Buffer.from(svg)).toFormat(format).toBuffer();
}

export function garmentPhoto(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400">
    <rect width="100%" height="100%" fill="#c81e3c"/><rect y="150" width="300" height="40" fill="#e8b830"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A file and its kind as FormData encodes them for POST /v1/files: the body's bytes and its content type. */
export async function multipart(
  bytes: Uint8Array,
  kind: string,
  init: { type?: string; name?: string } = {},
): Promise<{ body: Uint8Array; contentType: string }> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)], { type: init.type ?? 'image/jpeg' }), init.name ?? 'photo.jpg');
  form.set('kind', kind);
  const encoded = new Response(form);
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

export async function upload(
  sb: Sandbox,
  bytes: Uint8Array,
  kind: string,
  init: { key?: string; type?: string; name?: string } = {},
) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)], { type: init.type ?? 'image/jpeg' }), init.name ?? 'photo.jpg');
  form.set('kind', kind);
  const response = await sb.call('POST', '/v1/files', { body: form, ...(init.key ? { key: init.key } : {}) });
  return { status: response.status, body: (await response.json()) as any };
}

/** A person and a garment file, uploaded with the given key. */
export async function inputs(sb: Sandbox, key = testKey) {
  const person = await upload(sb, await personPhoto(), 'person', { key });
  const garment = await upload(sb, await garmentPhoto(), 'garment', { key, type: 'image/png', name: 'garment.png' });
  if (person.status !== 201 || garment.status !== 201)
    throw new Error(`upload failed: ${person.status} ${garment.status}`);
  return { person: person.body.id as string, garment: garment.body.id as string };
}

export function imageBody(files: { person: string; garment: string }, extra: Record<string, unknown> = {}) {
  return {
    mode: 'garment_to_person',
    person_image: files.person,
    garment_image: files.garment,
    garment: { category: 'saree', subtype: 'bengali' },
    consent_token: true,
    ...extra,
  };
}

/** Polls until `check` returns a value; fails after `timeoutMs` with the last thing seen. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 100);
  }
}

export async function settled(sb: Sandbox, jobId: string, key = testKey) {
  return until(`job ${jobId} to finish`, async () => {
    const { body } = await sb.json('GET', `/v1/jobs/${jobId}`, { key });
    return body.status === 'succeeded' || body.status === 'failed' ? body : undefined;
  });
}
