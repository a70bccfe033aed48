import sharp from 'sharp';
import type { Sharp } from 'sharp';
import { backdropSvg, backdropTone } from './backdrops.js';
import { markingSvg } from './captions.js';
import { boundsOf, headOf, medianColour, subjectMask } from './figure.js';
import type { Ellipse, Raw } from './figure.js';
import { decodeHeicPhoto } from './heic.js';
import { garmentStandInSvg, personStandInSvg } from './stand-ins.js';
import type { Tier } from './tiers.js';
import type { View } from './tryon-request.js';
import { viewPicture } from './views.js';

export { markingSvg } from './captions.js';

/** A decoded picture kept raw (RGB) so derived views start from pixels, not a second JPEG pass. */
export interface Picture {
  data: Buffer;
  width: number;
  height: number;
}

type Colour = { r: number; g: number; b: number };

/**
 * The front render and the layers every other view is made from (the identity lock): the figure
 * wearing the garment on a transparent ground, the drawn backdrop, and where the head is.
 */
export interface Front extends Picture {
  /** RGBA: the person wearing the garment; opaque everywhere when the photo's ground was kept. Made on first use. */
  figure: () => Promise<Buffer>;
  /** RGB: the backdrop alone. */
  backdrop: Buffer;
  head: Ellipse;
  hair: Colour;
  /** Where the garment starts: the head and neck are above. */
  neckY: number;
  draft: boolean;
  /** What could not be read or done, captioned on every output made from this front. */
  notes: string[];
}

export interface RenderLabels {
  category: string;
  subtype?: string | undefined;
  view: View;
  background: string;
  tier: string;
  provider: string;
}

/** Long side of a render; a draft is half that ("cheap and meant for iteration"). */
const longSide = { full: 1024, draft: 512 };
/** How opaque the garment lies over the figure (a sandbox cannot really re-dress anyone). */
const garmentOpacity = 0.82;
const defaultHair: Colour = { r: 43, g: 29, b: 22 };

/** The backdrop's average tone, for the video's moving backdrop and for a kept photo ground. */
export const backdropOf = backdropTone;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function rawOf(image: Sharp, channels: 3 | 4): Promise<Raw> {
  // toColourspace first: a greyscale (one band) or CMYK picture becomes three sRGB bands.
  const base = image.toColourspace('srgb');
  const { data, info } = await (channels === 4 ? base.ensureAlpha() : base.removeAlpha())
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

const rawInput = (p: { width: number; height: number }, channels: 3 | 4 | 1 = 3) => ({
  raw: { width: p.width, height: p.height, channels },
});

/** The photo ready for sharp: HEIC decoded to raw pixels first (libheif applies its rotation). */
async function personImage(bytes: Uint8Array): Promise<Sharp> {
  const heic = await decodeHeicPhoto(bytes);
  if (!heic) return sharp(bytes).rotate();
  return sharp(heic.data, { raw: { width: heic.width, height: heic.height, channels: 4 } });
}

async function decodePerson(bytes: Uint8Array, side: number, problem: (note: string) => void): Promise<Raw> {
  try {
    return await rawOf(
      (await personImage(bytes)).resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true }),
      3,
    );
  } catch (error) {
    problem(`person photo could not be read (${message(error)}): a stand-in figure is shown`);
    const width = Math.round(side * 0.75);
    return rawOf(sharp(personStandInSvg(width, side, message(error))), 3);
  }
}

/**
 * Where a worn garment goes on a person photo: from the shoulders to the hem, below the face.
 * Fractions of a full-length portrait (the demo's photos stand the figure in the middle 90%),
 * so a sandbox render covers the figure the way a real try-on would.
 */
export function bodyRegion(width: number, height: number) {
  const top = Math.round(height * 0.27);
  const bottom = Math.round(height * 0.95);
  return { top, height: Math.max(1, bottom - top), centre: width / 2, maxWidth: Math.max(1, Math.round(width * 0.7)) };
}

/** The part of a reference person's photo that is their outfit: the body region, never the face. */
function outfitRegion(width: number, height: number) {
  const region = bodyRegion(width, height);
  const left = Math.round(width * 0.2);
  return { left, top: region.top, width: Math.max(1, Math.round(width * 0.6)), height: region.height };
}

/** Segmenting works on a copy this size (a full photo would take ~80 ms); the mask is scaled back up, softly. */
const maskSide = 384;

/** The subject's mask at the picture's size (one byte per pixel, soft-edged) and the ground's share. */
async function maskOf(picture: Raw): Promise<{ mask: Uint8Array; groundShare: number }> {
  const small = await rawOf(
    sharp(picture.data, rawInput(picture, picture.channels as 3 | 4)).resize({
      width: maskSide,
      height: maskSide,
      fit: 'inside',
    }),
    3,
  );
  const { mask, groundShare } = subjectMask(small);
  const full = await sharp(Buffer.from(mask), rawInput(small, 1))
    .resize(picture.width, picture.height, { fit: 'fill', kernel: 'linear' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  return { mask: new Uint8Array(full.buffer, full.byteOffset, full.byteLength), groundShare };
}

/** Replaces a picture's alpha with a subject mask (one byte per pixel). */
function withAlpha(picture: Raw, mask: Uint8Array): void {
  for (let i = 0; i < mask.length; i++) picture.data[i * 4 + 3] = Math.min(picture.data[i * 4 + 3]!, mask[i]!);
}

/** A ground counts as separated when it is neither a sliver nor (nearly) the whole picture. */
const separable = (share: number, min: number, max: number) => share >= min && share <= max;

/**
 * The garment as a semi-opaque RGBA layer at its own proportions, as tall as the body region
 * (narrower if it would be wider than the photo allows). A flat-lay without alpha (a JPEG) has its
 * plain ground cut away; in person_to_person the source is the reference person's outfit region,
 * cut from their photo's ground, so their face and their wall never transfer.
 */
async function garmentLayer(
  source: Uint8Array,
  fromPerson: boolean,
  region: { height: number; maxWidth: number },
  problem: (note: string) => void,
): Promise<{ layer: Buffer; width: number; height: number; raw: boolean }> {
  let picture: Raw;
  try {
    const hasAlpha = (await sharp(source).metadata()).hasAlpha;
    picture = await rawOf(sharp(source).rotate(), 4);
    if (fromPerson || !hasAlpha) {
      const { mask, groundShare } = await maskOf(picture);
      const [min, max] = fromPerson ? [0.15, 0.92] : [0.03, 0.9];
      if (separable(groundShare, min, max)) withAlpha(picture, mask);
      else if (fromPerson)
        problem("reference photo's ground could not be separated: its outfit region is drawn with its ground");
      else if (groundShare > max) problem('garment picture is one plain colour: drawn as a panel of that colour');
    }
    if (fromPerson) {
      const area = outfitRegion(picture.width, picture.height);
      picture = await rawOf(sharp(picture.data, rawInput(picture, 4)).extract(area), 4);
    }
    // Trim to what is drawn, so the garment's own edges, not its canvas, meet the body.
    const alpha = new Uint8Array(picture.width * picture.height);
    for (let i = 0; i < alpha.length; i++) alpha[i] = picture.data[i * 4 + 3]! > 16 ? 255 : 0;
    const box = boundsOf(alpha, picture.width, picture.height);
    if (!box) throw new Error('the picture is fully transparent');
    for (let i = 3; i < picture.data.length; i += 4) picture.data[i] = Math.round(picture.data[i]! * garmentOpacity);
    const { data, info } = await sharp(picture.data, rawInput(picture, 4))
      .extract(box)
      .resize({ width: region.maxWidth, height: region.height, fit: 'inside' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { layer: data, width: info.width, height: info.height, raw: true };
  } catch (error) {
    problem(`garment picture could not be read (${message(error)}): a hatched stand-in is shown`);
    const width = Math.min(region.maxWidth, Math.round(region.height * 0.5));
    const layer = await sharp(garmentStandInSvg(width, region.height, message(error)))
      .png()
      .toBuffer();
    return { layer, width, height: region.height, raw: false };
  }
}

/** Drawn backdrops by name and size: drawing the haveli takes ~120 ms, and most renders share a size. */
const backdrops = new Map<string, Promise<Buffer>>();
function backdropPicture(background: string, width: number, height: number): Promise<Buffer> {
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

/** The front view without captions, and the layers every other view is made from. */
export async function renderFront(input: {
  person: Uint8Array;
  garment: Uint8Array;
  garmentFromPerson: boolean;
  background: string;
  tier?: Tier;
  log?: (line: string) => void;
}): Promise<Front> {
  const notes: string[] = [];
  const problem = (note: string) => {
    notes.push(note);
    input.log?.(`sandbox: render: ${note}`);
  };
  const draft = input.tier === 'draft';
  const person = await decodePerson(input.person, draft ? longSide.draft : longSide.full, problem);
  const { width, height } = person;
  const region = bodyRegion(width, height);

  // The figure cut from the photo's own ground, so it can stand in front of the drawn backdrop.
  // The three inputs are independent: sharp works on them at once.
  const [{ mask, groundShare }, garment, backdrop] = await Promise.all([
    maskOf(person),
    garmentLayer(input.garment, input.garmentFromPerson, region, problem),
    backdropPicture(input.background, width, height),
  ]);
  const cutOut = separable(groundShare, 0.15, 0.92);
  if (!cutOut)
    problem("photo's own ground could not be separated from the person: the backdrop is shown as a tint over it");
  // RGB + mask → RGBA in one pass here (cheaper than another sharp pipeline); a kept ground is tinted.
  const tone = backdropTone(input.background);
  const wash = cutOut ? 0 : 0.22;
  const personLayer = Buffer.alloc(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += 3) {
    personLayer[i * 4] = person.data[j]! * (1 - wash) + tone.r * wash;
    personLayer[i * 4 + 1] = person.data[j + 1]! * (1 - wash) + tone.g * wash;
    personLayer[i * 4 + 2] = person.data[j + 2]! * (1 - wash) + tone.b * wash;
    personLayer[i * 4 + 3] = cutOut ? mask[i]! : 255;
  }
  const head = headOf(cutOut ? mask : null, width, height, region.top);
  const hairBox = {
    left: head.cx - head.rx * 0.6,
    top: head.cy - head.ry,
    width: head.rx * 1.2,
    height: head.ry * 0.25,
  };
  const sampled = medianColour(person, cutOut ? mask : null, hairBox);
  const hair = sampled && sampled.r + sampled.g + sampled.b < 330 ? sampled : defaultHair;

  const garmentInput = {
    input: garment.layer,
    left: Math.max(0, Math.round(region.centre - garment.width / 2)),
    top: region.top,
    ...(garment.raw ? { raw: { width: garment.width, height: garment.height, channels: 4 as const } } : {}),
  };
  // The front in one pipeline: backdrop, person, garment.
  const data = await sharp(backdrop, rawInput(person))
    .composite([{ input: personLayer, raw: { width, height, channels: 4 } }, garmentInput])
    .removeAlpha()
    .raw()
    .toBuffer();
  // The dressed figure alone is needed only for further views; a front-only job never pays for it.
  let dressed: Promise<Buffer> | undefined;
  const figure = () => (dressed ??= sharp(personLayer, rawInput(person, 4)).composite([garmentInput]).raw().toBuffer());
  return { data, width, height, figure, backdrop, head, hair, neckY: region.top, draft, notes };
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
    .composite([{ input: markingSvg(picture.width, picture.height, lines), left: 0, top: 0 }])
    .jpeg({ quality: front.draft ? 72 : 82 })
    .toBuffer();
  return { bytes, width: picture.width, height: picture.height };
}
