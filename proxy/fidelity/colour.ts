// Colours as a person sees them: sRGB to CIELAB (D65), and the CIEDE2000 colour difference
// (Sharma, Wu and Dalal, "The CIEDE2000 color-difference formula: implementation notes,
// supplementary test data, and mathematical observations", 2005: test/proxy/fidelity.test.ts runs
// their published pairs). A difference of about 1 is the least a trained eye sees side by side; a
// shopper comparing a render with a product photo notices a few units more (docs/fidelity.md).

export interface Lab {
  L: number;
  a: number;
  b: number;
}

/** sRGB's transfer function undone, once per byte value. */
const LINEAR = new Float64Array(256);
for (let i = 0; i < 256; i++) {
  const v = i / 255;
  LINEAR[i] = v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

const WHITE_X = 0.95047;
const WHITE_Z = 1.08883;
const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (t * 24389) / 27 / 116 + 16 / 116);

/** CIELAB of an sRGB colour (bytes), under D65. */
export function labOf(r: number, g: number, b: number): Lab {
  const R = LINEAR[r]!;
  const G = LINEAR[g]!;
  const B = LINEAR[b]!;
  const fx = f((0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / WHITE_X);
  const fy = f(0.2126729 * R + 0.7151522 * G + 0.072175 * B);
  const fz = f((0.0193339 * R + 0.119192 * G + 0.9503041 * B) / WHITE_Z);
  return { L: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz) };
}

/** Chroma and hue angle (degrees) of a CIELAB colour. */
export const chromaOf = (c: Lab) => Math.hypot(c.a, c.b);
export const hueOf = (c: Lab) => ((Math.atan2(c.b, c.a) * 180) / Math.PI + 360) % 360;

/** Plain Euclidean distance in CIELAB (CIE76): cheap, for grouping pixels, never for a verdict. */
export const distance76 = (x: Lab, y: Lab) => Math.hypot(x.L - y.L, x.a - y.a, x.b - y.b);

const RAD = Math.PI / 180;
const POW25_7 = 25 ** 7;

/**
 * CIEDE2000 between two CIELAB colours. `kL` weighs lightness: 1 is the reference condition; 2 is
 * the textile industry's (CIE 116), where a garment's folds and shading change its lightness more
 * than its colour, which is how the fidelity check compares cloth.
 */
export function deltaE2000(x: Lab, y: Lab, kL = 1): number {
  const C1 = Math.hypot(x.a, x.b);
  const C2 = Math.hypot(y.a, y.b);
  const Cm7 = ((C1 + C2) / 2) ** 7;
  const G = 0.5 * (1 - Math.sqrt(Cm7 / (Cm7 + POW25_7)));
  const a1 = (1 + G) * x.a;
  const a2 = (1 + G) * y.a;
  const c1 = Math.hypot(a1, x.b);
  const c2 = Math.hypot(a2, y.b);
  const h1 = x.b === 0 && a1 === 0 ? 0 : (Math.atan2(x.b, a1) / RAD + 360) % 360;
  const h2 = y.b === 0 && a2 === 0 ? 0 : (Math.atan2(y.b, a2) / RAD + 360) % 360;
  const dL = y.L - x.L;
  const dC = c2 - c1;
  const product = c1 * c2;
  let dh = 0;
  if (product !== 0) {
    dh = h2 - h1;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(product) * Math.sin((dh / 2) * RAD);
  const Lm = (x.L + y.L) / 2;
  const cm = (c1 + c2) / 2;
  let hm = h1 + h2;
  if (product !== 0) {
    if (Math.abs(h1 - h2) <= 180) hm /= 2;
    else hm = h1 + h2 < 360 ? (hm + 360) / 2 : (hm - 360) / 2;
  }
  const T =
    1 -
    0.17 * Math.cos((hm - 30) * RAD) +
    0.24 * Math.cos(2 * hm * RAD) +
    0.32 * Math.cos((3 * hm + 6) * RAD) -
    0.2 * Math.cos((4 * hm - 63) * RAD);
  const Lm50 = (Lm - 50) ** 2;
  const SL = 1 + (0.015 * Lm50) / Math.sqrt(20 + Lm50);
  const SC = 1 + 0.045 * cm;
  const SH = 1 + 0.015 * cm * T;
  const cm7 = cm ** 7;
  const RT = -2 * Math.sqrt(cm7 / (cm7 + POW25_7)) * Math.sin(60 * Math.exp(-(((hm - 275) / 25) ** 2)) * RAD);
  const l = dL / (kL * SL);
  const c = dC / SC;
  const h = dH / SH;
  return Math.sqrt(l * l + c * c + h * h + RT * c * h);
}

/**
 * Whether a colour is a skin tone (any person's, light to dark): the hue of skin (orange-red to
 * yellow-orange), moderate chroma, neither black nor white. Wide on purpose: it is used to leave
 * skin out of a garment's region, and a garment of such a colour is said to be one the check
 * cannot tell from skin (docs/fidelity.md).
 */
export function isSkinTone(c: Lab): boolean {
  if (c.L < 18 || c.L > 88) return false;
  const chroma = Math.hypot(c.a, c.b);
  if (chroma < 9 || chroma > 42) return false;
  const hue = hueOf(c);
  return hue >= 28 && hue <= 78;
}
