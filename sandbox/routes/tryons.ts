// `POST /v1/images/tryon` and `POST /v1/videos/tryon`: a try-on request checked field by field and
// across fields, replayed for a known idempotency key (409 when the key comes with another body),
// charged to a live key's credits (402 when they do not cover it) and handed to the job runner.
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { SandboxError, validationFailed } from '../api/errors.js';
import { jobJson, resolveProvider } from '../jobs/job.js';
import { price } from '../api/tiers.js';
import { crossFieldIssues, zodIssues } from '../api/tryon-request.js';
import type { TryonRequest } from '../api/tryon-request.js';
import { readJson, tooLarge } from './shared.js';
import type { SandboxEnv, SandboxParts } from './shared.js';

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

export function mountTryons(app: Hono<SandboxEnv>, parts: SandboxParts): void {
  const { schemas, files, jobs, faults, generalProviders } = parts;
  const jsonLimit = bodyLimit({ maxSize: 1024 * 1024, onError: tooLarge('request body', 1024 * 1024) });

  async function submit(c: Context<SandboxEnv>, kind: 'image' | 'video') {
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
      provider: resolveProvider(req.provider, req.tier, req.garment.category, generalProviders),
      ...faults.takeJobOutcome(),
    });
    if (key !== undefined) workspace.idempotency.set(key, { fingerprint, jobId: job.id });
    return c.json(jobJson(job), 202);
  }

  app.post('/v1/images/tryon', jsonLimit, (c) => submit(c, 'image'));
  app.post('/v1/videos/tryon', jsonLimit, (c) => submit(c, 'video'));
}
