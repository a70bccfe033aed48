// The sandbox draws the pictures it is given. JPEG flat-lays, JPEG model photos
// and greyscale photos come out in the garment's own colours (a three-band picture used to throw
// inside the render and be silently replaced by a crimson block); the back view shows no face; a
// draft is smaller and softer; an unreadable input is a captioned, logged stand-in. All through
// the real API on loopback, with the demo shop's own drawings as inputs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { garmentSvg, modelPhotoSvg, shopperPhotoSvg } from '../../demo/shop/drawings.js';
import { products } from '../../demo/shop/products.js';
import { imageBody, sandbox, settled, upload } from './support.js';
import type { Sandbox } from './support.js';

type Colour = { r: number; g: number; b: number };
type Pixels = { data: Buffer; width: number; height: number };

const jpeg = (svg: string) =>
  sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).jpeg({ quality: 88 }).toBuffer();
/** The demo's shopper (768×1024: face at about x 47–53 %, y 15–22 %; shoulders at 29 %). */
const shopper = () => jpeg(shopperPhotoSvg());

const lehenga = products.find((p) => p.drawing.kind === 'lehenga')!;
const dress = products.find((p) => p.drawing.kind === 'dress')!;
const hexOf = (hex: string): Colour => ({
  r: parseInt(hex.slice(1, 3), 16),
  g: parseInt(hex.slice(3, 5), 16),
  b: parseInt(hex.slice(5, 7), 16),
});

/** What the old silent fallback drew for every picture it could not use. */
const CRIMSON_BLOCK: Colour = { r: 176, g: 40, b: 60 };

async function render(sb: Sandbox, files: { person: string; garment: string }, extra: Record<string, unknown>) {
  const submit = await sb.json('POST', '/v1/images/tryon', { json: { ...imageBody(files), ...extra } });
  assert.equal(submit.status, 202, JSON.stringify(submit.body));
  const job = await settled(sb, submit.body.id);
  assert.equal(job.status, 'succeeded');
  const outputs = (await sb.json('GET', `/v1/images/${job.id}/outputs`)).body.data as Array<{
    view: string;
    file_id: string;
  }>;
  const pictures: Record<string, Pixels> = {};
  for (const output of outputs) {
    const bytes = Buffer.from(await (await sb.call('GET', `/v1/files/${output.file_id}/content`)).arrayBuffer());
    const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    pictures[output.view] = { data, width: info.width, height: info.height };
  }
  return pictures;
}

async function uploaded(sb: Sandbox, bytes: Buffer, kind: 'person' | 'garment'): Promise<string> {
  const file = await upload(sb, bytes, kind);
  assert.equal(file.status, 201, JSON.stringify(file.body));
  return file.body.id;
}

/** Pixels of a box given in fractions of the picture. */
function* box(p: Pixels, x0: number, x1: number, y0: number, y1: number, step = 3): Generator<Colour> {
  for (let y = Math.round(p.height * y0); y < p.height * y1; y += step) {
    for (let x = Math.round(p.width * x0); x < p.width * x1; x += step) {
      const at = (y * p.width + x) * 3;
      yield { r: p.data[at]!, g: p.data[at + 1]!, b: p.data[at + 2]! };
    }
  }
}

/** The torso between the shoulders, above the hem and the caption band. */
const torso = (p: Pixels) => box(p, 0.4, 0.6, 0.34, 0.6);
/** The demo shopper's face. */
const face = (p: Pixels) => box(p, 0.47, 0.53, 0.15, 0.22, 2);

function median(colours: Iterable<Colour>): Colour {
  const all = [...colours];
  const mid = (key: keyof Colour) => all.map((c) => c[key]).sort((a, b) => a - b)[Math.floor(all.length / 2)]!;
  return { r: mid('r'), g: mid('g'), b: mid('b') };
}
const distance = (a: Colour, b: Colour) => Math.hypot(a.r - b.r, a.g - b.g, a.b - b.b);
const share = (colours: Iterable<Colour>, test: (c: Colour) => boolean) => {
  let hits = 0;
  let all = 0;
  for (const c of colours) {
    all++;
    if (test(c)) hits++;
  }
  return hits / all;
};
/** Skin as the demo draws it (#c68863 and its shade), lit or washed: warm, red above green above blue. */
const skin = (c: Colour) => c.r > 120 && c.r - c.g > 25 && c.g - c.b > 15 && c.r - c.b > 50;

/** The garment laid semi-opaque over the shopper's grey top: what its own colour looks like on the figure. */
const worn = (garment: Colour, under: Colour = { r: 141, g: 153, b: 174 }): Colour => ({
  r: garment.r * 0.82 + under.r * 0.18,
  g: garment.g * 0.82 + under.g * 0.18,
  b: garment.b * 0.82 + under.b * 0.18,
});

describe('sandbox render: pictures without alpha, and the views', () => {
  let sb: Sandbox;
  let person: string;
  before(async () => {
    sb = await sandbox();
    person = await uploaded(sb, await shopper(), 'person');
  });
  after(() => sb.close());

  it('draws a JPEG flat-lay (white ground, no alpha) in its own colour, not a crimson block', async (t) => {
    const indigo = dress.colours[0]!;
    const garment = await uploaded(sb, await jpeg(garmentSvg(dress.drawing, indigo.palette)), 'garment');
    // On the haveli, so white paper left around the garment would stand out.
    const { front } = await render(
      sb,
      { person, garment },
      { garment: { category: 'dress' }, background: 'haveli_warm' },
    );
    const seen = median(torso(front!));
    const expected = worn(hexOf(indigo.hex));
    assert.ok(
      distance(seen, expected) < 60,
      `torso ${JSON.stringify(seen)} is the dress's indigo worn (${JSON.stringify(expected)})`,
    );
    assert.ok(distance(seen, CRIMSON_BLOCK) > 120, 'and not the old crimson stand-in');
    // The flat-lay's white paper was cut away, not laid over the shopper as a white sheet.
    const white = share(box(front!, 0.2, 0.8, 0.3, 0.8), (c) => c.r > 235 && c.g > 235 && c.b > 235);
    t.diagnostic(
      `JPEG flat-lay: torso ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}, paper white left ${white.toFixed(3)}`,
    );
    assert.ok(white < 0.02, `${(white * 100).toFixed(0)} % of the ground beside the figure is paper white`);
  });

  it("draws a JPEG model photo (person_to_person) as the model's outfit in its own colour, with the shopper's face", async (t) => {
    for (const colour of lehenga.colours) {
      const reference = await uploaded(sb, await jpeg(modelPhotoSvg(lehenga.drawing, colour.palette)), 'garment');
      const { front } = await render(
        sb,
        { person, garment: reference },
        {
          mode: 'person_to_person',
          garment_image: undefined,
          reference_person_image: reference,
          garment: { category: 'lehenga' },
        },
      );
      const seen = median(box(front!, 0.42, 0.58, 0.62, 0.78));
      const expected = hexOf(colour.hex);
      t.diagnostic(`JPEG model photo, ${colour.name}: skirt ${JSON.stringify(seen)} vs ${colour.hex}`);
      assert.ok(distance(seen, expected) < 70, `${colour.name}: skirt ${JSON.stringify(seen)} is near ${colour.hex}`);
      assert.ok(distance(seen, CRIMSON_BLOCK) > 90, `${colour.name}: and not the old crimson stand-in`);
    }
  });

  it("draws a garment over a greyscale (one-band) photo in the garment's colours", async (t) => {
    const grey = await sharp(await shopper())
      .toColourspace('b-w')
      .jpeg()
      .toBuffer();
    assert.equal((await sharp(grey).metadata()).channels, 1, 'the photo really is one band');
    const greyPerson = await uploaded(sb, grey, 'person');
    const chalk = dress.colours[1]!;
    const garment = await uploaded(sb, await jpeg(garmentSvg(dress.drawing, dress.colours[0]!.palette)), 'garment');
    const pale = await uploaded(
      sb,
      await sharp(Buffer.from(garmentSvg(dress.drawing, chalk.palette)))
        .png()
        .toBuffer(),
      'garment',
    );
    const indigo = median(
      torso((await render(sb, { person: greyPerson, garment }, { garment: { category: 'dress' } })).front!),
    );
    assert.ok(indigo.b > indigo.r + 40, `torso ${JSON.stringify(indigo)} is blue over a grey photo`);
    const light = median(
      torso((await render(sb, { person: greyPerson, garment: pale }, { garment: { category: 'dress' } })).front!),
    );
    t.diagnostic(`greyscale photo: indigo torso ${JSON.stringify(indigo)}, chalk torso ${JSON.stringify(light)}`);
    assert.ok(distance(light, hexOf(chalk.hex)) < 60, `torso ${JSON.stringify(light)} is chalk (${chalk.hex})`);
  });

  it('shows a face in front and none from the back; side and three-quarter show less of it', async (t) => {
    const garment = await uploaded(sb, await jpeg(garmentSvg(dress.drawing, dress.colours[0]!.palette)), 'garment');
    const views = await render(
      sb,
      { person, garment },
      { garment: { category: 'dress' }, views: ['front', 'three_quarter_left', 'side', 'back'] },
    );
    const skinOf = (view: string) => share(face(views[view]!), skin);
    const front = skinOf('front');
    assert.ok(front > 0.6, `the front's face region is ${(front * 100).toFixed(0)} % skin`);
    const back = skinOf('back');
    assert.ok(
      back < 0.02,
      `the back's face region is ${(back * 100).toFixed(0)} % skin (want none: the back of the head)`,
    );
    // The whole head from behind: nowhere above the shoulders, in the middle half, is there a face.
    const head = share(box(views.back!, 0.3, 0.7, 0.05, 0.26), skin);
    t.diagnostic(
      `face-region skin: front ${front.toFixed(2)}, three_quarter_left ${skinOf('three_quarter_left').toFixed(2)}, side ${skinOf('side').toFixed(2)}, back ${back.toFixed(2)}; back head box ${head.toFixed(3)}`,
    );
    assert.ok(head < 0.01, `above the back's shoulders ${(head * 100).toFixed(1)} % is skin`);
    assert.ok(skinOf('side') < front * 0.7, 'the side view shows less face than the front');
    // The three-quarter view turns the far side of the head away: less skin across the whole head.
    const headSkin = (view: string) => share(box(views[view]!, 0.4, 0.6, 0.12, 0.24, 2), skin);
    t.diagnostic(
      `head-box skin: front ${headSkin('front').toFixed(2)}, three_quarter_left ${headSkin('three_quarter_left').toFixed(2)}`,
    );
    assert.ok(
      headSkin('three_quarter_left') < headSkin('front') * 0.85,
      'and the three-quarter view less than the front',
    );
    // Views are turned, not squeezed photos: the backdrop keeps its width (its corners match the front's).
    for (const view of ['three_quarter_left', 'side', 'back']) {
      const corner = (p: Pixels) => median(box(p, 0.02, 0.12, 0.3, 0.5));
      assert.ok(
        distance(corner(views[view]!), corner(views.front!)) < 12,
        `${view}: the backdrop beside the figure is the front's`,
      );
    }
  });

  it('draws the backgrounds as pictures: the haveli has more than a few flat tones', async (t) => {
    const garment = await uploaded(sb, await jpeg(garmentSvg(dress.drawing, dress.colours[0]!.palette)), 'garment');
    const { front } = await render(
      sb,
      { person, garment },
      { garment: { category: 'dress' }, background: 'haveli_warm' },
    );
    const tones = new Set<string>();
    for (const c of box(front!, 0, 1, 0.05, 0.85, 4)) tones.add(`${c.r >> 4},${c.g >> 4},${c.b >> 4}`);
    t.diagnostic(`haveli render: ${tones.size} tones; wall ${JSON.stringify(median(box(front!, 0, 0.15, 0.2, 0.6)))}`);
    assert.ok(tones.size > 250, `${tones.size} distinct tones (16 levels a channel) in the haveli render`);
    const warm = median(box(front!, 0, 0.15, 0.2, 0.6));
    assert.ok(warm.r > warm.b + 40, `the wall beside the figure is warm: ${JSON.stringify(warm)}`);
  });

  it('makes a draft smaller and softer than a standard render of the same inputs', async (t) => {
    const garment = await uploaded(sb, await jpeg(garmentSvg(dress.drawing, dress.colours[0]!.palette)), 'garment');
    const standard = (await render(sb, { person, garment }, { garment: { category: 'dress' } })).front!;
    const draft = (await render(sb, { person, garment }, { garment: { category: 'dress' }, tier: 'draft' })).front!;
    assert.deepEqual([draft.width, draft.height], [standard.width / 2, standard.height / 2]);
    // Edge energy (mean step between neighbours) of the figure, compared at the draft's size.
    const { data } = await sharp(standard.data, {
      raw: { width: standard.width, height: standard.height, channels: 3 },
    })
      .resize(draft.width, draft.height)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const energy = (p: Pixels) => {
      let sum = 0;
      let n = 0;
      for (let y = Math.round(p.height * 0.1); y < p.height * 0.8; y++) {
        for (let x = Math.round(p.width * 0.3); x < p.width * 0.7; x++) {
          const at = (y * p.width + x) * 3;
          sum += Math.abs(p.data[at]! - p.data[at + 3]!) + Math.abs(p.data[at]! - p.data[at + p.width * 3]!);
          n++;
        }
      }
      return sum / n;
    };
    const sharpStandard = energy({ data, width: draft.width, height: draft.height });
    const sharpDraft = energy(draft);
    t.diagnostic(
      `edge energy at ${draft.width}×${draft.height}: draft ${sharpDraft.toFixed(2)}, standard ${sharpStandard.toFixed(2)}`,
    );
    assert.ok(
      sharpDraft < sharpStandard * 0.8,
      `draft edge energy ${sharpDraft.toFixed(2)} vs standard ${sharpStandard.toFixed(2)} at the same size`,
    );
  });

  it('draws an unreadable garment or person as a stand-in, logs it and still finishes the job', async () => {
    // JPEG magic bytes, then nothing a decoder can read: accepted by type, unreadable when drawn.
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(600, 7)]);
    const brokenGarment = await uploaded(sb, broken, 'garment');
    const before = sb.logs.length;
    const { front } = await render(sb, { person, garment: brokenGarment }, { garment: { category: 'dress' } });
    const lines = sb.logs.slice(before);
    assert.ok(
      lines.some((l) => /garment picture could not be read/.test(l) && /job_/.test(l)),
      `logged: ${lines.join(' | ')}`,
    );
    // The hatched stand-in is grey over the torso, not a colour passed off as the garment.
    const seen = median(torso(front!));
    assert.ok(
      Math.max(seen.r, seen.g, seen.b) - Math.min(seen.r, seen.g, seen.b) < 30,
      `torso ${JSON.stringify(seen)} is the grey stand-in`,
    );

    const brokenPerson = await uploaded(sb, broken, 'person');
    const garment = await uploaded(sb, await jpeg(garmentSvg(dress.drawing, dress.colours[0]!.palette)), 'garment');
    const mark = sb.logs.length;
    await render(sb, { person: brokenPerson, garment }, { garment: { category: 'dress' } });
    assert.ok(
      sb.logs.slice(mark).some((l) => /person photo could not be read/.test(l)),
      'the unreadable photo is logged',
    );
  });
});
