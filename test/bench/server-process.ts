// A sandbox or a proxy in a process of its own, so that a load test measures it apart from the
// load generator, and so that the proxy's resident memory is its own. Started by `spawnServer`
// with its settings in BENCH_SERVER; talks to the parent over IPC:
//   child → parent {type:'ready', url} | {type:'memory', ...} | {type:'cpu', micros} | {type:'failed', reason}
//   parent → child {type:'memory'} | {type:'cpu'} | {type:'reset-peak'} | {type:'stop'}
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveFetch } from './loopback.js';
import { loadSandbox, startBenchProxy } from './project.js';

export type ServerSettings =
  | { kind: 'sandbox'; keys: Record<string, string>; speed: number; webhookUrl?: string; webhookSecret?: string }
  | { kind: 'proxy'; options: Record<string, unknown> & { assetsDir: string } }
  /** The framework's floor: a bare Hono app on @hono/node-server answering GET /health as the proxy does. */
  | { kind: 'bare-hono' }
  /** The same floor, answering the proxy's head (its security headers and a request id) from the route. */
  | { kind: 'bare-hono-same-head' }
  /**
   * The upload-memory control: a plain Node forwarder that pipes every request to upstream's
   * /v1/files (`req.pipe(http.request(…))`), with Node's own stream buffers and nothing else.
   */
  | { kind: 'forwarder'; upstream: string; apiKey: string };

export interface Memory {
  rss: number;
  peakRss: number;
  maxRss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Most bytes held in ArrayBuffers (request and response bodies) at one time since the last reset. */
  peakArrayBuffers: number;
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** With `collect`, garbage is collected first, so the figures are what is really held. */
  memory(options?: { collect?: boolean }): Promise<Memory>;
  resetPeak(): Promise<void>;
  /** CPU time (user + system) the process has used so far, in microseconds. */
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

type Message =
  | { type: 'ready'; url: string }
  | { type: 'failed'; reason: string }
  | ({ type: 'memory' } & Memory)
  | { type: 'cpu'; micros: number }
  | { type: 'peak-reset' };

export function spawnServer(settings: ServerSettings, timeoutMs = 30_000): Promise<ServerProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the servers under load.
    execArgv: [
      '--import',
      'tsx',
      '--expose-gc',
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
    env: { ...process.env, BENCH_SERVER: JSON.stringify(settings), NODE_ENV: 'test' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = <T extends Message['type']>(type: T) =>
    new Promise<Extract<Message, { type: T }>>((resolve, reject) => {
      const onMessage = (message: Message) => {
        if (message.type === type) {
          child.off('message', onMessage);
          child.off('exit', onExit);
          resolve(message as Extract<Message, { type: T }>);
        }
        if (message.type === 'failed') {
          child.off('message', onMessage);
          child.off('exit', onExit);
          reject(new Error(message.reason));
        }
      };
      const onExit = (code: number | null) => {
        child.off('message', onMessage);
        reject(new Error(`the ${settings.kind} process exited (${code})`));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the ${settings.kind} process did not start in ${timeoutMs} ms`));
    }, timeoutMs);
    next('ready').then(
      (ready) => {
        clearTimeout(timer);
        resolve({
          url: ready.url,
          pid: child.pid ?? 0,
          memory: async (options = {}) => {
            const answer = next('memory');
            child.send({ type: 'memory', collect: options.collect === true });
            const { type: _type, ...memory } = await answer;
            return memory;
          },
          cpuMicros: async () => {
            const answer = next('cpu');
            child.send({ type: 'cpu' });
            return (await answer).micros;
          },
          resetPeak: async () => {
            const answer = next('peak-reset');
            child.send({ type: 'reset-peak' });
            await answer;
          },
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) {
                done();
                return;
              }
              const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
              child.once('exit', () => {
                clearTimeout(killer);
                done();
              });
              child.send({ type: 'stop' });
            }),
        });
      },
      (error: unknown) => {
        clearTimeout(timer);
        child.kill();
        reject(error as Error);
      },
    );
  });
}

async function serveInThisProcess(settings: ServerSettings): Promise<void> {
  const send = (message: Message) => process.send?.(message);
  let close: () => Promise<void>;
  let url: string;
  if (settings.kind === 'bare-hono') {
    const { Hono } = await import('hono');
    const app = new Hono();
    app.get('/health', (c) => c.json({ ok: true, upstream: 'test' }));
    const served = await serveFetch((request) => app.fetch(request));
    url = served.url;
    close = () => served.close();
  } else if (settings.kind === 'bare-hono-same-head') {
    // The cheapest way Hono can send that head: a plain header record, from the route, no middleware.
    const { Hono } = await import('hono');
    const { SECURITY_HEADERS } = await import('../../proxy/http/fixed-headers.js');
    const fixed = Object.fromEntries(SECURITY_HEADERS);
    const app = new Hono();
    app.get(
      '/health',
      () =>
        new Response(JSON.stringify({ ok: true, upstream: 'test' }), {
          headers: { 'content-type': 'application/json', ...fixed, 'X-Request-Id': crypto.randomUUID() },
        }),
    );
    const served = await serveFetch((request) => app.fetch(request));
    url = served.url;
    close = () => served.close();
  } else if (settings.kind === 'forwarder') {
    const served = await plainForwarder(settings.upstream, settings.apiKey);
    url = served.url;
    close = served.close;
  } else if (settings.kind === 'sandbox') {
    const { startSandbox } = await loadSandbox();
    const sandbox = await startSandbox({
      port: 0,
      hostname: '127.0.0.1',
      speed: settings.speed,
      keys: settings.keys,
      log: () => {},
      ...(settings.webhookUrl ? { webhookUrl: settings.webhookUrl, webhookSecret: settings.webhookSecret } : {}),
    });
    url = sandbox.url;
    close = () => sandbox.close();
  } else {
    const assetsDir = settings.options.assetsDir;
    const options = {
      ...settings.options,
      readAsset: async (path: string) =>
        new Uint8Array(await readFile(path.startsWith('/') ? path : join(assetsDir, path))),
      log: () => {},
    };
    const proxy = await startBenchProxy(options);
    url = proxy.url;
    close = () => proxy.close();
  }

  // Sampled often so that a short burst (50 uploads) cannot slip between two looks; maxRSS from
  // the kernel backs it up. Only once asked, so that latency runs are not sharing the loop with it.
  let peakRss = process.memoryUsage.rss();
  let peakArrayBuffers = process.memoryUsage().arrayBuffers;
  let sampler: NodeJS.Timeout | undefined;
  const sample = () => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakArrayBuffers = Math.max(peakArrayBuffers, usage.arrayBuffers);
    return usage;
  };
  process.on('message', (message: { type: string; collect?: boolean }) => {
    if (message.type === 'memory') {
      if (message.collect) {
        // Twice: V8 frees a dead ArrayBuffer's memory in a sweep that may still be running when
        // gc() returns, so one collection's reading can still count all the garbage since the last
        // one (measured: 4 readings in 40 in a quiet process, 12 in 98 during the stalled uploads,
        // up to 21.6 MB where 6.3 MB was live). A second collection finishes the first one's sweep.
        const collect = (globalThis as { gc?: () => void }).gc;
        collect?.();
        collect?.();
      }
      const usage = sample();
      send({
        type: 'memory',
        rss: usage.rss,
        peakRss,
        maxRss: process.resourceUsage().maxRSS * 1024,
        heapUsed: usage.heapUsed,
        external: usage.external,
        arrayBuffers: usage.arrayBuffers,
        peakArrayBuffers,
      });
    } else if (message.type === 'cpu') {
      const used = process.cpuUsage();
      send({ type: 'cpu', micros: used.user + used.system });
    } else if (message.type === 'reset-peak') {
      peakRss = process.memoryUsage.rss();
      peakArrayBuffers = process.memoryUsage().arrayBuffers;
      sampler ??= setInterval(sample, 10);
      send({ type: 'peak-reset' });
    } else if (message.type === 'stop') {
      clearInterval(sampler);
      void close().finally(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', url });
}

async function plainForwarder(upstream: string, apiKey: string): Promise<{ url: string; close(): Promise<void> }> {
  const http = await import('node:http');
  const target = new URL('/v1/files', upstream);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: target.host, authorization: `Bearer ${apiKey}` };
    const outgoing = http.request(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    outgoing.on('error', () => res.destroy());
    req.pipe(outgoing);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

if (process.env.BENCH_SERVER && process.send) {
  const settings = JSON.parse(process.env.BENCH_SERVER) as ServerSettings;
  serveInThisProcess(settings).catch((error: unknown) => {
    process.send?.({ type: 'failed', reason: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  });
}
