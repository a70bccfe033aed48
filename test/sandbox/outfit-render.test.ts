// An outfit's next piece in the sandbox: a lehenga rendered on the demo's drawn shopper through the
// real API, its front output sent back as a person file, and a dupatta rendered over it. Sampled
// where the render says the body is (the landmarks of renderFront with the same inputs, as
// render.test.ts does): the dupatta's own colour falls from the left shoulder, the lehenga's skirt
// is still the lehenga's where the dupatta does not reach, unchanged from the first result, and
// the same inputs draw the same pixels.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { shopperPhotoSvg } from '../../demo/shop/drawings.js';
import { renderFront, renderOver } from '../../sandbox/drawing/render.js';
import { frame } from '../../sandbox/drawing/dressing.js';
import { imageBody, sandbox, settled, upload } from './support.js';
import type { Sandbox } from './support.js';

type Colour = { r: number; g: number; b: number };
type Point = { x: number; y: number };
type Pixels = { data: Buffer; width: number; height: number };

/** A cut-out piece of cloth in the shop's 600×800 frame (transparent around it), one colour. */
function cloth(colour: Colour): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
    <path d="M196 200 L404 200 L440 780 L160 780 Z" fill="rgb(${colour.r},${colour.g},${colour.b})"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const GREEN = { r: 20, g: 150, b: 60 };
const ROSE = { r: 220, g: 60, b: 140 };
const greenish = (c: Colour) => c.g > 70 && c.g > 1.3 * c.r && c.g > 1.3 * c.b;
const rosy = (c: Colour) => c.r > 110 && c.r > 1.6 * c.g && c.b > 1.2 * c.g;

const at = (p: Pixels, x: number, y: number): Colour => {
  const i = (Math.round(y) * p.width + Math.round(x)) * 3;
  return { r: p.data[i]!, g: p.data[i + 1]!, b: p.data[i + 2]! };
};
const decoded = async (bytes: Uint8Array): Promise<Pixels> => {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};
const mid = (a: Point, b: Point, t = 0.5): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
const along = (from: Point, to: Point) => [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8].map((t) => mid(from, to, t));

describe('the sandbox: a dupatta over a lehenga', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await sandbox();
  });
  after(async () => {
    await sb.close();
  });

  /** One render through the API: its front output's bytes. */
  async function rendered(person: Uint8Array, garment: Buffer, category: string): Promise<Buffer> {
    const personFile = await upload(sb, person, 'person');
    const garmentFile = await upload(sb, garment, 'garment', { type: 'image/png', name: 'garment.png' });
    assert.equal(personFile.status, 201);
    const submit = await sb.json('POST', '/v1/images/tryon', {
      json: imageBody({ person: personFile.body.id, garment: garmentFile.body.id }, { garment: { category } }),
    });
    assert.equal(submit.status, 202, JSON.stringify(submit.body));
    const job = await settled(sb, submit.body.id);
    assert.equal(job.status, 'succeeded');
    const [output] = (await sb.json('GET', `/v1/images/${job.id}/outputs`)).body.data;
    return Buffer.from(await (await sb.call('GET', `/v1/files/${output.file_id}/content`)).arrayBuffer());
  }

  it('shows the dupatta’s colour over one shoulder and the lehenga’s where it does not reach', async () => {
    const person = await sharp(Buffer.from(shopperPhotoSvg())).jpeg().toBuffer();
    const lehenga = await cloth(GREEN);
    const dupatta = await cloth(ROSE);
    const first = await rendered(person, lehenga, 'lehenga');
    const layered = await rendered(first, dupatta, 'dupatta');
    // The body's landmarks, as the render drew them.
    const front = await renderFront({
      person,
      garment: lehenga,
      garmentFromPerson: false,
      background: 'studio_white',
      category: 'lehenga',
      tier: 'standard',
    });
    assert.equal(front.personFound, true, 'the shopper is found');
    const f = frame(front.landmarks);
    const across = f.across;
    const out = (p: Point, k: number): Point => ({ x: p.x + across.x * f.sw * k, y: p.y + across.y * f.sw * k });
    const before = await decoded(first);
    const after = await decoded(layered);
    assert.deepEqual([after.width, after.height], [before.width, before.height], 'the result’s own frame');

    // The dupatta's fall, down the left side from the shoulder towards the knee: its own colour.
    const knee = mid(f.lk, f.la, 0.25);
    const fall = along(out(f.ls, 0.16), out(knee, 0.26));
    const draped = fall.filter((p) => rosy(at(after, p.x, p.y))).length;
    assert.ok(draped >= 6, `the dupatta's colour along its fall: ${draped} of ${fall.length} points`);
    assert.equal(fall.filter((p) => rosy(at(before, p.x, p.y))).length, 0, 'no rose there before it');

    // The skirt on the right, between the knee and the ankle: the lehenga's, as it was.
    const skirt = along(mid(mid(f.lk, f.rk), f.rk, 0.6), mid(mid(f.la, f.ra), f.ra, 0.6));
    const green = skirt.filter((p) => greenish(at(after, p.x, p.y))).length;
    assert.ok(green >= 6, `the lehenga's colour on the skirt: ${green} of ${skirt.length} points`);
    for (const p of skirt) {
      const a = at(after, p.x, p.y);
      const b = at(before, p.x, p.y);
      const difference = (Math.abs(a.r - b.r) + Math.abs(a.g - b.g) + Math.abs(a.b - b.b)) / 3;
      assert.ok(
        difference < 12,
        `the skirt unchanged beneath (${difference.toFixed(1)} at ${p.x.toFixed(0)},${p.y.toFixed(0)})`,
      );
    }

    // The same inputs draw the same pixels.
    const piece = { garment: dupatta, garmentFromPerson: false, category: 'dupatta', tier: 'standard' as const };
    const once = await renderOver(front, piece);
    const twice = await renderOver(front, piece);
    assert.ok(once.data.equals(twice.data), 'deterministic');
  });
});
