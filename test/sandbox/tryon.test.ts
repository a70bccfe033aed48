import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { garmentPhoto, imageBody, inputs, personPhoto, sandbox, settled, until, upload } from './support.js';
import type { Sandbox } from './support.js';

describe('image try-on happy path', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await sandbox();
  });
  after(() => sb.close());

  it('renders a single front view that downloads as a real JPEG the size of the person photo', async () => {
    const files = await inputs(sb);
    const submit = await sb.json('POST', '/v1/images/tryon', { json: imageBody(files) });
    assert.equal(submit.status, 202);
    assert.match(submit.body.id, /^job_/);
    assert.equal(submit.body.status, 'queued');
    assert.equal(submit.body.type, 'image');
    assert.deepEqual(submit.body.views, ['front']);
    assert.equal(submit.body.tier, 'standard');

    const job = await settled(sb, submit.body.id);
    assert.equal(job.status, 'succeeded');
    assert.equal(job.progress, 1);

    const outputs = await sb.json('GET', `/v1/images/${job.id}/outputs`);
    assert.equal(outputs.status, 200);
    assert.equal(outputs.body.object, 'list');
    assert.equal(outputs.body.data.length, 1);
    const [output] = outputs.body.data;
    assert.equal(output.view, 'front');
    assert.equal(output.type, 'image');
    assert.match(output.file_id, /^file_/);

    const content = await sb.call('GET', `/v1/files/${output.file_id}/content`);
    assert.equal(content.status, 200);
    assert.equal(content.headers.get('content-type'), 'image/jpeg');
    const bytes = Buffer.from(await content.arrayBuffer());
    assert.equal(Number(content.headers.get('content-length')), bytes.length);
    const meta = await sharp(bytes).metadata();
    assert.equal(meta.format, 'jpeg');
    assert.equal(meta.width, 400);
    assert.equal(meta.height, 600);
  });

  it('builds a catalog: parent of type catalog, front first, four downloadable decoded outputs', async () => {
    const files = await inputs(sb);
    const views = ['side', 'front', 'three_quarter_left', 'back'];
    const submit = await sb.json('POST', '/v1/images/tryon', {
      json: imageBody(files, { views, tier: 'premium', background: 'haveli_warm' }),
    });
    assert.equal(submit.status, 202);
    assert.equal(submit.body.type, 'catalog');
    assert.equal(submit.body.status, 'queued');
    assert.equal(submit.body.children.length, 4);

    const job = await settled(sb, submit.body.id);
    assert.equal(job.status, 'succeeded');
    assert.ok(job.children.every((child: { status: string }) => child.status === 'succeeded'));

    const outputs = (await sb.json('GET', `/v1/images/${job.id}/outputs`)).body.data;
    assert.equal(outputs.length, 4);
    assert.equal(outputs[0].view, 'front');
    assert.deepEqual(new Set(outputs.map((o: { view: string }) => o.view)), new Set(views));
    const pictures = [];
    for (const output of outputs) {
      const content = await sb.call('GET', `/v1/files/${output.file_id}/content`);
      assert.equal(content.headers.get('content-type'), 'image/jpeg');
      const bytes = Buffer.from(await content.arrayBuffer());
      assert.equal(Number(content.headers.get('content-length')), bytes.length);
      const meta = await sharp(bytes).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 400, 600]);
      pictures.push(await sharp(bytes).resize(32, 48, { fit: 'fill' }).raw().toBuffer());
    }
    // A distinct look per view: no two outputs are the same picture.
    for (let i = 0; i < pictures.length; i++) {
      for (let j = i + 1; j < pictures.length; j++) assert.notDeepEqual(pictures[i], pictures[j]);
    }

    // Each child is a job of its own, with its own single output.
    const child = job.children.find((c: { view: string }) => c.view === 'back');
    const childJob = await sb.json('GET', `/v1/jobs/${child.id}`);
    assert.equal(childJob.body.status, 'succeeded');
    assert.equal(childJob.body.parent, job.id);
    const childOutputs = (await sb.json('GET', `/v1/images/${child.id}/outputs`)).body.data;
    assert.deepEqual(
      childOutputs.map((o: { view: string }) => o.view),
      ['back'],
    );
  });

  it('renders person_to_person from a reference person', async () => {
    const files = await inputs(sb);
    const reference = files.person;
    const submit = await sb.json('POST', '/v1/images/tryon', {
      json: {
        mode: 'person_to_person',
        person_image: files.person,
        reference_person_image: reference,
        garment: { category: 'lehenga' },
        consent_token: true,
      },
    });
    assert.equal(submit.status, 202);
    const job = await settled(sb, submit.body.id);
    assert.equal(job.status, 'succeeded');
    const outputs = (await sb.json('GET', `/v1/images/${job.id}/outputs`)).body.data;
    assert.equal(outputs.length, 1);
  });

  it('still renders when an input cannot be decoded (a broken HEIC person, truncated PNG garment)', async () => {
    const heic = Buffer.alloc(64);
    heic.writeUInt32BE(24, 0);
    heic.write('ftypheic', 4, 'latin1');
    const person = await upload(sb, heic, 'person', { type: 'image/heic' });
    const png = (await garmentPhoto()).subarray(0, 40);
    const garment = await upload(sb, png, 'garment', { type: 'image/png' });
    assert.equal(person.status, 201);
    assert.equal(garment.status, 201);
    const submit = await sb.json('POST', '/v1/images/tryon', {
      json: imageBody({ person: person.body.id, garment: garment.body.id }),
    });
    const job = await settled(sb, submit.body.id);
    assert.equal(job.status, 'succeeded');
    const [output] = (await sb.json('GET', `/v1/images/${job.id}/outputs`)).body.data;
    const bytes = Buffer.from(await (await sb.call('GET', `/v1/files/${output.file_id}/content`)).arrayBuffer());
    const meta = await sharp(bytes).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 768, 1024]);
  });

  it('caps the output at 1024 on the long side', async () => {
    const big = await upload(sb, await personPhoto(1200, 1800), 'person');
    const files = await inputs(sb);
    const job = await settled(
      sb,
      (await sb.json('POST', '/v1/images/tryon', { json: imageBody({ ...files, person: big.body.id }) })).body.id,
    );
    const [output] = (await sb.json('GET', `/v1/images/${job.id}/outputs`)).body.data;
    assert.deepEqual([output.width, output.height], [683, 1024]);
    const bytes = Buffer.from(await (await sb.call('GET', `/v1/files/${output.file_id}/content`)).arrayBuffer());
    const meta = await sharp(bytes).metadata();
    assert.deepEqual([meta.width, meta.height], [683, 1024]);
  });

  it('reports an unknown job and an unknown file as 404 with a JSON error', async () => {
    for (const path of [
      '/v1/jobs/job_nope',
      '/v1/images/job_nope/outputs',
      '/v1/files/file_nope/content',
      '/v1/nothing',
    ]) {
      const answer = await sb.json('GET', path);
      assert.equal(answer.status, 404, path);
      assert.equal(answer.body.error.code, 'not_found');
    }
  });

  it('keeps workspaces apart: another workspace cannot see a job or its files', async () => {
    const files = await inputs(sb);
    const submit = await sb.json('POST', '/v1/images/tryon', { json: imageBody(files) });
    await until('job to be visible', async () =>
      (await sb.json('GET', `/v1/jobs/${submit.body.id}`)).status === 200 ? true : undefined,
    );
    const seen = await sb.json('GET', `/v1/jobs/${submit.body.id}`, { key: 'sk_test_beta' });
    assert.equal(seen.status, 404);
    const file = await sb.json('GET', `/v1/files/${files.person}/content`, { key: 'sk_test_beta' });
    assert.equal(file.status, 404);
  });
});
