// The sandbox's try-on render: a real picture made from the shopper's photo and the garment, so a
// demo and the tests see something that looks like a try-on and says plainly that it is a sandbox
// render. The front view is composed here: the person found in the photo by models (person.ts),
// lifted off their own ground where they stand in it, before the drawn backdrop, dressed in the
// garment by their landmarks (dressing.ts), captioned and marked. Every other view is
// made from the front's layers (views.ts), and videos from them too (video.ts). Whatever could not
// be read or found is drawn as a captioned stand-in and noted, never guessed.
import sharp from 'sharp';
import type { Sharp } from 'sharp';
import { backdropSvg, backdropTone } from './backdrops.js';
import { markingSvg } from './captions.js';
import { boundsOf, medianColour } from './figure.js';
import type { Ellipse, Raw } from './figure.js';
import { dressingSvg } from './dressing.js';
import { PIECES, pieceSvg } from './pieces.js';
import { garmentLayer } from './garment-layer.js';
import { decodeHeicPhoto } from '../files/heic.js';
import { findPerson, LANDMARKS } from './person.js';
import type { Landmarks, Person } from './person.js';
import { message, rawInput, rawOf } from './pixels.js';
import { personStandInSvg, STAND_IN_LANDMARKS } from './stand-ins.js';
import type { Tier } from '../api/tiers.js';
import type { Colour, Front, RenderLabels } from './picture.js';
import { viewPicture } from './views.js';

export { markingSvg } from './captions.js';

/** Long side of a render, the photo's own frame; a draft is half that ("cheap and meant for iteration"). */
const longSide = { full: 1024, draft: 512 };
/** The models look at a copy of the photo at most this size. */
const lookSide = 512;
const defaultHair: Colour = { r: 43, g: 29, b: 22 };

/** The backdrop's average tone, for what is drawn in the backdrop's colour. */
export const backdropOf = backdropTone;

/** The photo ready for sharp: HEIC decoded to raw pixels first (libheif applies its rotation). */
async function personImage(bytes: Uint8Array): Promise<Sharp> {
  const heic = await decodeHeicPhoto(bytes);
  if (!heic) return sharp(bytes).rotate();
  return sharp(heic.data, { raw: { width: heic.width, height: heic.height, channels: 4 } });
}

/** Drawn backdrops by name and size: drawing the haveli takes ~120 ms, and most renders share a size. */
const backdrops = new Map<string, Promise<Buffer>>();
export function backdropPicture(background: string, width: number, height: number): Promise<Buffer> {
  const key = `${background} ${width}x${height}`;
  let picture = backdrops.get(key);
  if (!picture) {
    if (backdrops.size >= 16) backdrops.delete(backdrops.keys().next().value!);
    picture = sharp(backdropSvg(background, width, height))
      .resize(width, height)
      .removeAlpha()
      .raw()
      .toBuffer();
    // A failed drawing is not kept: the next render tries again (and fails loudly, as a render error).
    picture.catch(() => backdrops.delete(key));
    backdrops.set(key, picture);
  }
  return picture;
}

/** The person in the photo, or why there is none (the render draws a stand-in and says so). */
async function lookForPerson(
  bytes: Uint8Array,
  side: number,
): Promise<{ photo: Raw; person: Person } | { photo?: Raw; title: string; note: string }> {
  let photo: Raw;
  try {
    photo = await rawOf(
      (await personImage(bytes)).resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true }),
      3,
    );
  } catch (error) {
    return { title: 'person photo unreadable', note: `person photo could not be read (${message(error)})` };
  }
  // The models look at a smaller copy: they see 192 and 256 px squares, so more is only slower.
  const look = Math.min(1, lookSide / Math.max(photo.width, photo.height));
  const small =
    look < 1
      ? await rawOf(sharp(photo.data, rawInput(photo)).resize({ width: Math.round(photo.width * look) }), 3)
      : photo;
  let found: Person | null;
  try {
    found = await findPerson(small);
  } catch (error) {
    return { photo, title: 'person models failed', note: `the person models could not run (${message(error)})` };
  }
  if (!found) return { photo, title: 'no person found', note: 'no person found in the photo' };
  if (small === photo) return { photo, person: found };
  const kx = photo.width / small.width;
  const ky = photo.height / small.height;
  const landmarks = {} as Landmarks;
  for (const name of LANDMARKS) {
    const p = found.landmarks[name];
    landmarks[name] = { x: p.x * kx, y: p.y * ky, score: p.score };
  }
  const mask = await sharp(Buffer.from(found.mask), rawInput(small, 1))
    .resize(photo.width, photo.height, { fit: 'fill', kernel: 'linear' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  return { photo, person: { landmarks, mask: new Uint8Array(mask.buffer, mask.byteOffset, mask.byteLength) } };
}

/**
 * The person lifted off their photo where they stand in it (the render keeps the photo's frame, so
 * a before-and-after shows the same person in the same place): RGBA, the outline as alpha.
 */
function liftedOff(photo: Raw, person: Person): { layer: Buffer; landmarks: Landmarks } {
  const layer = Buffer.alloc(photo.width * photo.height * 4);
  for (let i = 0, j = 0; i < photo.width * photo.height; i++, j += 3) {
    layer[i * 4] = photo.data[j]!;
    layer[i * 4 + 1] = photo.data[j + 1]!;
    layer[i * 4 + 2] = photo.data[j + 2]!;
    layer[i * 4 + 3] = person.mask[i]!;
  }
  return { layer, landmarks: person.landmarks };
}

/** The stand-in figure, its reason on it, at the frame's size, with its drawn landmarks. */
async function standInFigure(
  frame: { width: number; height: number },
  title: string,
  reason: string,
): Promise<{ layer: Buffer; landmarks: Landmarks }> {
  const { width, height } = frame;
  const layer = await sharp(personStandInSvg(width, height, title, reason))
    .ensureAlpha()
    .raw()
    .toBuffer();
  const landmarks = {} as Landmarks;
  for (const name of LANDMARKS) {
    const drawn = (STAND_IN_LANDMARKS as Partial<Record<string, { x: number; y: number }>>)[name];
    landmarks[name] = drawn
      ? { x: (drawn.x * width) / 768, y: (drawn.y * height) / 1024, score: 1 }
      : { x: width / 2, y: height / 2, score: 0 };
  }
  return { layer, landmarks };
}

/** The garment's picture as the dressing's cloth: its transparent parts filled with its main colour. */
async function cloth(
  source: Uint8Array,
  fromPerson: boolean,
  problem: (note: string) => void,
): Promise<{ texture: string; colour: Colour }> {
  const garment = await garmentLayer(source, fromPerson, { height: 384, maxWidth: 384 }, problem);
  const picture = garment.raw
    ? { data: garment.layer, width: garment.width, height: garment.height, channels: 4 }
    : await rawOf(sharp(garment.layer), 4);
  const solid = new Uint8Array(picture.width * picture.height);
  for (let i = 0; i < solid.length; i++) solid[i] = picture.data[i * 4 + 3]! > 128 ? 255 : 0;
  const colour = medianColour(picture, solid, { left: 0, top: 0, width: picture.width, height: picture.height }) ?? {
    r: 128,
    g: 128,
    b: 128,
  };
  const png = await sharp(picture.data, rawInput(picture, 4)).flatten({ background: colour }).png().toBuffer();
  return { texture: `data:image/png;base64,${png.toString('base64')}`, colour };
}

/** The head, from the face's landmarks: where the views draw hair over it. */
function headOf(l: Landmarks, shoulders: number): Ellipse {
  const sure = (names: (keyof Landmarks)[]) => names.map((n) => l[n]).filter((p) => p.score >= 0.2);
  const ears = sure(['leftEar', 'rightEar']);
  const eyes = sure(['leftEye', 'rightEye']);
  const face = [...ears, ...eyes, ...sure(['nose'])];
  const centre = face.length
    ? face
    : [{ x: (l.leftShoulder.x + l.rightShoulder.x) / 2, y: l.leftShoulder.y - shoulders * 0.6 }];
  const cx = centre.reduce((s, p) => s + p.x, 0) / centre.length;
  const eyeY = (eyes.length ? eyes : centre).reduce((s, p) => s + p.y, 0) / (eyes.length || centre.length);
  const span = ears.length === 2 ? Math.abs(ears[0]!.x - ears[1]!.x) * 0.62 : shoulders * 0.26;
  const rx = Math.max(span, shoulders * 0.2);
  const ry = rx * 1.3;
  return { cx, cy: eyeY + ry * 0.1, rx, ry };
}

/** The front view without captions, and the layers every other view is made from. */
export async function renderFront(input: {
  person: Uint8Array;
  garment: Uint8Array;
  garmentFromPerson: boolean;
  background: string;
  category: string;
  subtype?: string | undefined;
  tier?: Tier;
  log?: (line: string) => void;
}): Promise<Front> {
  const notes: string[] = [];
  const problem = (note: string) => {
    notes.push(note);
    input.log?.(`sandbox: render: ${note}`);
  };
  const draft = input.tier === 'draft';
  const side = draft ? longSide.draft : longSide.full;

  const [found, garment] = await Promise.all([
    lookForPerson(input.person, side),
    cloth(input.garment, input.garmentFromPerson, problem),
  ]);
  // The photo's own frame; an unreadable photo's stand-in is a 3:4 portrait.
  const frame = found.photo
    ? { width: found.photo.width, height: found.photo.height }
    : { width: Math.round(side * 0.75), height: side };
  const { width, height } = frame;
  const backdrop = await backdropPicture(input.background, width, height);
  const personFound = 'person' in found;
  let figure: { layer: Buffer; landmarks: Landmarks };
  if ('person' in found) figure = liftedOff(found.photo, found.person);
  else {
    problem(`${found.note}: a stand-in figure is shown`);
    figure = await standInFigure(frame, found.title, found.note);
  }
  const spec = {
    category: input.category,
    subtype: input.subtype,
    width,
    height,
    texture: garment.texture,
    colour: garment.colour,
  };
  const { svg: whole, fit } = dressingSvg(figure.landmarks, spec);
  // A piece worn over a garment (a dupatta, a stole, a jacket) is drawn as itself even on a photo.
  const svg = PIECES.includes(input.category) ? pieceSvg(figure.landmarks, spec) : whole;
  const dressed = await sharp(figure.layer, rawInput(frame, 4))
    .composite([{ input: svg, left: 0, top: 0 }])
    .raw()
    .toBuffer();
  const data = await sharp(backdrop, rawInput(frame))
    .composite([{ input: dressed, raw: { width, height, channels: 4 } }])
    .removeAlpha()
    .raw()
    .toBuffer();

  const alpha = new Uint8Array(width * height);
  for (let i = 0; i < alpha.length; i++) alpha[i] = dressed[i * 4 + 3]! > 127 ? 255 : 0;
  const figureBox = boundsOf(alpha, width, height) ?? { left: 0, top: 0, width, height };
  const head = headOf(figure.landmarks, fit.shoulders);
  const hairBox = {
    left: head.cx - head.rx * 0.6,
    top: head.cy - head.ry,
    width: head.rx * 1.2,
    height: head.ry * 0.25,
  };
  const sampled = medianColour({ data: dressed, width, height, channels: 4 }, alpha, hairBox);
  const hair = sampled && sampled.r + sampled.g + sampled.b < 330 ? sampled : defaultHair;
  return {
    data,
    width,
    height,
    figure: () => Promise.resolve(dressed),
    backdrop,
    head,
    hair,
    neckY: Math.max(0, Math.round(fit.neck.y)),
    landmarks: figure.landmarks,
    figureBox,
    personFound,
    draft,
    notes,
  };
}

/**
 * A garment drawn over an earlier result (an outfit's next piece): the result's own figure, already
 * dressed, gets the piece on top by the same landmarks, on the same backdrop, so the garment
 * beneath stays as it was wherever the piece does not cover it. A piece is drawn as itself
 * (pieces.ts), any other garment as a whole one (dressing.ts).
 */
export async function renderOver(
  base: Front,
  input: {
    garment: Uint8Array;
    garmentFromPerson: boolean;
    category: string;
    subtype?: string | undefined;
    tier?: Tier;
    log?: (line: string) => void;
  },
): Promise<Front> {
  const notes = [...base.notes];
  const garment = await cloth(input.garment, input.garmentFromPerson, (note) => {
    notes.push(note);
    input.log?.(`sandbox: render: ${note}`);
  });
  const { width, height } = base;
  const spec = {
    category: input.category,
    subtype: input.subtype,
    width,
    height,
    texture: garment.texture,
    colour: garment.colour,
  };
  const svg = PIECES.includes(input.category) ? pieceSvg(base.landmarks, spec) : dressingSvg(base.landmarks, spec).svg;
  const dressed = await sharp(await base.figure(), rawInput(base, 4))
    .composite([{ input: svg, left: 0, top: 0 }])
    .raw()
    .toBuffer();
  const data = await sharp(base.backdrop, rawInput(base))
    .composite([{ input: dressed, raw: { width, height, channels: 4 } }])
    .removeAlpha()
    .raw()
    .toBuffer();
  return { ...base, data, figure: () => Promise.resolve(dressed), draft: input.tier === 'draft', notes };
}

export function captionLines(labels: RenderLabels): string[] {
  const drape = labels.subtype ? `${labels.category} · ${labels.subtype} drape` : labels.category;
  return [`${drape} · ${labels.view}`, `${labels.background} · ${labels.tier} · ${labels.provider}`];
}

/** A finished output: the view's look, captioned and marked, as JPEG. A draft is softer and smaller. */
export async function renderView(
  front: Front,
  labels: RenderLabels,
): Promise<{ bytes: Buffer; width: number; height: number }> {
  const picture = await viewPicture(front, labels.view);
  const look = sharp(picture.data, rawInput(picture));
  const soft = front.draft ? sharp(await look.blur(1.4).raw().toBuffer(), rawInput(picture)) : look;
  const lines = [
    ...captionLines(labels),
    ...(front.draft ? ['draft preview: lower resolution, softer'] : []),
    ...front.notes.map((n) => `! ${n}`),
  ];
  const bytes = await soft
    .composite([{ input: markingSvg(picture.width, picture.height, lines, front.figureBox), left: 0, top: 0 }])
    .jpeg({ quality: front.draft ? 72 : 82 })
    .toBuffer();
  return { bytes, width: picture.width, height: picture.height };
}
