// `GET /v1/jobs/{id}` and `GET /v1/images/{job_id}/outputs`: what a client polls. Each poll is
// counted on the job, so a test can see how often the proxy asked (one poll for many watchers).
import type { Hono } from 'hono';
import { notFound } from '../api/errors.js';
import { jobJson, outputJson } from '../jobs/job.js';
import type { SandboxEnv, SandboxParts } from './shared.js';

export function mountJobs(app: Hono<SandboxEnv>, { jobs }: SandboxParts): void {
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
}
