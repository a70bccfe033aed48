// A HEIC person photo, made by the tests as an iPhone makes one (HEVC in HEIF, with EXIF and GPS),
// renders for real: the try-on shows the photo's own pixels, not the grey stand-in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { makeHeicPhoto } from '../photos/heic.js';
import { garmentPhoto, imageBody, sandbox, settled, upload } from './support.js';
import type { Sandbox } from './support.js';

describe('HEIC photos in the sandbox', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await sandbox();
  });
  after(() => sb.close());

  it('decodes a HEIC person photo and renders the try-on from its pixels', async () => {
    // Red on the left half, blue on the right; 480 × 640 like a portrait phone photo scaled down.
    const heic = await makeHeicPhoto({ width: 480, height: 640 });
    const person = await upload(sb, heic, 'person', { type: 'image/heic', name: 'IMG_0001.HEIC' });
    const garment = await upload(sb, await garmentPhoto(), 'garment', { type: 'image/png', name: 'garment.png' });
    assert.equal(person.status, 201);
    assert.equal(garment.status, 201);

    const submit = await sb.json('POST', '/v1/images/tryon', {
      json: imageBody({ person: person.body.id, garment: garment.body.id }),
    });
    assert.equal(submit.status, 202);
    const job = await settled(sb, submit.body.id);
    assert.equal(job.status, 'succeeded');
    const [output] = (await sb.json('GET', `/v1/images/${job.id}/outputs`)).body.data;
    const bytes = Buffer.from(await (await sb.call('GET', `/v1/files/${output.file_id}/content`)).arrayBuffer());

    // The photo's size, not the stand-in's 768 × 1024.
    const meta = await sharp(bytes).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 480, 640]);
    // Outside the garment (the left and right tenth, near the top), the photo's own colours show.
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
    ];
    const [lr, lg, lb] = at(20, 60);
    const [rr, rg, rb] = at(460, 60);
    assert.ok(lr! > 180 && lg! < 110 && lb! < 110, `left is red, got ${at(20, 60)}`);
    assert.ok(rb! > 180 && rr! < 110 && rg! < 110, `right is blue, got ${at(460, 60)}`);
  });
});
