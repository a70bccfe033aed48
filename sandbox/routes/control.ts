// The sandbox's own routes, outside `/v1` and without a key, for tests and the demo: what happened
// (`GET /sandbox/state`: credits, jobs, calls per route), the faults to inject next
// (`/sandbox/faults`), uploads to forget as a restart would, and the release of a job a `hold`
// fault keeps queued. The hosted API has none
// of these; docs/sandbox.md documents them.
import type { Hono } from 'hono';
import { z } from 'zod';
import { SandboxError, notFound, validationFailed } from '../api/errors.js';
import { faultSchema } from '../jobs/faults.js';
import { jobJson } from '../jobs/job.js';
import type { Job } from '../jobs/job.js';
import type { JobRunner } from '../jobs/runner.js';
import { zodIssues } from '../api/tryon-request.js';
import { readJson } from './shared.js';
import type { SandboxEnv, SandboxParts } from './shared.js';

/**
 * A job as /sandbox/state lists it: what a test asserts on. The drawn time is given whole, not
 * rounded: rounded to the millisecond, two jobs' own draws can meet by chance.
 */
function jobState(job: Job) {
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    tier: job.tier,
    views: job.views,
    charged: job.charged,
    idempotency_key: job.idempotencyKey,
    parent: job.parent?.id ?? null,
    polls: job.polls,
    seconds: job.seconds,
    vanished: job.vanished ?? false,
  };
}

const jobsOf = (jobIds: string[], jobs: JobRunner) =>
  jobIds.flatMap((id) => {
    const job = jobs.find(id);
    return job ? [jobState(job)] : [];
  });

const forgetSchema = z.strictObject({ kind: z.enum(['person', 'garment']) });

export function mountControl(app: Hono<SandboxEnv>, { workspaces, jobs, faults, requests, files }: SandboxParts): void {
  app.get('/sandbox/state', (c) =>
    c.json({
      workspaces: Object.fromEntries(
        workspaces.list().map((ws) => [ws.name, { credits: ws.credits, jobs: jobsOf(ws.jobIds, jobs) }]),
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
  // Uploads lost, as by a restart: a try-on naming one is refused as naming no such file.
  app.post('/sandbox/files/forget', async (c) => {
    const parsed = forgetSchema.safeParse(await readJson(c));
    if (!parsed.success) throw validationFailed(zodIssues(parsed.error));
    return c.json({ forgotten: files.forget(parsed.data.kind) });
  });
  app.post('/sandbox/jobs/:id/release', (c) => {
    const job = jobs.find(c.req.param('id'));
    if (!job) throw notFound('job');
    if (!jobs.release(job)) throw new SandboxError(409, 'not_held', 'That job is not held.');
    return c.json(jobJson(job));
  });
}
