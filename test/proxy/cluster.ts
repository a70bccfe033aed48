// Several proxy instances as separate processes (`node --import tsx proxy/node.ts`, configured
// only by the environment, as a shop runs them) on one real Redis (Debian's redis-server on a
// free loopback port, no persistence), in front of one real sandbox, with a catalog file and
// its pictures in a temporary folder. Each instance's JSON log lines are kept.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { programPath } from '../../scripts/prerequisites.js';
import { sandboxControls, startTestSandbox, CATALOG, SECRET, writeAssets, type SandboxState } from './stack.js';
import { waitForOutput } from '../process-output.js';

const projectRoot = new URL('../../', import.meta.url).pathname;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (as an outage would): the port stays this Redis's. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Debian's redis-server (found as `npm test` finds it: REDIS_SERVER_PATH, PATH, the system folders)
 * on a free loopback port. With `cluster`, it runs in cluster mode as a cluster of one node holding
 * every slot: scripts whose KEYS span slots fail there as on any Redis Cluster.
 */
export async function startRedis(options: { cluster?: boolean } = {}): Promise<RedisServer> {
  const binary = programPath('redis-server');
  const dir = await mkdtemp(join(tmpdir(), 'tryon-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const clusterArgs = options.cluster ? ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf'] : [];
  const start = async () => {
    child = spawn(
      binary,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--protected-mode',
        'no',
        ...clusterArgs,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await waitForOutput(child, /Ready to accept connections/, 15_000, 'redis-server');
    if (options.cluster) await holdEverySlot(port);
  };
  const stop = async () => {
    if (!child) return;
    const running = child;
    child = undefined;
    running.kill('SIGKILL');
    await exited(running);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Gives the one node every slot (unless nodes.conf says it has them) and waits until the cluster says ok. */
async function holdEverySlot(port: number): Promise<void> {
  const { Redis } = await import('ioredis');
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  try {
    await client.connect();
    const info = async () => String(await client.call('CLUSTER', 'INFO'));
    if (/cluster_slots_assigned:0\b/.test(await info())) await client.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
    const deadline = Date.now() + 15_000;
    while (!(await info()).includes('cluster_state:ok')) {
      if (Date.now() > deadline) throw new Error('redis-server in cluster mode never reached cluster_state:ok');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    client.disconnect();
  }
}

export interface Instance {
  url: string;
  /** Its JSON log lines so far. */
  logs: Record<string, unknown>[];
  /** Everything it wrote, for a failure's message. */
  output(): string;
  /**
   * Resolves once `count` log lines match: a line the process writes after its answer reaches us
   * through a pipe, so a test that counts lines right after the answer must wait for them.
   */
  logged(matches: (entry: Record<string, unknown>) => boolean, count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** One `node --import tsx proxy/node.ts` with this environment (TRYON_PORT=0: its port read from its start-up line). */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'proxy/node.ts'], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      TRYON_PORT: '0',
      TRYON_HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let text = '';
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    partial += chunk.toString();
    const lines = partial.split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith('{')) {
        try {
          logs.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          /* a line that is not a log entry */
        }
      }
    }
    for (const check of waiters) check();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const match = await waitForOutput(child, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 60_000, 'proxy instance');
  return {
    url: match[1]!,
    logs,
    output: () => text,
    logged: (matches, count, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${count} matching log lines expected, ${logs.filter(matches).length} seen:\n${text}`));
        }, timeoutMs);
        function check(): void {
          if (logs.filter(matches).length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        }
        waiters.add(check);
        check();
      }),
    close: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

export interface Cluster {
  instances: Instance[];
  sandboxUrl: string;
  redis: RedisServer;
  /** The environment every instance was started with (to start one more, or again). */
  env: Record<string, string>;
  /** Webhook deliveries the sandbox made (through the relay to instance 0), with their times. */
  webhooks: { at: number; status: number }[];
  state(): Promise<SandboxState>;
  fault(body: Record<string, unknown>): Promise<void>;
  release(jobId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * `count` instances on `redis` (started here unless given), each with the environment `env`
 * adds to the defaults; the sandbox's webhooks (with `webhookSecret`) go to instance 0.
 */
export async function startCluster(options: {
  count: number;
  redis?: RedisServer;
  env?: Record<string, string>;
  webhookSecret?: string;
}): Promise<Cluster> {
  const dir = await mkdtemp(join(tmpdir(), 'tryon-cluster-'));
  await writeAssets(dir);
  await writeFile(join(dir, 'catalog.json'), JSON.stringify(CATALOG));
  let target = '';
  const webhooks: { at: number; status: number }[] = [];
  let relay: ReturnType<typeof serve> | undefined;
  const relayUrl = options.webhookSecret
    ? await new Promise<string>((resolve) => {
        relay = serve(
          {
            port: 0,
            hostname: '127.0.0.1',
            fetch: async (request) => {
              const at = Date.now();
              const response = await fetch(`${target}/webhooks`, {
                method: 'POST',
                headers: request.headers,
                body: await request.text(),
              });
              webhooks.push({ at, status: response.status });
              return response;
            },
          },
          (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}/webhooks`),
        );
      })
    : undefined;
  const sandbox = await startTestSandbox(
    relayUrl ? { webhookUrl: relayUrl, webhookSecret: options.webhookSecret } : {},
  );
  const ownRedis = options.redis ? undefined : await startRedis();
  const redis = options.redis ?? ownRedis!;
  const env: Record<string, string> = {
    TRYON_API_KEY: 'sk_test_a',
    TRYON_BASE_URL: sandbox.url,
    TRYON_PROXY_SECRET: SECRET,
    TRYON_ALLOWED_ORIGINS: 'https://shop.example',
    TRYON_CATALOG: join(dir, 'catalog.json'),
    TRYON_REDIS_URL: redis.url,
    TRYON_POLL_INTERVAL_MS: '200',
    ...(options.webhookSecret ? { TRYON_WEBHOOK_SECRET: options.webhookSecret } : {}),
    ...options.env,
  };
  const instances = await Promise.all(Array.from({ length: options.count }, () => startInstance(env)));
  const controls = sandboxControls(sandbox.url);
  target = instances[0]!.url;
  return {
    instances,
    sandboxUrl: sandbox.url,
    redis,
    env,
    webhooks,
    state: controls.state,
    fault: controls.fault,
    release: async (jobId) => {
      const response = await fetch(`${sandbox.url}/sandbox/jobs/${jobId}/release`, { method: 'POST' });
      if (!response.ok) throw new Error(`release refused: ${response.status}`);
    },
    close: async () => {
      await Promise.all(instances.map((instance) => instance.close()));
      await sandbox.close();
      if (relay) await new Promise<void>((resolve) => relay!.close(() => resolve()));
      await ownRedis?.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
