// The interfaces of the measured pieces, as their briefs promise them, and loaders that turn a
// missing piece into a clear "could not run" line in the report.
import { importProject } from './harness.js';
import { serveFetch } from './loopback.js';
import { Unavailable } from './report.js';

export interface RunningSandbox {
  url: string;
  port: number;
  keys: Record<string, string>;
  close(): Promise<void>;
}

export interface SandboxModule {
  startSandbox(options?: {
    port?: number;
    hostname?: string;
    speed?: number;
    keys?: Record<string, string>;
    webhookUrl?: string;
    webhookSecret?: string;
    maxUploadBytes?: number;
    log?: (line: string) => void;
  }): Promise<RunningSandbox>;
}

export interface RunningProxy {
  url: string;
  close(): Promise<void>;
}

export interface ProxyNodeModule {
  startProxy(options: Record<string, unknown> & { port?: number; hostname?: string }): Promise<RunningProxy>;
}

export interface ProxyAppModule {
  createProxy(options: Record<string, unknown>): {
    fetch(request: Request, ...rest: unknown[]): Response | Promise<Response>;
  };
}

export interface DemoModule {
  startDemo(options?: {
    port?: number;
    sandboxPort?: number;
    speed?: number;
    quiet?: boolean;
  }): Promise<{ url: string; sandboxUrl?: string; close(): Promise<void> }>;
}

export interface BuildModule {
  buildCdn(options?: {
    outDir?: string;
    quiet?: boolean;
  }): Promise<{ outDir: string; files: { file: string; bytes: number; gzip: number }[] }>;
}

export const loadSandbox = () => importProject<SandboxModule>('sandbox/server.ts', ['startSandbox']);
export const loadProxyNode = () => importProject<ProxyNodeModule>('proxy/node.ts', ['startProxy']);
export const loadProxyApp = () => importProject<ProxyAppModule>('proxy/app.ts', ['createProxy']);
export const loadDemo = () => importProject<DemoModule>('demo/start.ts', ['startDemo']);
export const loadBuild = () => importProject<BuildModule>('scripts/build.ts', ['buildCdn']);

/** Keys of a sandbox workspace used by the benches: a test key, so nothing is ever charged. */
export const BENCH_KEYS = { sk_test_bench: 'ws_bench' };
export const BENCH_KEY = 'sk_test_bench';

export interface SandboxJob {
  id: string;
  type: string;
  status: string;
  polls: number;
  parent: string | null;
  updated_at?: string;
}

export interface SandboxState {
  workspaces: Record<string, { credits: number; jobs: SandboxJob[] }>;
  requests: Record<string, number>;
}

export async function sandboxState(sandboxUrl: string): Promise<SandboxState> {
  const response = await fetch(`${sandboxUrl}/sandbox/state`);
  if (!response.ok) throw new Error(`GET /sandbox/state: HTTP ${response.status}`);
  return (await response.json()) as SandboxState;
}

export function allJobs(state: SandboxState): SandboxJob[] {
  return Object.values(state.workspaces).flatMap((workspace) => workspace.jobs);
}

/** Sum of every upstream request the sandbox counted (all of /v1, refused ones included). */
export function upstreamTotal(state: SandboxState): number {
  return Object.values(state.requests).reduce((sum, count) => sum + count, 0);
}

/** A one-product catalog in docs/proxy.md's format; the garment image is written by the caller. */
export function benchCatalog(garmentImage: string): Record<string, unknown> {
  return {
    defaults: { tier: 'draft', views: ['front'], background: 'studio_white', provider: 'auto' },
    products: {
      'bench-saree': {
        name: 'Bench saree',
        mode: 'garment_to_person',
        garmentImage,
        garment: { category: 'saree', subtype: 'nivi' },
        views: ['front'],
        tier: 'draft',
      },
    },
  };
}

/** Limits high enough that a load test measures the proxy's work, not its rate limiter. */
export const UNLIMITED = {
  ratePerMinute: 10_000_000,
  readsPerMinute: 10_000_000,
  tryonsPerPhoto: 10_000_000,
  dailyTryons: 10_000_000,
  dailyCredits: 1_000_000_000,
  clientDailyTryons: 10_000_000,
  // The bench's watchers share one client address: the per-client stream cap (20) would refuse the 100.
  streamsPerClient: 0,
};

/**
 * The proxy on loopback and an ephemeral port through its Node entry (proxy/node.ts); while that
 * entry is not written yet, its app (proxy/app.ts) served the same way.
 */
export async function startBenchProxy(options: Record<string, unknown>): Promise<RunningProxy> {
  try {
    const { startProxy } = await loadProxyNode();
    return await startProxy({ ...options, port: 0, hostname: '127.0.0.1' });
  } catch (error) {
    if (!(error instanceof Unavailable)) throw error;
    const { createProxy } = await loadProxyApp();
    const app = createProxy(options);
    return serveFetch((request) => app.fetch(request));
  }
}

/** Holds the next job the sandbox creates in `processing` until it is released. */
export async function holdNextJob(sandboxUrl: string): Promise<void> {
  const response = await fetch(`${sandboxUrl}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jobOutcome: 'hold', times: 1 }),
  });
  if (response.status !== 201)
    throw new Error(`POST /sandbox/faults: HTTP ${response.status} ${await response.text()}`);
}

export async function releaseJob(sandboxUrl: string, jobId: string): Promise<void> {
  const response = await fetch(`${sandboxUrl}/sandbox/jobs/${jobId}/release`, { method: 'POST' });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`POST /sandbox/jobs/${jobId}/release: HTTP ${response.status}`);
}

/** The newest top-level job the sandbox knows that is not in `known`. */
export async function newJob(sandboxUrl: string, known: Set<string>): Promise<SandboxJob | undefined> {
  return allJobs(await sandboxState(sandboxUrl))
    .filter((job) => job.parent === null && !known.has(job.id))
    .at(-1);
}
