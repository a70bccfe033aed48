// Where a flat-laid garment (or a reference person's outfit) is in a picture, found without a
// model: the ground is whatever connects to the picture's edge through small, smooth colour steps
// (the paper of a flat-lay, a studio wall), and the rest is the subject. A busy ground does not
// separate; callers then say so (never silently). The shopper is found by models (person.ts).

/** A raw picture: `channels` bytes per pixel, row by row. */
export interface Raw {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

/** An axis-aligned ellipse in pixels. */
export interface Ellipse {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
}

/** Largest step between neighbouring ground pixels (per channel), and largest drift from the edge pixel it grew from. */
const STEP = 10;
const DRIFT = 56;

/**
 * The subject's mask (255 subject, 0 ground), one byte per pixel, and the ground's share.
 * Alpha, when present, is ignored: callers that have alpha use it instead.
 */
export function subjectMask(picture: Raw): { mask: Uint8Array; groundShare: number } {
  const { data, width, height, channels } = picture;
  const count = width * height;
  const ground = new Uint8Array(count);
  const seed = new Int32Array(count); // the edge pixel each ground pixel grew from
  const queue = new Int32Array(count);
  let head = 0;
  let tail = 0;
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
  // Hot loop (a million pixels per render): plain arithmetic, no closures per neighbour.
  const neighbours = [-1, 1, -width, width];
  while (head < tail) {
    const i = queue[head++]!;
    const x = i % width;
    const from = seed[i]!;
    const pi = i * channels;
    const pf = from * channels;
    for (let k = 0; k < 4; k++) {
      if ((k === 0 && x === 0) || (k === 1 && x === width - 1)) continue;
      const n = i + neighbours[k]!;
      if (n < 0 || n >= count || ground[n]) continue;
      const pn = n * channels;
      const r = data[pn]!;
      const g = data[pn + 1]!;
      const b = data[pn + 2]!;
      if (Math.abs(r - data[pi]!) > STEP || Math.abs(g - data[pi + 1]!) > STEP || Math.abs(b - data[pi + 2]!) > STEP)
        continue;
      if (Math.abs(r - data[pf]!) > DRIFT || Math.abs(g - data[pf + 1]!) > DRIFT || Math.abs(b - data[pf + 2]!) > DRIFT)
        continue;
      ground[n] = 1;
      seed[n] = from;
      queue[tail++] = n;
    }
  }
  const mask = new Uint8Array(count);
  for (let i = 0; i < count; i++) if (!ground[i]) mask[i] = 255;
  return { mask, groundShare: tail / count };
}

/** The smallest box holding every subject pixel, or null for an empty mask. */
export function boundsOf(
  mask: Uint8Array,
  width: number,
  height: number,
): { left: number; top: number; width: number; height: number } | null {
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (mask[row + x]! > 0) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        bottom = y;
      }
    }
  }
  return right < 0 ? null : { left, top, width: right - left + 1, height: bottom - top + 1 };
}

/** The median colour of the subject's pixels inside a box, or null if none are there. */
export function medianColour(
  picture: Raw,
  mask: Uint8Array | null,
  box: { left: number; top: number; width: number; height: number },
): { r: number; g: number; b: number } | null {
  const rs: number[] = [];
  const gs: number[] = [];
  const bs: number[] = [];
  const x0 = Math.max(0, Math.round(box.left));
  const y0 = Math.max(0, Math.round(box.top));
  const x1 = Math.min(picture.width, Math.round(box.left + box.width));
  const y1 = Math.min(picture.height, Math.round(box.top + box.height));
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * picture.width + x;
      if (mask && mask[i]! < 128) continue;
      const p = i * picture.channels;
      rs.push(picture.data[p]!);
      gs.push(picture.data[p + 1]!);
      bs.push(picture.data[p + 2]!);
    }
  }
  if (rs.length === 0) return null;
  const mid = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { r: mid(rs), g: mid(gs), b: mid(bs) };
}
