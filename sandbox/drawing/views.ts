// The catalog's four views, each made from the front's layers (the identity lock), so a view shows
// the same person in the same garment: the figure is turned, the drawn backdrop stays put.
//   three_quarter_left: body narrowed to 80 %, hair over the far quarter of the face, far side shaded;
//   side: body at 55 % (a body is about half as deep as wide), the head in profile (hair over the
//     back 60 % of it);
//   back: the figure mirrored, the garment's front detail softened and in shade, and the whole head
//     covered by the back of the hair, so no face shows.
import sharp from 'sharp';
import type { Front, Picture } from './picture.js';
import type { Ellipse } from './figure.js';
import type { View } from '../api/tryon-request.js';

const raw = (width: number, height: number, channels: 3 | 4) => ({ raw: { width, height, channels } });
const rgb = (c: { r: number; g: number; b: number }, k = 1) =>
  `rgb(${Math.round(Math.min(255, c.r * k))},${Math.round(Math.min(255, c.g * k))},${Math.round(Math.min(255, c.b * k))})`;

/** Hair over the part of the head ellipse left of `visibleFrom` (a share of its width, 0 = all of it covered to the right edge). */
function hairSvg(
  width: number,
  height: number,
  head: Ellipse,
  hair: Front['hair'],
  coverTo: number,
  mirror = false,
): Buffer {
  const rx = head.rx * 1.12;
  const ry = head.ry * 1.1;
  const left = head.cx - rx;
  const clipWidth = rx * 2 * coverTo;
  const clipX = mirror ? head.cx + rx - clipWidth : left;
  let strands = '';
  for (let i = 1; i < 8; i++) {
    const x = head.cx - rx + (rx * 2 * i) / 8;
    strands += `<path d="M${head.cx.toFixed(1)} ${(head.cy - ry).toFixed(1)} Q${x.toFixed(1)} ${head.cy.toFixed(1)} ${(x + (x - head.cx) * 0.15).toFixed(1)} ${(head.cy + ry).toFixed(1)}" stroke="${rgb(hair, 1.6)}" stroke-opacity="0.45" stroke-width="${Math.max(1, rx / 30).toFixed(1)}" fill="none"/>`;
  }
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><clipPath id="c"><rect x="${clipX.toFixed(1)}" y="0" width="${clipWidth.toFixed(1)}" height="${height}"/></clipPath></defs>
    <g clip-path="url(#c)">
      <ellipse cx="${head.cx.toFixed(1)}" cy="${head.cy.toFixed(1)}" rx="${rx.toFixed(1)}" ry="${ry.toFixed(1)}" fill="${rgb(hair)}"/>
      ${strands}
    </g></svg>`);
}

/** A horizontal light fall-off over the figure only: the side turned away is darker. */
function shadeSvg(width: number, height: number, darkLeft: boolean, strength: number): Buffer {
  const [a, b] = darkLeft ? [strength, 0] : [0, strength];
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="s" x1="0" x2="1"><stop offset="0.25" stop-color="#000" stop-opacity="${a}"/><stop offset="0.75" stop-color="#000" stop-opacity="${b}"/></linearGradient></defs>
    <rect width="${width}" height="${height}" fill="url(#s)"/></svg>`);
}

/** The figure with its head rows scaled to `headScale` and its body rows to `bodyScale` of the width, both centred. */
async function turned(front: Front, headScale: number, bodyScale: number): Promise<{ figure: Buffer; head: Ellipse }> {
  const { width, height, neckY } = front;
  const part = async (top: number, rows: number, scale: number) => {
    const narrow = Math.max(1, Math.round(width * scale));
    const input = await sharp(await front.figure(), raw(width, height, 4))
      .extract({ left: 0, top, width, height: rows })
      .resize({ width: narrow, height: rows, fit: 'fill' })
      .raw()
      .toBuffer();
    return {
      input,
      left: Math.round((width - narrow) / 2),
      top,
      raw: { width: narrow, height: rows, channels: 4 as const },
    };
  };
  const figure = await sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([await part(neckY, height - neckY, bodyScale), await part(0, neckY, headScale)])
    .raw()
    .toBuffer();
  const head = {
    ...front.head,
    cx: width / 2 + (front.head.cx - width / 2) * headScale,
    rx: front.head.rx * headScale,
  };
  return { figure, head };
}

async function onBackdrop(front: Front, figure: Buffer, overlays: Buffer[], hair?: Buffer): Promise<Picture> {
  const { width, height } = front;
  // Overlays go on the figure alone ('atop': only where the figure is), then hair over the head, then the figure on the backdrop.
  const layers = [...overlays.map((input) => ({ input, blend: 'atop' as const })), ...(hair ? [{ input: hair }] : [])];
  const dressed = layers.length
    ? await sharp(figure, raw(width, height, 4))
        .composite(layers)
        .raw()
        .toBuffer()
    : figure;
  const data = await sharp(front.backdrop, raw(width, height, 3))
    .composite([{ input: dressed, raw: { width, height, channels: 4 } }])
    .removeAlpha()
    .raw()
    .toBuffer();
  return { data, width, height };
}

export async function viewPicture(front: Front, view: View): Promise<Picture> {
  const { width, height } = front;
  if (view === 'front') return front;
  if (view === 'back') {
    // Mirrored, softened (the back carries no front detail) and in shade; the head becomes the back of the hair.
    const flopped = await sharp(await front.figure(), raw(width, height, 4))
      .flop()
      .blur(1.5)
      .raw()
      .toBuffer();
    // From behind, the hair covers the head and falls over the neck to the garment's neckline.
    const top = front.head.cy - front.head.ry * 1.1;
    const bottom = Math.max(front.head.cy + front.head.ry * 1.05, front.neckY + front.head.ry * 0.1);
    const head = { ...front.head, cx: width - front.head.cx, cy: (top + bottom) / 2, ry: (bottom - top) / 2 / 1.1 };
    const hair = hairSvg(width, height, head, front.hair, 1);
    const dim = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#000" fill-opacity="0.16"/></svg>`,
    );
    // Shade 'atop' (only on the figure); hair drawn over, so it covers the whole head even where the mask was ragged.
    const covered = await sharp(flopped, raw(width, height, 4))
      .composite([{ input: dim, blend: 'atop' }, { input: hair }])
      .raw()
      .toBuffer();
    return onBackdrop(front, covered, []);
  }
  if (view === 'side') {
    const { figure, head } = await turned(front, 0.82, 0.55);
    return onBackdrop(
      front,
      figure,
      [shadeSvg(width, height, true, 0.22)],
      hairSvg(width, height, head, front.hair, 0.6),
    );
  }
  // three_quarter_left
  const { figure, head } = await turned(front, 0.94, 0.8);
  return onBackdrop(
    front,
    figure,
    [shadeSvg(width, height, true, 0.18)],
    hairSvg(width, height, head, front.hair, 0.3),
  );
}
