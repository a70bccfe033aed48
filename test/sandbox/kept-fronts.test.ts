// The sandbox draws a front once for the same inputs (sandbox/drawing/kept-fronts.ts): the next job on the
// same photo and garment gets the same pixels without drawing again, anything else is drawn anew,
// and a job on a kept front still logs what its render could not do.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { shopperPhotoSvg } from '../../demo/shop/drawings.js';
import { KeptFronts, frontKey, type FrontInputs } from '../../sandbox/drawing/kept-fronts.js';
import type { Front } from '../../sandbox/drawing/picture.js';
import { garmentPhoto, imageBody, personPhoto, sandbox, settled, upload } from './support.js';
import type { Sandbox } from './support.js';

const inputs = (change: Partial<FrontInputs> = {}): FrontInputs => ({
  person: new Uint8Array([1, 2, 3]),
  garment: new Uint8Array([4, 5, 6]),
  garmentFromPerson: false,
  background: 'studio',
  category: 'saree',
  subtype: 'nivi',
  tier: 'standard',
  ...change,
});

/** A stand-in front, told apart by its width; `draws` counts the drawings. */
function drawing() {
  const draw = { count: 0 };
  const make = (width: number) => () => {
    draw.count++;
    return Promise.resolve({ width } as Front);
  };
  return { draw, make };
}

describe('kept fronts', () => {
  it('identifies a front by every input: each byte, the mode, the backdrop, the drape and the tier', () => {
    const key = frontKey(inputs());
    assert.equal(frontKey(inputs()), key, 'equal inputs, equal key');
    for (const change of [
      { person: new Uint8Array([1, 2, 4]) },
      { garment: new Uint8Array([4, 5, 6, 0]) },
      // The same bytes split differently between photo and garment are other inputs.
      { person: new Uint8Array([1, 2, 3, 4]), garment: new Uint8Array([5, 6]) },
      { garmentFromPerson: true },
      { background: 'haveli' },
      { category: 'lehenga' },
      { subtype: 'bengali' },
      { tier: 'draft' as const },
    ]) {
      assert.notEqual(frontKey(inputs(change)), key, JSON.stringify(Object.keys(change)));
    }
  });

  it('draws once for the same inputs, and again for others', async () => {
    const kept = new KeptFronts();
    const { draw, make } = drawing();
    const first = kept.get(inputs(), make(1));
    const second = kept.get(inputs(), make(2));
    assert.deepEqual([first.kept, second.kept], [false, true]);
    assert.equal((await second.front).width, 1, 'the kept front, not a new one');
    assert.equal(kept.get(inputs({ tier: 'draft' }), make(3)).kept, false);
    assert.equal(draw.count, 2);
  });

  it('keeps no front whose drawing failed', async () => {
    const kept = new KeptFronts();
    const failed = kept.get(inputs(), () => Promise.reject(new Error('unreadable')));
    await assert.rejects(failed.front, /unreadable/);
    const { draw, make } = drawing();
    const again = kept.get(inputs(), make(1));
    assert.equal(again.kept, false);
    assert.equal((await again.front).width, 1);
    assert.equal(draw.count, 1);
  });

  it('keeps `size` fronts, dropping the one used longest ago', async () => {
    const kept = new KeptFronts(2);
    const { draw, make } = drawing();
    const a = inputs({ background: 'a' });
    const b = inputs({ background: 'b' });
    const c = inputs({ background: 'c' });
    kept.get(a, make(1));
    kept.get(b, make(2));
    assert.equal(kept.get(a, make(9)).kept, true, 'a used again: b is now the oldest');
    kept.get(c, make(3));
    assert.equal(kept.get(a, make(9)).kept, true);
    assert.equal(kept.get(b, make(4)).kept, false, 'b was dropped for c');
    assert.equal(draw.count, 4);
  });
});

describe('jobs on the same photo and garment', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await sandbox();
  });
  after(() => sb.close());

  async function outputBytes(person: string, garment: string): Promise<{ id: string; bytes: Buffer }> {
    const submit = await sb.json('POST', '/v1/images/tryon', { json: imageBody({ person, garment }) });
    assert.equal(submit.status, 202);
    const job = await settled(sb, submit.body.id);
    assert.equal(job.status, 'succeeded');
    const [output] = (await sb.json('GET', `/v1/images/${job.id}/outputs`)).body.data;
    const response = await sb.call('GET', `/v1/files/${output.file_id}/content`);
    return { id: job.id, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  it('get the same picture, as their own files, whether the photo is uploaded once or again', async () => {
    // The demo's drawn shopper, and the same mirrored: a person is found in both, so they differ.
    const photo = await sharp(Buffer.from(shopperPhotoSvg())).jpeg().toBuffer();
    const garment = (await upload(sb, await garmentPhoto(), 'garment', { type: 'image/png', name: 'g.png' })).body.id;
    const person = (await upload(sb, photo, 'person')).body.id;
    const again = (await upload(sb, photo, 'person')).body.id;
    const first = await outputBytes(person, garment);
    const second = await outputBytes(person, garment);
    const third = await outputBytes(again, garment);
    assert.ok(first.bytes.equals(second.bytes) && first.bytes.equals(third.bytes), 'the same pixels each time');
    const mirrored = await sharp(photo).flop().jpeg().toBuffer();
    const other = await outputBytes((await upload(sb, mirrored, 'person')).body.id, garment);
    assert.ok(!other.bytes.equals(first.bytes), 'another photo is drawn anew');
  });

  it('each log what the render could not do, the kept one too', async () => {
    // A JPEG that stops after its header: stored, but its pixels cannot be read.
    const broken = (await personPhoto()).subarray(0, 400);
    const stored = await upload(sb, broken, 'person');
    assert.equal(stored.status, 201, JSON.stringify(stored.body));
    const garment = (await upload(sb, await garmentPhoto(), 'garment', { type: 'image/png', name: 'g.png' })).body.id;
    const jobs = [await outputBytes(stored.body.id, garment), await outputBytes(stored.body.id, garment)];
    for (const { id } of jobs) {
      assert.ok(
        sb.logs.some((line) => line.includes('person photo could not be read') && line.includes(`(job ${id})`)),
        `job ${id} logs the unreadable photo:\n${sb.logs.join('\n')}`,
      );
    }
  });
});
