// Demo fidelity: a sandbox render shows the shopper wearing the garment. Rendered through the real
// API from real photos of people (the demo's sample photo, and Debian's opencv-doc photos of a
// footballer in a stadium crowd and a man in an office: test/photos/people.ts) and from the demo's
// drawn shopper, and sampled where the render itself says the body is (its landmarks, from
// renderFront with the same inputs, which must give the same bytes): the garment's colours cover
// the torso, the chosen backdrop is what shows beside the figure, and the face is the shopper's
// own in front (and not from the back). The same inputs give the same bytes; a photo with no person
// gets a captioned stand-in, logged.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { shopperPhotoSvg } from '../../demo/shop/drawings.js';
import { backdropPicture, renderFront, renderView } from '../../sandbox/drawing/render.js';
import { findPerson } from '../../sandbox/drawing/person.js';
import type { Front } from '../../sandbox/drawing/picture.js';
import { opencvDataPresent, peoplePhoto, OPENCV_DATA } from '../photos/people.js';
import { imageBody, sandbox, settled, upload } from './support.js';
import type { Sandbox } from './support.js';

type Colour = { r: number; g: number; b: number };
type Pixels = { data: Buffer; width: number; height: number };

/** A cut-out kurta in the shop's 600×800 body frame (transparent around it), one colour. */
function garment(colour: Colour): Promise<Buffer> {
  const fill = `rgb(${colour.r},${colour.g},${colour.b})`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
    <path d="M196 200 L404 200 L440 780 L160 780 Z" fill="${fill}"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const RED = { r: 200, g: 24, b: 32 };
const GREEN = { r: 20, g: 150, b: 60 };
const reddish = (c: Colour) => c.r > 90 && c.r > 1.5 * c.g && c.r > 1.5 * c.b;
const greenish = (c: Colour) => c.g > 70 && c.g > 1.3 * c.r && c.g > 1.3 * c.b;

const shopper = () => sharp(Buffer.from(shopperPhotoSvg())).jpeg().toBuffer();
const SAMPLE = new URL('../../demo/shop/sample-person.jpg', import.meta.url);

const at = (p: Pixels, x: number, y: number): Colour => {
  const i = (Math.round(y) * p.width + Math.round(x)) * 3;
  return { r: p.data[i]!, g: p.data[i + 1]!, b: p.data[i + 2]! };
};
const decoded = async (bytes: Uint8Array): Promise<Pixels> => {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};

/** Points of the torso: the quadrilateral shoulders–hips, shrunk a fifth towards its middle. */
function* torso(front: Front): Generator<{ x: number; y: number }> {
  const l = front.landmarks;
  const corners = [l.rightShoulder, l.leftShoulder, l.leftHip, l.rightHip];
  const cx = corners.reduce((s, p) => s + p.x, 0) / 4;
  const cy = corners.reduce((s, p) => s + p.y, 0) / 4;
  const [a, b, c, d] = corners.map((p) => ({ x: cx + (p.x - cx) * 0.8, y: cy + (p.y - cy) * 0.8 }));
  for (let u = 0; u <= 1; u += 0.05)
    for (let v = 0; v <= 1; v += 0.05) {
      const top = { x: a!.x + (b!.x - a!.x) * u, y: a!.y + (b!.y - a!.y) * u };
      const bottom = { x: d!.x + (c!.x - d!.x) * u, y: d!.y + (c!.y - d!.y) * u };
      yield { x: top.x + (bottom.x - top.x) * v, y: top.y + (bottom.y - top.y) * v };
    }
}

/** The face's box from landmarks: centred on the nose, inside the face (the ground around the head differs). */
function faceBox(l: Front['landmarks']) {
  const eyes = Math.hypot(l.leftEye.x - l.rightEye.x, l.leftEye.y - l.rightEye.y);
  const side = Math.max(eyes * 1.7, 12);
  return { left: l.nose.x - side / 2, top: l.nose.y - side * 0.5, width: side, height: side };
}

/** A box of a picture as 16 × 16 RGB, for comparing faces at any scale. */
async function thumb(p: Pixels, box: { left: number; top: number; width: number; height: number }) {
  const left = Math.max(0, Math.round(box.left));
  const top = Math.max(0, Math.round(box.top));
  const width = Math.min(p.width - left, Math.round(box.width));
  const height = Math.min(p.height - top, Math.round(box.height));
  return sharp(p.data, { raw: { width: p.width, height: p.height, channels: 3 } })
    .extract({ left, top, width, height })
    .resize(16, 16, { fit: 'fill' })
    .raw()
    .toBuffer();
}
const meanDifference = (a: Buffer, b: Buffer) => a.reduce((s, v, i) => s + Math.abs(v - b[i]!), 0) / a.length;

interface Rendered {
  front: Front;
  views: Record<string, Pixels>;
  bytes: Record<string, Buffer>;
}

async function render(
  sb: Sandbox,
  person: Buffer,
  garmentBytes: Buffer,
  options: { category: string; subtype?: string; background: string; views?: string[] },
): Promise<Rendered> {
  const personFile = await upload(sb, person, 'person');
  const garmentFile = await upload(sb, garmentBytes, 'garment', { type: 'image/png', name: 'garment.png' });
  assert.equal(personFile.status, 201);
  assert.equal(garmentFile.status, 201);
  const submit = await sb.json('POST', '/v1/images/tryon', {
    json: imageBody(
      { person: personFile.body.id, garment: garmentFile.body.id },
      {
        garment: { category: options.category, ...(options.subtype ? { subtype: options.subtype } : {}) },
        background: options.background,
        views: options.views ?? ['front'],
      },
    ),
  });
  assert.equal(submit.status, 202, JSON.stringify(submit.body));
  const job = await settled(sb, submit.body.id);
  assert.equal(job.status, 'succeeded');
  const views: Record<string, Pixels> = {};
  const bytes: Record<string, Buffer> = {};
  for (const output of (await sb.json('GET', `/v1/images/${job.id}/outputs`)).body.data) {
    const file = Buffer.from(await (await sb.call('GET', `/v1/files/${output.file_id}/content`)).arrayBuffer());
    bytes[output.view] = file;
    views[output.view] = await decoded(file);
  }
  // The same inputs drawn directly: the landmarks to sample by, and the same bytes as the API's.
  const front = await renderFront({
    person,
    garment: garmentBytes,
    garmentFromPerson: false,
    background: options.background,
    category: options.category,
    subtype: options.subtype ?? (options.category === 'saree' ? 'nivi' : undefined),
    tier: 'standard',
  });
  return { front, views, bytes };
}

/** The three things a render must show, asserted; the figures, for the test's diagnostics. */
async function assertWorn(
  photo: Buffer,
  rendered: Rendered,
  colourTest: (c: Colour) => boolean,
  background: string,
): Promise<string> {
  const { front, views } = rendered;
  const picture = views.front!;
  assert.equal(front.personFound, true, 'the person is found');
  assert.deepEqual([picture.width, picture.height], [front.width, front.height]);
  // 1. The garment's colours cover the torso.
  const points = [...torso(front)];
  const covered = points.filter((p) => colourTest(at(picture, p.x, p.y))).length / points.length;
  assert.ok(covered > 0.85, `the garment's colours cover ${(covered * 100).toFixed(0)} % of the torso (want > 85 %)`);
  // 2. Beside the figure, above the badge and the caption band, the chosen backdrop.
  const backdrop = {
    data: await backdropPicture(background, front.width, front.height),
    width: front.width,
    height: front.height,
  };
  const box = front.figureBox;
  let sum = 0;
  let count = 0;
  for (let y = Math.round(front.height * 0.04); y < front.height * 0.8; y += 6)
    for (let x = 2; x < front.width - 2; x += 6) {
      if (x > box.left - 12 && x < box.left + box.width + 12 && y > box.top - 12 && y < box.top + box.height + 12)
        continue;
      const a = at(picture, x, y);
      const b = at(backdrop, x, y);
      sum += (Math.abs(a.r - b.r) + Math.abs(a.g - b.g) + Math.abs(a.b - b.b)) / 3;
      count++;
    }
  assert.ok(count > 200, `enough backdrop beside the figure to sample (${count} points)`);
  const ground = sum / count;
  assert.ok(
    ground < 6,
    `beside the figure the picture is the ${background} backdrop (mean difference ${ground.toFixed(1)})`,
  );
  // 3. The face is the shopper's: the face found in the photo, compared with the render's face.
  const source = await decoded(await sharp(photo).resize({ width: 512, height: 512, fit: 'inside' }).jpeg().toBuffer());
  const found = await findPerson({ ...source, channels: 3 });
  assert.ok(found, 'the photo has a person');
  const theirs = await thumb(source, faceBox(found.landmarks));
  // Landmarks found on two pictures of different sizes differ by a few pixels: the best of small shifts.
  const near = async (box: ReturnType<typeof faceBox>) => {
    let best = Infinity;
    for (const dx of [-0.12, -0.06, 0, 0.06, 0.12])
      for (const dy of [-0.12, -0.06, 0, 0.06, 0.12]) {
        const moved = { ...box, left: box.left + dx * box.width, top: box.top + dy * box.height };
        best = Math.min(best, meanDifference(theirs, await thumb(picture, moved)));
      }
    return best;
  };
  const face = await near(faceBox(front.landmarks));
  // Against the same box moved onto the garment: what a face that is not the shopper's scores.
  const l = front.landmarks;
  const chest = { ...faceBox(l), top: (l.leftShoulder.y + l.rightShoulder.y) / 2 + 4 };
  const elsewhere = await near(chest);
  assert.ok(
    face < 24 && face < elsewhere * 0.6,
    `the render's face is the shopper's (mean difference ${face.toFixed(1)} of 255; the chest scores ${elsewhere.toFixed(1)})`,
  );
  return `torso ${(covered * 100).toFixed(0)} % garment, ground difference ${ground.toFixed(1)}, face difference ${face.toFixed(1)} (chest ${elsewhere.toFixed(1)})`;
}

describe('sandbox render fidelity', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await sandbox();
  });
  after(() => sb.close());

  it('dresses the drawn shopper: garment on the torso, the backdrop around, her face', async (t) => {
    const photo = await shopper();
    const red = await render(sb, photo, await garment(RED), {
      category: 'dress',
      background: 'studio_white',
      views: ['front', 'back'],
    });
    t.diagnostic(await assertWorn(photo, red, reddish, 'studio_white'));
    // From the back no face shows: the same box is hair, far from the front's face.
    const front = await thumb(red.views.front!, faceBox(red.front.landmarks));
    const mirrored = { ...faceBox(red.front.landmarks) };
    mirrored.left = red.front.width - mirrored.left - mirrored.width;
    const back = await thumb(red.views.back!, mirrored);
    assert.ok(
      meanDifference(front, back) > 35,
      `the back's head is not the face (${meanDifference(front, back).toFixed(1)})`,
    );
  });

  it('gives two garments of other colours outputs of those colours on the torso', async () => {
    const photo = await shopper();
    const red = await render(sb, photo, await garment(RED), { category: 'saree', background: 'haveli_warm' });
    const green = await render(sb, photo, await garment(GREEN), { category: 'saree', background: 'haveli_warm' });
    const shareOf = (r: Rendered, test: (c: Colour) => boolean) => {
      const points = [...torso(r.front)];
      return points.filter((p) => test(at(r.views.front!, p.x, p.y))).length / points.length;
    };
    assert.ok(shareOf(green, greenish) > 0.85, "the green garment's output is green on the torso");
    assert.ok(shareOf(green, reddish) < 0.05, 'and not red');
    assert.ok(shareOf(red, greenish) < 0.05, 'the red one is not green');
  });

  it('gives the same bytes for the same inputs, in another sandbox and drawn directly', async () => {
    const photo = await shopper();
    const options = { category: 'saree', subtype: 'bengali', background: 'haveli_warm', views: ['front', 'side'] };
    const first = await render(sb, photo, await garment(RED), options);
    const other = await sandbox();
    try {
      const second = await render(other, photo, await garment(RED), options);
      assert.ok(first.bytes.front!.equals(second.bytes.front!), 'the front: same bytes');
      assert.ok(first.bytes.side!.equals(second.bytes.side!), 'the side view: same bytes');
    } finally {
      await other.close();
    }
    const direct = await renderView(first.front, {
      category: 'saree',
      subtype: 'bengali',
      view: 'front',
      background: 'haveli_warm',
      tier: 'standard',
      provider: 'general_a',
    });
    assert.ok(direct.bytes.equals(first.bytes.front!), 'drawn directly: the same bytes as through the API');
  });

  it('draws a captioned stand-in when the photo has no person, and logs it', async () => {
    // Camera noise with a circle and a box on it: no model finds a person there.
    const noise = await sharp({
      create: {
        width: 400,
        height: 600,
        channels: 3,
        background: { r: 0, g: 0, b: 0 },
        noise: { type: 'gaussian', mean: 128, sigma: 70 },
      },
    })
      .composite([
        {
          input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600">
          <circle cx="200" cy="100" r="50" fill="#e0b090"/><rect x="120" y="170" width="160" height="400" fill="#333344"/></svg>`),
        },
      ])
      .jpeg()
      .toBuffer();
    const mark = sb.logs.length;
    const rendered = await render(sb, noise, await garment(GREEN), { category: 'dress', background: 'studio_white' });
    const lines = sb.logs.slice(mark);
    assert.ok(
      lines.some((l) => /no person found in the photo: a stand-in figure is shown \(job job_/.test(l)),
      `logged: ${lines.join(' | ')}`,
    );
    assert.equal(rendered.front.personFound, false);
    assert.ok(
      rendered.front.notes.some((n) => n.startsWith('no person found')),
      'captioned on the output',
    );
    // The stand-in still wears the garment, and the backdrop is the chosen one around it.
    const points = [...torso(rendered.front)];
    const covered = points.filter((p) => greenish(at(rendered.views.front!, p.x, p.y))).length / points.length;
    assert.ok(covered > 0.85, `the stand-in wears the garment (${(covered * 100).toFixed(0)} %)`);
  });

  describe(
    'real photos of people (opencv-doc)',
    { skip: !opencvDataPresent() && `no ${OPENCV_DATA}/messi5.jpg` },
    () => {
      const ruby = (c: Colour) => reddish(c) || (c.r > 150 && c.g > 110 && c.b < 90); // the saree's red and its gold zari
      it('dresses the demo sample photo, a footballer in a crowd and a man in an office', async (t) => {
        const saree = await sharp(
          Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
        <rect width="600" height="800" fill="#9b1b30"/><rect y="700" width="600" height="100" fill="#d4a437"/></svg>`),
        )
          .png()
          .toBuffer();
        const photos: [string, Buffer][] = [
          ['sample', await readFile(SAMPLE)],
          ['footballer', await peoplePhoto('full')],
          ['office', await sharp(`${OPENCV_DATA}/basketball1.png`).jpeg({ quality: 92 }).toBuffer()],
        ];
        for (const [name, photo] of photos) {
          for (const background of ['studio_white', 'haveli_warm']) {
            const rendered = await render(sb, photo, saree, { category: 'saree', subtype: 'nivi', background });
            t.diagnostic(`${name}, ${background}: ${await assertWorn(photo, rendered, ruby, background)}`);
          }
        }
      });
    },
  );
});
