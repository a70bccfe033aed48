// The failures try-on models show in the field, drawn on demand (the `colour_drift`,
// `wrong_variant`, `garment_missing` and `half_drawn` faults, docs/sandbox.md), so a fidelity check
// can be tested against outputs that really are wrong: the garment's colours drifted by a given
// CIEDE2000 difference, the garment in another variant's colour, the person without the garment,
// or the garment stopping half-way. Each is the faithful front drawn again with its garment
// changed (picture.ts, `redress`): the person is the same, only the garment is wrong.
//
// The colour science (sRGB to CIELAB under D65, CIEDE2000 by Sharma, Wu and Dalal) is the
// sandbox's own, not the proxy's: the sandbox stands in for a service apart and imports nothing
// of the proxy but the one file type module its build bundles.
import type { View } from '../api/tryon-request.js';
import type { Colour, Front } from '../drawing/picture.js';

export type MisdrawKind = 'colour_drift' | 'wrong_variant' | 'garment_missing' | 'half_drawn';

/** A failure drawn into a job's outputs: for every view, or for the one it names. */
export interface Misdraw {
  kind: MisdrawKind;
  /** `colour_drift`: the CIEDE2000 difference between the garment's main colour and the drifted one. */
  deltaE?: number;
  view?: View;
}

export interface Lab {
  L: number;
  a: number;
  b: number;
}

const linear = (c: number) => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
};
const gamma = (v: number) => {
  const c = v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055;
  return Math.max(0, Math.min(255, Math.round(c * 255)));
};
const WHITE = { x: 0.95047, y: 1, z: 1.08883 };
const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (t * 24389) / 27 / 116 + 16 / 116);
const fInverse = (t: number) => (t ** 3 > 216 / 24389 ? t ** 3 : ((116 * t - 16) * 27) / 24389);

export function labOf({ r, g, b }: Colour): Lab {
  const [R, G, B] = [linear(r), linear(g), linear(b)];
  const x = (0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / WHITE.x;
  const y = (0.2126729 * R + 0.7151522 * G + 0.072175 * B) / WHITE.y;
  const z = (0.0193339 * R + 0.119192 * G + 0.9503041 * B) / WHITE.z;
  return { L: 116 * f(y) - 16, a: 500 * (f(x) - f(y)), b: 200 * (f(y) - f(z)) };
}

export function rgbOf({ L, a, b }: Lab): Colour {
  const fy = (L + 16) / 116;
  const x = fInverse(fy + a / 500) * WHITE.x;
  const y = fInverse(fy) * WHITE.y;
  const z = fInverse(fy - b / 200) * WHITE.z;
  return {
    r: gamma(3.2404542 * x - 1.5371385 * y - 0.4985314 * z),
    g: gamma(-0.969266 * x + 1.8760108 * y + 0.041556 * z),
    b: gamma(0.0556434 * x - 0.2040259 * y + 1.0572252 * z),
  };
}

const rad = Math.PI / 180;

/** CIEDE2000 (kL = kC = kH = 1). */
export function deltaE2000(x: Lab, y: Lab): number {
  const C1 = Math.hypot(x.a, x.b);
  const C2 = Math.hypot(y.a, y.b);
  const Cm = (C1 + C2) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)));
  const a1 = (1 + G) * x.a;
  const a2 = (1 + G) * y.a;
  const c1 = Math.hypot(a1, x.b);
  const c2 = Math.hypot(a2, y.b);
  const hue = (b: number, a: number) => (b === 0 && a === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const h1 = hue(x.b, a1);
  const h2 = hue(y.b, a2);
  const dL = y.L - x.L;
  const dC = c2 - c1;
  let dh = 0;
  if (c1 * c2 !== 0) dh = Math.abs(h2 - h1) <= 180 ? h2 - h1 : h2 - h1 > 180 ? h2 - h1 - 360 : h2 - h1 + 360;
  const dH = 2 * Math.sqrt(c1 * c2) * Math.sin((dh / 2) * rad);
  const Lm = (x.L + y.L) / 2;
  const cm = (c1 + c2) / 2;
  let hm = h1 + h2;
  if (c1 * c2 !== 0) hm = Math.abs(h1 - h2) <= 180 ? hm / 2 : h1 + h2 < 360 ? (hm + 360) / 2 : (hm - 360) / 2;
  const T =
    1 -
    0.17 * Math.cos((hm - 30) * rad) +
    0.24 * Math.cos(2 * hm * rad) +
    0.32 * Math.cos((3 * hm + 6) * rad) -
    0.2 * Math.cos((4 * hm - 63) * rad);
  const SL = 1 + (0.015 * (Lm - 50) ** 2) / Math.sqrt(20 + (Lm - 50) ** 2);
  const SC = 1 + 0.045 * cm;
  const SH = 1 + 0.015 * cm * T;
  const RT = -2 * Math.sqrt(cm ** 7 / (cm ** 7 + 25 ** 7)) * Math.sin(60 * Math.exp(-(((hm - 275) / 25) ** 2)) * rad);
  return Math.sqrt((dL / SL) ** 2 + (dC / SC) ** 2 + (dH / SH) ** 2 + RT * (dC / SC) * (dH / SH));
}

/**
 * The direction a drift takes in CIELAB: a coloured garment's hue turns (the drift shoppers
 * complain of, a red gone orange), a near-neutral one takes a warm cast (an ivory gone yellow).
 */
function driftDirection(lab: Lab): Lab {
  const chroma = Math.hypot(lab.a, lab.b);
  if (chroma > 8) return { L: 0, a: -lab.b / chroma, b: lab.a / chroma };
  return { L: 0, a: 0.45, b: 0.89 };
}

/** How far along `direction` the colour must move for a CIEDE2000 difference of `deltaE` (bisection). */
export function driftOf(lab: Lab, deltaE: number): Lab {
  const direction = driftDirection(lab);
  const at = (t: number) => ({ L: lab.L + direction.L * t, a: lab.a + direction.a * t, b: lab.b + direction.b * t });
  let low = 0;
  let high = 200;
  for (let i = 0; i < 40; i++) {
    const mid = (low + high) / 2;
    if (deltaE2000(lab, at(mid)) < deltaE) low = mid;
    else high = mid;
  }
  const t = (low + high) / 2;
  return { L: direction.L * t, a: direction.a * t, b: direction.b * t };
}

/**
 * Colourways a mixed-up variant is drawn in: the kinds of colours shops sell one garment in
 * (a ruby, a gold, an ivory, a green, an indigo, a charcoal …).
 */
const COLOURWAYS: Colour[] = [
  { r: 155, g: 17, b: 30 },
  { r: 201, g: 162, b: 39 },
  { r: 236, g: 228, b: 206 },
  { r: 46, g: 139, b: 87 },
  { r: 44, g: 62, b: 140 },
  { r: 54, g: 57, b: 64 },
  { r: 199, g: 21, b: 133 },
  { r: 233, g: 120, b: 20 },
  { r: 114, g: 47, b: 55 },
];

/** The least different colourway that is still plainly another variant (CIEDE2000 of at least this). */
export const MIXED_UP_AT_LEAST = 25;

/** The colour a mixed-up variant of a garment of this main colour is drawn in. */
export function otherVariantColour(main: Colour): Colour {
  const lab = labOf(main);
  const apart = COLOURWAYS.map((colour) => ({ colour, deltaE: deltaE2000(lab, labOf(colour)) }))
    .filter((c) => c.deltaE >= MIXED_UP_AT_LEAST)
    .sort((x, y) => x.deltaE - y.deltaE);
  return apart[0]?.colour ?? COLOURWAYS[0]!;
}

/** Every colour moved by the same CIELAB offset, so the garment's pattern keeps its contrasts. */
const shifted = (offset: Lab) => (colour: Colour) => {
  const lab = labOf(colour);
  return rgbOf({ L: Math.max(0, Math.min(100, lab.L + offset.L)), a: lab.a + offset.a, b: lab.b + offset.b });
};

/** The front with the failure drawn into it. */
export function misdrawnFront(front: Front, misdraw: Misdraw): Promise<Front> {
  const main = labOf(front.garmentColour);
  switch (misdraw.kind) {
    case 'garment_missing':
      return front.redress({ bare: true });
    case 'half_drawn':
      return front.redress({ halfway: true });
    case 'wrong_variant': {
      const other = labOf(otherVariantColour(front.garmentColour));
      return front.redress({ recolour: shifted({ L: other.L - main.L, a: other.a - main.a, b: other.b - main.b }) });
    }
    case 'colour_drift':
      return front.redress({ recolour: shifted(driftOf(main, misdraw.deltaE ?? 12)) });
  }
}
