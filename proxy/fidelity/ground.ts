// Where the ground is in a picture, found without a model: whatever connects to the picture's edge
// through small, smooth colour steps (a flat-lay's paper, a studio's sweep, the sandbox's and the
// API's plain backdrops, the caption band of a sandbox render). A busy ground does not connect and
// stays in; callers say so (check-catalog names a garment whose ground does not separate).
import type { SmallPicture } from './picture.js';

/** Largest step between neighbouring ground pixels (per channel), and largest drift from the edge pixel it grew from. */
const STEP = 9;
const DRIFT = 48;

/** The ground (1) and the rest (0), one byte per pixel, and the ground's share of the picture. */
export function groundOf(picture: SmallPicture): { ground: Uint8Array; share: number } {
  const { width, height, rgb, alpha } = picture;
  const count = width * height;
  const ground = new Uint8Array(count);
  const seed = new Int32Array(count);
  const queue = new Int32Array(count);
  let head = 0;
  let tail = 0;
  // A cut-out's ground is its transparency, and only that: the colour under a transparent pixel
  // means nothing, and growing from it would eat a dark garment.
  if (picture.transparent) {
    for (let i = 0; i < count; i++) if (alpha[i]! < 128) ground[i] = 1;
    return { ground, share: ground.reduce((n, v) => n + v, 0) / count };
  }
  const edge = (i: number) => {
    if (!ground[i]) {
      ground[i] = 1;
      seed[i] = i;
      queue[tail++] = i;
    }
  };
  for (let x = 0; x < width; x++) {
    edge(x);
    edge((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    edge(y * width);
    edge(y * width + width - 1);
  }
  while (head < tail) {
    const i = queue[head++]!;
    const x = i % width;
    const from = seed[i]! * 3;
    const pi = i * 3;
    for (let k = 0; k < 4; k++) {
      if ((k === 0 && x === 0) || (k === 1 && x === width - 1)) continue;
      const n = k === 0 ? i - 1 : k === 1 ? i + 1 : k === 2 ? i - width : i + width;
      if (n < 0 || n >= count || ground[n]) continue;
      const pn = n * 3;
      const r = rgb[pn]!;
      const g = rgb[pn + 1]!;
      const b = rgb[pn + 2]!;
      if (Math.abs(r - rgb[pi]!) > STEP || Math.abs(g - rgb[pi + 1]!) > STEP || Math.abs(b - rgb[pi + 2]!) > STEP)
        continue;
      if (
        Math.abs(r - rgb[from]!) > DRIFT ||
        Math.abs(g - rgb[from + 1]!) > DRIFT ||
        Math.abs(b - rgb[from + 2]!) > DRIFT
      )
        continue;
      ground[n] = 1;
      seed[n] = seed[i]!;
      queue[tail++] = n;
    }
  }
  return { ground, share: tail / count };
}

/** The smallest box holding every pixel that is not ground, or null. */
export function boxOf(
  mask: Uint8Array,
  width: number,
  height: number,
  keep: (value: number) => boolean,
): { left: number; top: number; right: number; bottom: number } | null {
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (keep(mask[y * width + x]!)) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        bottom = y;
      }
  return right < 0 ? null : { left, top, right, bottom };
}

/**
 * The largest connected part that is not ground (1 in the result): the figure, without the specks
 * of a caption's letters or a badge in a corner, which the ground surrounds but does not join.
 */
export function largestPart(ground: Uint8Array, width: number, height: number): Uint8Array {
  const count = width * height;
  const part = new Int32Array(count).fill(-1);
  const queue = new Int32Array(count);
  let best = -1;
  let bestSize = 0;
  let label = 0;
  for (let start = 0; start < count; start++) {
    if (ground[start] || part[start] !== -1) continue;
    let head = 0;
    let tail = 0;
    queue[tail++] = start;
    part[start] = label;
    const join = (n: number) => {
      if (ground[n] || part[n] !== -1) return;
      part[n] = label;
      queue[tail++] = n;
    };
    while (head < tail) {
      const i = queue[head++]!;
      const x = i % width;
      if (x > 0) join(i - 1);
      if (x < width - 1) join(i + 1);
      if (i >= width) join(i - width);
      if (i + width < count) join(i + width);
    }
    if (tail > bestSize) {
      bestSize = tail;
      best = label;
    }
    label++;
  }
  const figure = new Uint8Array(count);
  for (let i = 0; i < count; i++) if (part[i] === best) figure[i] = 1;
  return figure;
}
