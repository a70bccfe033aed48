import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { bodyLimit } from 'hono/body-limit';
import { SandboxError, errorBody, notFound, validationFailed } from './errors.js';
import { Faults, faultCode, faultSchema } from './faults.js';
import { FileStore, fileRecord } from './files.js';
import { imageSize, sniffImageType } from './file-type.js';
import { JobRunner, jobJson, outputJson, resolveProvider } from './jobs.js';
import { price } from './tiers.js';
import { crossFieldIssues, defaultGeneralProviders, requestSchemas, zodIssues } from './tryon-request.js';
import type { TryonRequest } from './tryon-request.js';
import { WebhookSender } from './webhooks.js';
import { Workspaces, isTestKey } from './workspaces.js';
import type { Workspace } from './workspaces.js';

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

type Env = { Variables: { workspace: Workspace; live: boolean } };

const routePatterns: Array<[string, RegExp, string]> = [
  ['POST', /^\/v1\/files\/?$/, 'POST /v1/files'],
  ['POST', /^\/v1\/images\/tryon\/?$/, 'POST /v1/images/tryon'],
  ['POST', /^\/v1\/videos\/tryon\/?$/, 'POST /v1/videos/tryon'],
  ['GET', /^\/v1\/jobs\/[^/]+\/?$/, 'GET /v1/jobs/{id}'],
  ['GET', /^\/v1\/images\/[^/]+\/outputs\/?$/, 'GET /v1/images/{job_id}/outputs'],
  ['GET', /^\/v1\/files\/[^/]+\/content\/?$/, 'GET /v1/files/{file_id}/content'],
];
const routeOf = (method: string, path: string) =>
  routePatterns.find(([m, re]) => m === method && re.test(path))?.[2] ?? `${method} (no such route)`;

/** Same logical request ⇔ same canonical JSON (keys sorted, defaults filled in). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new SandboxError(400, 'invalid_request', 'The body is not valid JSON.');
  }
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
  const schemas = requestSchemas(general);
  const requests: Record<string, number> = Object.fromEntries(routePatterns.map(([, , name]) => [name, 0]));
  const delays = new Set<{ timer: NodeJS.Timeout; done: () => void }>();

  const app = new Hono<Env>();

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

  // Counted before anything can refuse the request, so refused calls show up too.
  app.use('/v1/*', async (c, next) => {
    const route = routeOf(c.req.method, c.req.path);
    requests[route] = (requests[route] ?? 0) + 1;
    const fault = faults.takeRequestFault(c.req.method, c.req.path);
    if (fault && 'status' in fault) {
      if (fault.status === 429 || fault.status === 503) c.header('Retry-After', '1');
      return c.json(
        errorBody(faultCode(fault), fault.message ?? `Injected fault: ${fault.status} for ${fault.match}.`),
        fault.status as ContentfulStatusCode,
      );
    }
    if (fault && 'delayMs' in fault) {
      await new Promise<void>((resolve) => {
        const entry = {
          timer: setTimeout(() => {
            delays.delete(entry);
            resolve();
          }, fault.delayMs),
          done: resolve,
        };
        delays.add(entry);
      });
    }
    await next();
  });

  app.use('/v1/*', async (c, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
    if (!match?.[1]) throw new SandboxError(401, 'unauthorized', 'Send the header Authorization: Bearer <API key>.');
    const workspace = keys[match[1]];
    if (!workspace) throw new SandboxError(401, 'unauthorized', 'The API key is not known.');
    c.set('workspace', workspaces.get(workspace));
    c.set('live', !isTestKey(match[1]));
    await next();
  });

  const tooLarge = (what: string, limit: number) => () => {
    throw new SandboxError(
      413,
      what === 'file' ? 'file_too_large' : 'request_too_large',
      `The ${what} is larger than the limit of ${limit} bytes.`,
    );
  };

  app.post(
    '/v1/files',
    bodyLimit({ maxSize: maxUploadBytes + 64 * 1024, onError: tooLarge('file', maxUploadBytes) }),
    async (c) => {
      if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
        throw new SandboxError(400, 'invalid_request', 'Send multipart/form-data with the fields file and kind.');
      }
      let form: FormData;
      try {
        form = await c.req.formData();
      } catch (error) {
        if (error instanceof SandboxError) throw error;
        throw new SandboxError(400, 'invalid_request', 'The multipart body could not be read.');
      }
      const file = form.get('file');
      const kind = form.get('kind');
      const hasFile = file !== null && typeof file !== 'string';
      const hasKind = kind === 'person' || kind === 'garment';
      if (!hasFile || !hasKind) {
        throw validationFailed([
          ...(hasFile ? [] : [{ field: 'file', message: 'is required: the image as a file part' }]),
          ...(hasKind ? [] : [{ field: 'kind', message: 'must be person or garment' }]),
        ]);
      }
      if (file.size > maxUploadBytes) tooLarge('file', maxUploadBytes)();
      const bytes = new Uint8Array(await file.arrayBuffer());
      const contentType = sniffImageType(bytes);
      if (!contentType) {
        throw new SandboxError(
          415,
          'unsupported_media_type',
          'The file is not a PNG, JPEG, WebP or HEIC image (judged by its content, not its declared type).',
        );
      }
      const size = await imageSize(bytes);
      const stored = files.add({
        workspace: c.get('workspace').name,
        kind,
        contentType,
        bytes,
        width: size?.width,
        height: size?.height,
      });
      return c.json(fileRecord(stored), 201);
    },
  );

  const jsonLimit = bodyLimit({ maxSize: 1024 * 1024, onError: tooLarge('request body', 1024 * 1024) });

  async function submit(c: Context<Env>, kind: 'image' | 'video') {
    const parsed = (kind === 'image' ? schemas.image : schemas.video).safeParse(await readJson(c));
    if (!parsed.success) throw validationFailed(zodIssues(parsed.error));
    const req: TryonRequest = parsed.data;
    const workspace = c.get('workspace');
    const issues = crossFieldIssues(req, (id) => files.get(workspace.name, id)?.kind);
    if (issues.length) throw validationFailed(issues);

    const { idempotency_key: key, ...rest } = req;
    const fingerprint = `${kind}:${canonical(rest)}`;
    if (key !== undefined) {
      const prior = workspace.idempotency.get(key);
      if (prior) {
        if (prior.fingerprint !== fingerprint) {
          throw new SandboxError(
            409,
            'idempotency_conflict',
            'This idempotency_key was already used with a different request body.',
          );
        }
        const job = jobs.get(workspace, prior.jobId);
        if (job) {
          c.header('Idempotent-Replayed', 'true');
          return c.json(jobJson(job), 200);
        }
      }
    }

    const views = 'views' in req ? req.views : ['front' as const];
    const cost = !c.get('live') ? 0 : 'fps' in req ? price.video[req.tier] : price.image[req.tier] * views.length;
    if (cost > workspace.credits) {
      throw new SandboxError(
        402,
        'insufficient_credits',
        `This request costs ${cost} credits and the workspace has ${workspace.credits} left.`,
      );
    }
    workspace.credits -= cost;
    const job = jobs.create({
      workspace,
      request: req,
      views,
      charged: cost,
      idempotencyKey: key ?? null,
      type: kind === 'video' ? 'video' : views.length > 1 ? 'catalog' : 'image',
      provider: resolveProvider(req.provider, req.tier, req.garment.category, general),
      outcome: faults.takeJobOutcome(),
    });
    if (key !== undefined) workspace.idempotency.set(key, { fingerprint, jobId: job.id });
    return c.json(jobJson(job), 202);
  }

  app.post('/v1/images/tryon', jsonLimit, (c) => submit(c, 'image'));
  app.post('/v1/videos/tryon', jsonLimit, (c) => submit(c, 'video'));

  app.get('/v1/jobs/:id', (c) => {
    const job = jobs.get(c.get('workspace'), c.req.param('id'));
    if (!job) throw notFound('job');
    job.polls += 1;
    return c.json(jobJson(job));
  });

  app.get('/v1/images/:job_id/outputs', (c) => {
    const job = jobs.get(c.get('workspace'), c.req.param('job_id'));
    if (!job) throw notFound('job');
    return c.json({ object: 'list', data: job.outputs.map(outputJson) });
  });

  app.get('/v1/files/:file_id/content', (c) => {
    const file = files.get(c.get('workspace').name, c.req.param('file_id'));
    if (!file) throw notFound('file');
    return new Response(new Uint8Array(file.bytes), {
      headers: {
        'content-type': file.contentType,
        'content-length': String(file.bytes.byteLength),
        'cache-control': 'private, max-age=3600',
      },
    });
  });

  app.get('/sandbox/state', (c) =>
    c.json({
      workspaces: Object.fromEntries(
        workspaces.list().map((ws) => [
          ws.name,
          {
            credits: ws.credits,
            jobs: ws.jobIds.flatMap((id) => {
              const job = jobs.find(id);
              return job
                ? [
                    {
                      id: job.id,
                      type: job.type,
                      status: job.status,
                      tier: job.tier,
                      views: job.views,
                      charged: job.charged,
                      idempotency_key: job.idempotencyKey,
                      parent: job.parent?.id ?? null,
                      polls: job.polls,
                      seconds: Math.round(job.seconds * 1000) / 1000,
                    },
                  ]
                : [];
            }),
          },
        ]),
      ),
      requests,
    }),
  );

  app.get('/sandbox/faults', (c) => c.json({ object: 'list', data: faults.list() }));
  app.post('/sandbox/faults', async (c) => {
    const parsed = faultSchema.safeParse(await readJson(c));
    if (!parsed.success) throw validationFailed(zodIssues(parsed.error));
    return c.json(faults.add(parsed.data), 201);
  });
  app.delete('/sandbox/faults', (c) => {
    faults.clear();
    jobs.releaseAll();
    return c.body(null, 204);
  });
  app.post('/sandbox/jobs/:id/release', (c) => {
    const job = jobs.find(c.req.param('id'));
    if (!job) throw notFound('job');
    if (!jobs.release(job)) throw new SandboxError(409, 'not_held', 'That job is not held.');
    return c.json(jobJson(job));
  });

  return {
    app,
    keys,
    close(): void {
      jobs.close();
      webhooks?.close();
      for (const { timer, done } of delays) {
        clearTimeout(timer);
        done();
      }
      delays.clear();
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
