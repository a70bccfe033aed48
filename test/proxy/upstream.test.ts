// The upstream client's tolerance: states it was not told about, outputs in every wrapping.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jobStatusOf, parseJob, parseOutputs } from '../../proxy/upstream/answers.js';
import { ProxyError } from '../../proxy/http/errors.js';

describe('upstream parsing', () => {
  it('maps states as docs/upstream-api.md says', () => {
    assert.equal(jobStatusOf('queued'), 'queued');
    assert.equal(jobStatusOf('succeeded'), 'succeeded');
    assert.equal(jobStatusOf('rendering'), 'processing');
    assert.equal(jobStatusOf('upscaling'), 'processing');
    for (const s of ['failed', 'error', 'canceled', 'cancelled', 'expired']) assert.equal(jobStatusOf(s), 'failed');
    assert.equal(jobStatusOf(undefined), 'processing');
  });

  it('reads outputs as a bare array or under data, outputs or items, the id in any of its places', () => {
    const expected = [{ fileId: 'file_1', view: 'front', type: 'image', contentType: 'image/jpeg' }];
    assert.deepEqual(parseOutputs([{ file_id: 'file_1', view: 'front', content_type: 'image/jpeg' }]), expected);
    assert.deepEqual(parseOutputs({ data: [{ id: 'file_1', view: 'front', content_type: 'image/jpeg' }] }), expected);
    assert.deepEqual(
      parseOutputs({ outputs: [{ file: 'file_1', view: 'front', content_type: 'image/jpeg' }] }),
      expected,
    );
    assert.deepEqual(
      parseOutputs({ items: [{ file: { id: 'file_1', content_type: 'image/jpeg' }, view: 'front' }] }),
      expected,
    );
    assert.deepEqual(parseOutputs({ data: [{ file_id: 'file_v', content_type: 'video/mp4' }] }), [
      { fileId: 'file_v', view: 'front', type: 'video', contentType: 'video/mp4' },
    ]);
    assert.deepEqual(parseOutputs({ something: 'else' }), []);
    assert.deepEqual(parseOutputs([null, 3, { view: 'front' }]), []);
  });

  it('keeps extra job fields, reads progress in 0..1 or percent, and refuses a job without id', () => {
    const job = parseJob({
      id: 'job_1',
      status: 'queued',
      type: 'catalog',
      progress: 40,
      eta_seconds: 12,
      children: [{ id: 'job_2', view: 'front', status: 'succeeded' }],
    });
    assert.equal(job.progress, 0.4);
    assert.equal(job.raw.eta_seconds, 12);
    assert.deepEqual(job.children, [{ id: 'job_2', view: 'front', status: 'succeeded' }]);
    assert.equal(parseJob({ job: { id: 'job_3', status: 'done' } }).status, 'succeeded');
    assert.throws(
      () => parseJob({ status: 'queued' }),
      (error: unknown) => error instanceof ProxyError && error.code === 'upstream_unavailable',
    );
  });
});
