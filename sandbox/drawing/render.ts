// The sandbox's try-on render: a real picture made from the shopper's photo and the garment, so a
// demo and the tests see something that looks like a try-on and says plainly that it is a sandbox
// render. The front view is composed here (the person cut from their ground in front of the drawn
// backdrop, the garment layer over the body, captions and marks); every other view is made from the
// front's layers (views.ts), and videos from the front (video.ts). Whatever could not be read is
// drawn as a captioned stand-in and noted, never guessed.
import sharp from 'sharp';
import type { Sharp } from 'sharp';
import { backdropSvg, backdropTone } from './backdrops.js';
import { markingSvg } from './captions.js';
import { headOf, medianColour } from './figure.js';
import type { Raw } from './figure.js';
import { bodyRegion, garmentLayer } from './garment-layer.js';
import { decodeHeicPhoto } from '../files/heic.js';
import { maskOf, message, rawInput, rawOf, separable } from './pixels.js';
import { personStandInSvg } from './stand-ins.js';
import type { Tier } from '../api/tiers.js';
import type { Colour, Front, RenderLabels } from './picture.js';
import { viewPicture } from './views.js';

export { markingSvg } from './captions.js';

/** Long side of a render; a draft is half that ("cheap and meant for iteration"). */
const longSide = { full: 1024, draft: 512 };
const defaultHair: Colour = { r: 43, g: 29, b: 22 };

/** The backdrop's average tone, for the video's moving backdrop and for a kept photo ground. */
export const backdropOf = backdropTone;

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
