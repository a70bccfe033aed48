import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { sendReading } from '../raw-http.js';
import { imageBody, inputs, liveKey, sandbox, settled, testKey, until } from './support.js';
import type { Sandbox } from './support.js';

describe('job lifecycle, faults and state', () => {
  let sb: Sandbox;
  let files: { person: string; garment: string };
  beforeEach(async () => {
    sb = await sandbox();
    files = await inputs(sb);
  });
  afterEach(() => sb.close());

  const addFault = async (fault: unknown) => {
    const answer = await sb.json('POST', '/sandbox/faults', { json: fault });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.match(answer.body.id, /^fault_/);
    return answer.body;
  };

  it('a status fault answers that status the given number of times, then handles normally', async () => {
    await addFault({ match: 'POST /v1/images/tryon', status: 503, times: 2 });
    for (let i = 0; i < 2; i++) {
      const response = await sb.call('POST', '/v1/images/tryon', { json: imageBody(files) });
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '1');
      assert.equal(((await response.json()) as any).error.code, 'service_unavailable');
    }
    assert.equal((await sb.json('POST', '/v1/images/tryon', { json: imageBody(files) })).status, 202);
    assert.deepEqual((await sb.json('GET', '/sandbox/faults')).body.data, []);
    // Refused requests are counted too.
    assert.equal((await sb.json('GET', '/sandbox/state')).body.requests['POST /v1/images/tryon'], 3);
  });

  it('a delay fault with * delays one matching request, then handles it', async () => {
    const job = (await sb.json('POST', '/v1/images/tryon', { json: imageBody(files) })).body;
    await addFault({ match: 'GET /v1/jobs/*', delayMs: 400 });
    const started = Date.now();
    const slow = await sb.json('GET', `/v1/jobs/${job.id}`);
    const slowMs = Date.now() - started;
    assert.equal(slow.status, 200);
    assert.ok(slowMs >= 390, `took ${slowMs} ms`);
    const again = Date.now();
    await sb.json('GET', `/v1/jobs/${job.id}`);
    assert.ok(Date.now() - again < 390, 'only one request is delayed');
  });

  it('jobOutcome failed makes the next job fail with render_failed and gives live credits back', async () => {
    await addFault({ jobOutcome: 'failed' });
    const live = await inputs(sb, liveKey);
    const submit = await sb.json('POST', '/v1/images/tryon', {
      key: liveKey,
      json: imageBody(live, { views: ['front', 'back'] }),
    });
    assert.equal(submit.status, 202);
    assert.equal(submit.body.status, 'queued');
    const job = await settled(sb, submit.body.id, liveKey);
    assert.equal(job.status, 'failed');
    assert.deepEqual(job.error.code, 'render_failed');
    assert.ok(job.children.every((c: { status: string }) => c.status === 'failed'));
    assert.deepEqual((await sb.json('GET', `/v1/images/${job.id}/outputs`, { key: liveKey })).body.data, []);
    const state = (await sb.json('GET', '/sandbox/state')).body.workspaces.ws_1;
    assert.equal(state.credits, 100);
    // Only the next job was affected.
    const next = await settled(sb, (await sb.json('POST', '/v1/images/tryon', { json: imageBody(files) })).body.id);
    assert.equal(next.status, 'succeeded');
  });

  it('jobOutcome vanish forgets the next job mid-render: 404 under /v1, credits back, still listed in state', async () => {
    await addFault({ jobOutcome: 'vanish' });
    const live = await inputs(sb, liveKey);
    const submit = await sb.json('POST', '/v1/images/tryon', {
      key: liveKey,
      json: imageBody(live, { views: ['front', 'back'] }),
    });
    assert.equal(submit.status, 202);
    const gone = await until('the job to vanish', async () => {
      const { status, body } = await sb.json('GET', `/v1/jobs/${submit.body.id}`, { key: liveKey });
      return status === 404 ? body : undefined;
    });
    assert.equal(gone.error.code, 'not_found');
    assert.equal((await sb.json('GET', `/v1/images/${submit.body.id}/outputs`, { key: liveKey })).status, 404);
    for (const child of submit.body.children as { id: string }[])
      assert.equal((await sb.json('GET', `/v1/jobs/${child.id}`, { key: liveKey })).status, 404);
    const state = (await sb.json('GET', '/sandbox/state')).body.workspaces.ws_1;
    assert.equal(state.credits, 100, 'a job that never finished is not charged');
    const listed = state.jobs.find((j: { id: string }) => j.id === submit.body.id);
    assert.deepEqual([listed.vanished, listed.charged], [true, 0]);
    // Only the next job was affected.
    const next = await settled(sb, (await sb.json('POST', '/v1/images/tryon', { json: imageBody(files) })).body.id);
    assert.equal(next.status, 'succeeded');
  });

  it('POST /sandbox/files/forget forgets the uploads of a kind: a try-on naming one is refused naming the field', async () => {
    const forgot = await sb.json('POST', '/sandbox/files/forget', { json: { kind: 'person' } });
    assert.equal(forgot.status, 200);
    assert.ok(forgot.body.forgotten >= 1);
    const refused = await sb.json('POST', '/v1/images/tryon', { json: imageBody(files) });
    assert.equal(refused.status, 422);
    assert.deepEqual(
      refused.body.error.details.map((d: { field: string }) => d.field),
      ['person_image'],
    );
    assert.equal((await sb.json('POST', '/sandbox/files/forget', { json: { kind: 'output' } })).status, 422);
  });

  it('jobOutcome hold keeps a job processing until it is released', async () => {
    await addFault({ jobOutcome: 'hold', times: 2 });
    const first = (await sb.json('POST', '/v1/images/tryon', { json: imageBody(files) })).body;
    const second = (await sb.json('POST', '/v1/images/tryon', { json: imageBody(files) })).body;
    const held = await until('the job to be processing', async () => {
      const { body } = await sb.json('GET', `/v1/jobs/${first.id}`);
      return body.status === 'processing' ? body : undefined;
    });
    assert.ok(held.progress >= 0 && held.progress < 1);
    assert.deepEqual((await sb.json('GET', `/v1/images/${first.id}/outputs`)).body.data, []);

    const released = await sb.json('POST', `/sandbox/jobs/${first.id}/release`);
    assert.equal(released.status, 200);
    assert.equal((await settled(sb, first.id)).status, 'succeeded');
    assert.equal((await sb.json('POST', `/sandbox/jobs/${first.id}/release`)).status, 409);
    assert.equal((await sb.json('POST', '/sandbox/jobs/job_nope/release')).status, 404);

    assert.equal((await sb.json('GET', `/v1/jobs/${second.id}`)).body.status !== 'succeeded', true);
    assert.equal((await sb.call('DELETE', '/sandbox/faults')).status, 204);
    assert.equal((await settled(sb, second.id)).status, 'succeeded');
  });

  it('lists active faults with what remains; a custom code, 429 and a method wildcard work', async () => {
    const fault = await addFault({ match: '* /v1/files/*/content', status: 429, times: 2, code: 'slow_down' });
    const listed = (await sb.json('GET', '/sandbox/faults')).body.data;
    assert.deepEqual(
      listed.map((f: { id: string; remaining: number }) => [f.id, f.remaining]),
      [[fault.id, 2]],
    );
    const response = await sb.call('GET', `/v1/files/${files.person}/content`);
    assert.equal(response.status, 429);
    assert.equal(response.headers.get('retry-after'), '1');
    assert.equal(((await response.json()) as any).error.code, 'slow_down');
    assert.equal((await sb.json('GET', '/sandbox/faults')).body.data[0].remaining, 1);
    // Other paths are untouched.
    assert.equal((await sb.call('GET', '/v1/jobs/job_x')).status, 404);
    assert.equal((await sb.call('DELETE', '/sandbox/faults')).status, 204);
    assert.equal((await sb.call('GET', `/v1/files/${files.person}/content`)).status, 200);
  });

  it('refuses a JSON body over 1 MiB with 413', async () => {
    // Refused by its Content-Length, so the answer can come while the body is still going out: it
    // is read while sending, as a browser reads it (test/raw-http.ts), never racing the upload.
    const answer = await sendReading(`${sb.url}/v1/images/tryon`, {
      headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(imageBody(files, { pose: 'x'.repeat(1_100_000) }))),
    });
    assert.equal(answer.status, 413);
    assert.equal(answer.json().error.code, 'request_too_large');
  });

  it('drawn failures: one view of a catalog job misdrawn, the others faithful; a drift takes its strength', async () => {
    const outputs = async (jobId: string) => {
      const job = await settled(sb, jobId);
      assert.equal(job.status, 'succeeded');
      const byView: Record<string, Buffer> = {};
      for (const output of (await sb.json('GET', `/v1/images/${jobId}/outputs`)).body.data)
        byView[output.view] = Buffer.from(
          await (await sb.call('GET', `/v1/files/${output.file_id}/content`)).arrayBuffer(),
        );
      return byView;
    };
    const submit = async () =>
      (await sb.json('POST', '/v1/images/tryon', { json: imageBody(files, { views: ['front', 'back'] }) })).body.id;
    const faithful = await outputs(await submit());
    const fault = await addFault({ jobOutcome: 'garment_missing', view: 'back' });
    assert.equal(fault.view, 'back');
    const missing = await outputs(await submit());
    // The same inputs draw the same pixels: only the view the fault names differs.
    assert.ok(missing.front!.equals(faithful.front!), 'front as faithful');
    assert.ok(!missing.back!.equals(faithful.back!), 'back misdrawn');
    const drift = await addFault({ jobOutcome: 'colour_drift' });
    assert.equal(drift.deltaE, 12);
    assert.equal(drift.view, undefined);
    const drifted = await outputs(await submit());
    assert.ok(!drifted.front!.equals(faithful.front!) && !drifted.back!.equals(faithful.back!), 'every view drifted');
    for (const bad of [
      { jobOutcome: 'colour_drift', deltaE: 0 },
      { jobOutcome: 'colour_drift', deltaE: 61 },
      { jobOutcome: 'half_drawn', view: 'top' },
      { jobOutcome: 'wrong_variant', deltaE: 10 },
      { jobOutcome: 'failed', view: 'back' },
    ]) {
      const answer = await sb.json('POST', '/sandbox/faults', { json: bad });
      assert.equal(answer.status, 422, JSON.stringify(bad));
    }
  });

  it('refuses a malformed fault with 422', async () => {
    for (const fault of [
      { match: 'POST', status: 503 },
      { match: 'GET /v1/jobs/*', status: 200 },
      { jobOutcome: 'explode' },
      { delayMs: 5 },
    ]) {
      const answer = await sb.json('POST', '/sandbox/faults', { json: fault });
      assert.equal(answer.status, 422, JSON.stringify(fault));
      assert.equal(answer.body.error.code, 'validation_failed');
    }
  });

  it('/sandbox/state counts requests per route and polls per job', async () => {
    const submit = (
      await sb.json('POST', '/v1/images/tryon', {
        json: imageBody(files, { views: ['front', 'side'], idempotency_key: 'k1' }),
      })
    ).body;
    const job = await settled(sb, submit.id);
    await sb.json('GET', `/v1/jobs/${job.id}`);
    const polls = (await sb.json('GET', '/sandbox/state')).body.workspaces.ws_1.jobs[0].polls;
    const outputs = (await sb.json('GET', `/v1/images/${job.id}/outputs`)).body.data;
    await sb.call('GET', `/v1/files/${outputs[0].file_id}/content`);
    await sb.call('GET', '/v1/jobs/job_x', { key: null });
    const state = (await sb.json('GET', '/sandbox/state')).body;
    assert.deepEqual(Object.keys(state.workspaces).sort(), ['ws_1', 'ws_2']);
    assert.equal(state.workspaces.ws_2.credits, 100);
    assert.deepEqual(state.workspaces.ws_2.jobs, []);
    const [parent, ...children] = state.workspaces.ws_1.jobs;
    assert.deepEqual(
      {
        id: parent.id,
        type: parent.type,
        status: parent.status,
        tier: parent.tier,
        views: parent.views,
        charged: parent.charged,
        idempotency_key: parent.idempotency_key,
        parent: parent.parent,
      },
      {
        id: job.id,
        type: 'catalog',
        status: 'succeeded',
        tier: 'standard',
        views: ['front', 'side'],
        charged: 0,
        idempotency_key: 'k1',
        parent: null,
      },
    );
    assert.equal(parent.polls, polls);
    assert.ok(polls >= 2);
    assert.deepEqual(
      children.map((c: { parent: string }) => c.parent),
      [job.id, job.id],
    );
    assert.deepEqual(state.requests, {
      'POST /v1/files': 2,
      'POST /v1/images/tryon': 1,
      'POST /v1/videos/tryon': 0,
      'GET /v1/jobs/{id}': polls + 1,
      'GET /v1/images/{job_id}/outputs': 1,
      'GET /v1/files/{file_id}/content': 1,
    });
  });
});

describe('timed jobs (speed 0.02)', () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await sandbox({ speed: 0.02 });
  });
  afterEach(() => sb.close());

  it('goes queued → processing (progress rising) → succeeded, with catalog outputs appearing front first', async () => {
    const files = await inputs(sb);
    const submit = (
      await sb.json('POST', '/v1/images/tryon', { json: imageBody(files, { views: ['back', 'front', 'side'] }) })
    ).body;
    const statuses: string[] = [submit.status];
    const progress: number[] = [];
    const outputCounts: number[] = [];
    let firstView: string | undefined;
    await until('the catalog to succeed', async () => {
      const job = (await sb.json('GET', `/v1/jobs/${submit.id}`)).body;
      if (statuses.at(-1) !== job.status) statuses.push(job.status);
      progress.push(job.progress);
      const outputs = (await sb.json('GET', `/v1/images/${submit.id}/outputs`)).body.data;
      outputCounts.push(outputs.length);
      firstView ??= outputs[0]?.view;
      return job.status === 'succeeded' ? job : undefined;
    });
    // Standard at speed 0.02: a drawn time around 300 ms to the front (10 % of it queued), then 40 % of the front per further view.
    assert.deepEqual(statuses, ['queued', 'processing', 'succeeded']);
    assert.equal(firstView, 'front');
    assert.deepEqual(
      progress.toSorted((a, b) => a - b),
      progress,
      'progress never goes back',
    );
    assert.ok(
      progress.some((p) => p > 0 && p < 1),
      'progress was seen between 0 and 1',
    );
    assert.ok(
      outputCounts.some((n) => n > 0 && n < 3),
      'outputs appeared one by one',
    );
    assert.equal(outputCounts.at(-1), 3);
  });
});
