// The sandbox: a local stand-in for the hosted try-on API's /v1 (docs/upstream-api.md is the
// reading of that API it is built to; docs/sandbox.md documents its options and own routes), so the
// widget and the proxy can be developed and tested with no account and no network. This module is
// the package's entry (`tryon-sandbox`): createSandbox builds one sandbox's state once and mounts the
// route groups (routes/), startSandbox serves it on a loopback port.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { SandboxError, errorBody } from './api/errors.js';
import { Faults } from './jobs/faults.js';
import { FileStore } from './files/store.js';
import { jobJson } from './jobs/job.js';
import { JobRunner } from './jobs/runner.js';
import { defaultGeneralProviders, requestSchemas } from './api/tryon-request.js';
import { WebhookSender } from './jobs/webhooks.js';
import { Workspaces } from './jobs/workspaces.js';
import { mountControl } from './routes/control.js';
import { mountFiles } from './routes/files.js';
import { mountGate, uncountedRoutes } from './routes/gate.js';
import { mountJobs } from './routes/jobs.js';
import type { SandboxEnv, SandboxParts } from './routes/shared.js';
import { mountTryons } from './routes/tryons.js';

export interface SandboxOptions {
  keys?: Record<string, string>; // key -> workspace; default: one made-up sk_test_ key
  speed?: number; // duration multiplier; 0 = instant
  spread?: boolean; // job times drawn log-normal around each tier's median (default); false = the median exactly
  webhookUrl?: string;
  webhookSecret?: string; // secret in Standard Webhooks form "whsec_<base64>"
  generalProviders?: [string, string, string]; // names of the three general-purpose providers
  maxUploadBytes?: number; // default 15 MiB
  log?: (line: string) => void; // default console.log; tests pass a collector
  /** First webhook retry delay; doubles on each try. Default 500 ms. */
  webhookRetryBaseMs?: number;
}

export function createSandbox(options: SandboxOptions = {}) {
  const log = options.log ?? ((line: string) => console.log(line));
  const keys = options.keys ?? { [`sk_test_${randomBytes(12).toString('hex')}`]: 'ws_default' };
  if (Object.keys(keys).length === 0) throw new Error('The sandbox needs at least one API key.');
  const speed = options.speed ?? 1;
  if (!Number.isFinite(speed) || speed < 0) throw new Error(`SANDBOX_SPEED must be a number ≥ 0, not ${speed}.`);
  const maxUploadBytes = options.maxUploadBytes ?? 15 * 1024 * 1024;
  const general = options.generalProviders ?? defaultGeneralProviders;
  if ((options.webhookUrl === undefined) !== (options.webhookSecret === undefined)) {
    throw new Error('Webhooks need both SANDBOX_WEBHOOK_URL and SANDBOX_WEBHOOK_SECRET.');
  }

  const workspaces = new Workspaces();
  for (const name of Object.values(keys)) workspaces.get(name);
  const files = new FileStore();
  const faults = new Faults();
  const webhooks =
    options.webhookUrl && options.webhookSecret
      ? new WebhookSender({
          url: options.webhookUrl,
          secret: options.webhookSecret,
          log,
          ...(options.webhookRetryBaseMs !== undefined ? { baseDelayMs: options.webhookRetryBaseMs } : {}),
        })
      : undefined;
  const jobs = new JobRunner({
    files,
    speed,
    log,
    ...(options.spread !== undefined ? { spread: options.spread } : {}),
    emit: (event, job) => webhooks?.send(event, (job.parent ?? job).id, jobJson(job)),
  });
  const parts: SandboxParts = {
    log,
    keys,
    workspaces,
    files,
    faults,
    jobs,
    schemas: requestSchemas(general),
    generalProviders: general,
    maxUploadBytes,
    requests: uncountedRoutes(),
    delays: new Set(),
  };

  const app = new Hono<SandboxEnv>();

  app.onError((error, c) => {
    if (error instanceof SandboxError) {
      // The rest of a refused oversized body is never read, so this connection cannot carry another request.
      if (error.status === 413) c.header('Connection', 'close');
      return c.json(errorBody(error.code, error.message, error.details), error.status);
    }
    log(`sandbox: unexpected error on ${c.req.method} ${c.req.path}: ${error.message}`);
    return c.json(errorBody('internal_error', 'The sandbox hit an unexpected error.'), 500);
  });
  app.notFound((c) => c.json(errorBody('not_found', `No route ${c.req.method} ${c.req.path}.`), 404));

  // The gate first (count, injected faults, the key), then the /v1 route groups, then the sandbox's own.
  mountGate(app, parts);
  mountFiles(app, parts);
  mountTryons(app, parts);
  mountJobs(app, parts);
  mountControl(app, parts);

  return {
    app,
    keys,
    close(): void {
      jobs.close();
      webhooks?.close();
      for (const { timer, done } of parts.delays) {
        clearTimeout(timer);
        done();
      }
      parts.delays.clear();
    },
  };
}

export async function startSandbox(options: SandboxOptions & { port?: number; hostname?: string } = {}) {
  const sandbox = createSandbox(options);
  const hostname = options.hostname ?? '127.0.0.1';
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve, reject) => {
    const server = serve({ fetch: sandbox.app.fetch, port: options.port ?? 0, hostname }, (info: AddressInfo) =>
      resolve({ server, port: info.port }),
    );
    server.once('error', reject);
  });
  // Idle connections are left for the client to close (fetch's own keep-alive ends after 4 s): a
  // render of the person in a photo holds this process's loop for a moment, after which Node's
  // 5 s timer could close a socket just as a client sends on it (ECONNRESET).
  if ('keepAliveTimeout' in server) server.keepAliveTimeout = 65_000;
  const host = hostname.includes(':') ? `[${hostname}]` : hostname;
  return {
    url: `http://${host}:${port}`,
    port,
    keys: sandbox.keys,
    close: () =>
      new Promise<void>((resolve) => {
        sandbox.close();
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
