// A HEIC person photo, made by the tests as an iPhone makes one (HEVC in HEIF, with EXIF and GPS),
// renders for real: the try-on shows the photo's own pixels, not the grey stand-in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { makeHeicPhoto } from '../photos/heic.js';
import { shopperPhotoSvg } from '../../demo/shop/drawings.js';
import { garmentPhoto, imageBody, sandbox, settled, upload } from './support.js';
import type { Sandbox } from './support.js';

describe('HEIC photos in the sandbox', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await sandbox();
  });
  after(() => sb.close());

  it('decodes a HEIC person photo and renders the try-on from its pixels', async () => {
    // The demo's drawn shopper as a portrait phone photo: the person is found only if it was decoded.
    const { data } = await sharp(Buffer.from(shopperPhotoSvg()))
      .resize(480, 640)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const heic = await makeHeicPhoto({ width: 480, height: 640, pixels: data });
    const person = await upload(sb, heic, 'person', { type: 'image/heic', name: 'IMG_0001.HEIC' });
    const garment = await upload(sb, await garmentPhoto(), 'garment', { type: 'image/png', name: 'garment.png' });
    assert.equal(person.status, 201);
    assert.equal(garment.status, 201);

    const mark = sb.logs.length;
    const submit = await sb.json('POST', '/v1/images/tryon', {
      json: imageBody({ person: person.body.id, garment: garment.body.id }),
    });
    assert.equal(submit.status, 202);
    const job = await settled(sb, submit.body.id);
    assert.equal(job.status, 'succeeded');
    const [output] = (await sb.json('GET', `/v1/images/${job.id}/outputs`)).body.data;
    const bytes = Buffer.from(await (await sb.call('GET', `/v1/files/${output.file_id}/content`)).arrayBuffer());
    assert.equal((await sharp(bytes).metadata()).format, 'jpeg');
    // Neither unreadable nor without a person: the render found the shopper in the decoded pixels.
    const notes = sb.logs.slice(mark).filter((line) => line.includes('sandbox: render:'));
    assert.deepEqual(notes, [], 'no render note (no stand-in)');
    // Her face (skin, drawn #c68863) shows in the top of the portrait, in its middle.
    const { data: out, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let skin = 0;
    for (let y = Math.round(info.height * 0.04); y < info.height * 0.2; y += 2)
      for (let x = Math.round(info.width * 0.4); x < info.width * 0.6; x += 2) {
        const at = (y * info.width + x) * 3;
        if (out[at]! > 150 && out[at]! - out[at + 2]! > 50 && out[at + 1]! - out[at + 2]! > 15) skin++;
      }
    assert.ok(skin > 100, `the shopper's face shows (${skin} skin samples)`);
  });
});
