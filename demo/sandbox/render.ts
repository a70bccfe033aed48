import sharp from 'sharp';
import type { Sharp } from 'sharp';
import { decodeHeicPhoto } from './heic.js';
import type { View } from './tryon-request.js';

/** A decoded picture kept raw (RGB) so derived views start from pixels, not a second JPEG pass. */
export interface Picture { data: Buffer; width: number; height: number }

export interface RenderLabels {
  category: string;
  subtype?: string | undefined;
  view: View;
  background: string;
  tier: string;
  provider: string;
}

const longSide = 1024;
const backdrop: Record<string, { r: number; g: number; b: number }> = {
  studio_white: { r: 246, g: 246, b: 244 },
  haveli_warm: { r: 214, g: 150, b: 92 },
};
export const backdropOf = (background: string) => backdrop[background] ?? { r: 200, g: 200, b: 200 };

async function toPicture(image: Sharp): Promise<Picture> {
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const rawInput = (p: Picture) => ({ raw: { width: p.width, height: p.height, channels: 3 as const } });

/** A stand-in person when the photo cannot be decoded (a broken file): a grey figure. */
async function placeholderPerson(): Promise<Picture> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="768" height="1024">
    <rect width="768" height="1024" fill="#c9ccd1"/>
    <circle cx="384" cy="190" r="90" fill="#8a8f98"/>
    <rect x="214" y="300" width="340" height="600" rx="120" fill="#8a8f98"/>
    <text x="384" y="990" font-family="sans-serif" font-size="30" text-anchor="middle" fill="#333">photo not decodable in the sandbox</text>
  </svg>`;
  return toPicture(sharp(Buffer.from(svg)));
}

/** The photo ready for sharp: HEIC decoded to raw pixels first (libheif applies its rotation). */
async function personImage(bytes: Uint8Array): Promise<Sharp> {
  const heic = await decodeHeicPhoto(bytes);
  if (!heic) return sharp(bytes).rotate();
  return sharp(heic.data, { raw: { width: heic.width, height: heic.height, channels: 4 } });
}

async function decodePerson(bytes: Uint8Array): Promise<Picture> {
  try {
    return await toPicture((await personImage(bytes)).resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: true }));
  } catch {
    return placeholderPerson();
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

/** Trims a flat-lay's or cut-out's empty margin, so its own edges, not its canvas, meet the body. */
async function garmentOnly(image: Sharp): Promise<Sharp> {
  try {
    const trimmed = await image.clone().trim({ threshold: 12 }).png().toBuffer();
    return sharp(trimmed);
  } catch {
    // A picture of one colour has nothing to trim.
    return image;
  }
}

/**
 * The garment as a semi-opaque layer at its own proportions, as tall as the body region (narrower
 * if it would be wider than the photo allows), to be centred on the figure. In person_to_person
 * the source is the reference person's outfit region only, so their face never transfers.
 */
async function garmentLayer(source: Uint8Array, fromPerson: boolean, region: { height: number; maxWidth: number }): Promise<{ layer: Buffer; width: number; height: number }> {
  let image: Sharp;
  try {
    image = sharp(source).rotate();
    if (fromPerson) {
      const turned = await image.clone().png().toBuffer({ resolveWithObject: true });
      image = sharp(turned.data).extract(outfitRegion(turned.info.width, turned.info.height));
    } else {
      image = await garmentOnly(image);
    }
    await image.clone().metadata();
  } catch {
    const stripes = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400"><rect width="300" height="400" fill="#b0283c"/><rect width="300" height="60" y="150" fill="#e0b040"/></svg>`;
    image = sharp(Buffer.from(stripes));
  }
  try {
    const { data, info } = await image
      .resize({ width: region.maxWidth, height: region.height, fit: 'inside' })
      .ensureAlpha()
      .linear([1, 1, 1, 0.82], [0, 0, 0, 0])
      .png()
      .toBuffer({ resolveWithObject: true });
    return { layer: data, width: info.width, height: info.height };
  } catch {
    const width = Math.min(region.maxWidth, Math.round(region.height * 0.5));
    const layer = await sharp({ create: { width, height: region.height, channels: 4, background: { r: 176, g: 40, b: 60, alpha: 0.82 } } }).png().toBuffer();
    return { layer, width, height: region.height };
  }
}

/** The front view without captions: the identity lock every other view is made from. */
export async function renderFront(input: { person: Uint8Array; garment: Uint8Array; garmentFromPerson: boolean; background: string }): Promise<Picture> {
  const person = await decodePerson(input.person);
  const region = bodyRegion(person.width, person.height);
  const garment = await garmentLayer(input.garment, input.garmentFromPerson, region);
  const tone = backdropOf(input.background);
  const wash = await sharp({ create: { width: person.width, height: person.height, channels: 4, background: { ...tone, alpha: 0.22 } } }).png().toBuffer();
  return toPicture(
    sharp(person.data, rawInput(person)).composite([
      { input: wash, left: 0, top: 0 },
      { input: garment.layer, left: Math.max(0, Math.round(region.centre - garment.width / 2)), top: region.top },
    ]),
  );
}

/** One look per view, each derived from the front picture rather than rendered afresh. */
async function viewOf(front: Picture, view: View, background: string): Promise<Picture> {
  if (view === 'front') return front;
  const source = sharp(front.data, rawInput(front));
  let turned: Buffer;
  if (view === 'back') {
    return toPicture(source.flop().modulate({ brightness: 0.6 }));
  } else if (view === 'three_quarter_left') {
    // sharp applies one resize per pipeline, so narrowing, skewing and fitting are separate passes.
    const narrowed = await source.resize({ width: Math.max(1, Math.round(front.width * 0.8)), height: front.height, fit: 'fill' }).png().toBuffer();
    const skewed = await sharp(narrowed).affine([[1, -0.12], [0, 1]], { background: { ...backdropOf(background), alpha: 1 } }).png().toBuffer();
    turned = await sharp(skewed).resize({ width: front.width, height: front.height, fit: 'inside' }).png().toBuffer();
  } else {
    turned = await source.resize({ width: Math.max(1, Math.round(front.width * 0.5)), height: front.height, fit: 'fill' }).png().toBuffer();
  }
  const meta = await sharp(turned).metadata();
  const left = Math.max(0, Math.round((front.width - (meta.width ?? front.width)) / 2));
  const top = Math.max(0, Math.round((front.height - (meta.height ?? front.height)) / 2));
  return toPicture(
    sharp({ create: { width: front.width, height: front.height, channels: 3, background: backdropOf(background) } })
      .composite([{ input: turned, left, top }]),
  );
}

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch] ?? ch);

/** Caption band and "SANDBOX" marks, so no one mistakes a sandbox render for a real one. */
export function markingSvg(width: number, height: number, lines: string[]): Buffer {
  const font = Math.max(10, Math.round(Math.min(width, height) / 26));
  const band = Math.round(font * (lines.length * 1.35 + 0.8));
  const text = lines
    .map((line, i) => `<text x="${font * 0.6}" y="${height - band + font * (1.3 + i * 1.35)}" font-size="${font}">${escapeXml(line)}</text>`)
    .join('');
  const mark = Math.round(Math.min(width, height) / 6);
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
    <text x="${width / 2}" y="${height / 2}" font-size="${mark}" font-weight="bold" text-anchor="middle" dominant-baseline="middle"
      fill="#ffffff" fill-opacity="0.28" stroke="#000000" stroke-opacity="0.18" transform="rotate(-35 ${width / 2} ${height / 2})">SANDBOX</text>
    <rect x="${font * 0.5}" y="${font * 0.5}" width="${font * 6.4}" height="${font * 1.6}" rx="${font * 0.3}" fill="#d0021b"/>
    <text x="${font * 3.7}" y="${font * 1.75}" font-size="${font}" font-weight="bold" text-anchor="middle" fill="#ffffff">SANDBOX</text>
    <rect x="0" y="${height - band}" width="${width}" height="${band}" fill="#000000" fill-opacity="0.62"/>
    <g fill="#ffffff">${text}</g>
  </svg>`);
}

export function captionLines(labels: RenderLabels): string[] {
  const drape = labels.subtype ? `${labels.category} · ${labels.subtype} drape` : labels.category;
  return [`${drape} · ${labels.view}`, `${labels.background} · ${labels.tier} · ${labels.provider}`];
}

/** A finished output: the view's look, captioned and marked, as JPEG. */
export async function renderView(front: Picture, labels: RenderLabels): Promise<{ bytes: Buffer; width: number; height: number }> {
  const picture = await viewOf(front, labels.view, labels.background);
  const bytes = await sharp(picture.data, rawInput(picture))
    .composite([{ input: markingSvg(picture.width, picture.height, captionLines(labels)), left: 0, top: 0 }])
    .jpeg({ quality: 82 })
    .toBuffer();
  return { bytes, width: picture.width, height: picture.height };
}
