// Demo fidelity: a sandbox render should look like a try-on, the garment covering the figure from
// the shoulders to the hem at its own proportions (not squeezed into a strip), and still say
// "sandbox". Rendered through the real API from the demo shop's own shopper photo.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { shopperPhotoSvg } from '../../demo/shop/drawings.js';
import { imageBody, sandbox, settled, upload } from './support.js';
import type { Sandbox } from './support.js';

type Colour = { r: number; g: number; b: number };

/**
 * A cut-out garment in the shop's 600×800 body frame (transparent around it): a long kurta from
 * the shoulders (y 200, x 196–404) flaring to the hem (y 780, x 160–440).
 */
function garment(colour: Colour): Promise<Buffer> {
  const fill = `rgb(${colour.r},${colour.g},${colour.b})`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
    <path d="M196 200 L404 200 L440 780 L160 780 Z" fill="${fill}"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** The demo's shopper: 768×1024, shoulders at about 29 % of the height and 34–66 % of the width, feet at 94 %. */
const shopper = () => sharp(Buffer.from(shopperPhotoSvg())).jpeg().toBuffer();

const RED = { r: 200, g: 24, b: 32 };
const GREEN = { r: 20, g: 150, b: 60 };

async function frontOf(
  sb: Sandbox,
  person: string,
  colour: Colour,
): Promise<{ data: Buffer; width: number; height: number }> {
  const garmentFile = await upload(sb, await garment(colour), 'garment', { type: 'image/png', name: 'kurta.png' });
  assert.equal(garmentFile.status, 201);
  const submit = await sb.json('POST', '/v1/images/tryon', {
    json: imageBody({ person, garment: garmentFile.body.id }, { garment: { category: 'dress' } }),
  });
  assert.equal(submit.status, 202);
  const job = await settled(sb, submit.body.id);
  assert.equal(job.status, 'succeeded');
  const [output] = (await sb.json('GET', `/v1/images/${job.id}/outputs`)).body.data;
  const bytes = Buffer.from(await (await sb.call('GET', `/v1/files/${output.file_id}/content`)).arrayBuffer());
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Pixels of the band between the shoulders, from just below shoulder height to above the caption band. */
function* bodyBand(picture: { data: Buffer; width: number; height: number }): Generator<Colour> {
  for (let y = Math.round(picture.height * 0.31); y < picture.height * 0.88; y += 4) {
    for (let x = Math.round(picture.width * 0.35); x < picture.width * 0.65; x += 4) {
      const at = (y * picture.width + x) * 3;
      yield { r: picture.data[at]!, g: picture.data[at + 1]!, b: picture.data[at + 2]! };
    }
  }
}

const share = (picture: { data: Buffer; width: number; height: number }, test: (c: Colour) => boolean) => {
  let hits = 0;
  let all = 0;
  for (const colour of bodyBand(picture)) {
    all++;
    if (test(colour)) hits++;
  }
  return hits / all;
};

const reddish = (c: Colour) => c.r > 110 && c.r > 1.5 * c.g && c.r > 1.5 * c.b;
const greenish = (c: Colour) => c.g > 90 && c.g > 1.3 * c.r && c.g > 1.3 * c.b;

describe('sandbox render fidelity', () => {
  let sb: Sandbox;
  let person: string;
  before(async () => {
    sb = await sandbox();
    const file = await upload(sb, await shopper(), 'person');
    assert.equal(file.status, 201);
    person = file.body.id;
  });
  after(() => sb.close());

  it('covers the figure from the shoulders to the hem with the garment', async () => {
    const red = await frontOf(sb, person, RED);
    assert.deepEqual([red.width, red.height], [768, 1024]);
    const covered = share(red, reddish);
    assert.ok(
      covered > 0.85,
      `the garment's colour covers ${(covered * 100).toFixed(0)} % of the body band between the shoulders (want > 85 %)`,
    );
    // At its own proportions: as wide at the hem as the garment is, not a strip down the middle.
    const hemRow = Math.round(red.height * 0.86);
    let first = -1;
    let last = -1;
    for (let x = 0; x < red.width; x++) {
      const at = (hemRow * red.width + x) * 3;
      if (reddish({ r: red.data[at]!, g: red.data[at + 1]!, b: red.data[at + 2]! })) {
        if (first < 0) first = x;
        last = x;
      }
    }
    const hemWidth = (last - first) / red.width;
    assert.ok(
      hemWidth > 0.38 && hemWidth < 0.5,
      `hem spans ${(hemWidth * 100).toFixed(0)} % of the width (the garment's 280:580 shape at the body's height is about 44 %)`,
    );
  });

  it('gives two garments of other colours outputs of those colours in the body region', async () => {
    const red = await frontOf(sb, person, RED);
    const green = await frontOf(sb, person, GREEN);
    assert.ok(share(green, greenish) > 0.85, "the green garment's output is green across the body");
    assert.ok(share(green, reddish) < 0.05, 'and not red');
    assert.ok(share(red, greenish) < 0.05, 'the red one is not green');
  });
});
