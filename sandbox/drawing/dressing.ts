// The garment put on the person by their body's landmarks: a bodice from the shoulders to the hips,
// sleeves along the arms, and below the hips what the category wears there (a saree's or a
// lehenga's skirt to the ankles, a dress's to mid-calf, a sherwani's coat to the knees, a suit's
// trousers), each filled with the garment's own picture, so its colours and its border show, and
// the drape (a saree's subtype) drawn as its pallu falls. Drawn as SVG over the figure, shaded at
// the sides so it reads as cloth on a body. The head, the hands and the feet stay the shopper's.
import type { Landmark, Landmarks } from './person.js';

type Point = { x: number; y: number };

const add = (a: Point, b: Point, k = 1): Point => ({ x: a.x + b.x * k, y: a.y + b.y * k });
const sub = (a: Point, b: Point): Point => ({ x: a.x - b.x, y: a.y - b.y });
const mid = (a: Point, b: Point, t = 0.5): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
const length = (a: Point) => Math.hypot(a.x, a.y) || 1;
const unit = (a: Point): Point => ({ x: a.x / length(a), y: a.y / length(a) });
const path = (points: Point[]) => `M${points.map((p) => `${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' L')} Z`;
const line = (points: Point[]) => `M${points.map((p) => `${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' L')}`;

/** Where the garment's parts go, from the landmarks (in the output's pixels). */
export interface Fit {
  /** Shoulder width in pixels: the unit every part is sized by. */
  shoulders: number;
  bodice: Point[];
  /** The neckline's lowest point: the head is above it. */
  neck: Point;
  top: number;
}

/** A landmark the model was unsure of is replaced by where a standing body would have it. */
function sure(p: Landmark, guess: Point): Point {
  return p.score >= 0.2 ? p : guess;
}

/** The body's frame: shoulders, hips, knees and ankles, with guesses for the unsure ones. */
export function frame(l: Landmarks) {
  const ls: Point = l.leftShoulder;
  const rs: Point = l.rightShoulder;
  const sw = Math.max(8, length(sub(ls, rs)));
  const neck = mid(ls, rs);
  const down = { x: 0, y: 1 };
  const lh = sure(l.leftHip, add(ls, down, sw * 1.5));
  const rh = sure(l.rightHip, add(rs, down, sw * 1.5));
  const hips = mid(lh, rh);
  const torso = length(sub(hips, neck));
  const axis = unit(sub(hips, neck));
  const lk = sure(l.leftKnee, add(lh, axis, torso * 0.95));
  const rk = sure(l.rightKnee, add(rh, axis, torso * 0.95));
  const la = sure(l.leftAnkle, add(lk, axis, torso * 0.9));
  const ra = sure(l.rightAnkle, add(rk, axis, torso * 0.9));
  const across = unit(sub(ls, rs)); // towards the person's left
  return { ls, rs, lh, rh, lk, rk, la, ra, sw, neck, hips, axis, across, torso };
}

export interface DressingSpec {
  category: string;
  subtype?: string | undefined;
  width: number;
  height: number;
  /** The garment's picture as a PNG data URL, and its main colour (for the drape's edges). */
  texture: string;
  colour: { r: number; g: number; b: number };
}

/** The garment as an SVG the size of the output, transparent but where the garment is. */
export function dressingSvg(l: Landmarks, spec: DressingSpec): { svg: Buffer; fit: Fit } {
  const f = frame(l);
  const { sw, across, axis } = f;
  const up = { x: -axis.x, y: -axis.y };
  const out = (p: Point, side: 1 | -1, k: number) => add(p, across, side * sw * k);

  // The bodice: shoulders a little beyond the landmarks, a round neckline, the waist at the hips.
  const bodice = [
    add(out(f.rs, -1, 0.12), up, sw * 0.05),
    add(mid(f.rs, f.ls, 0.3), up, sw * 0.08),
    add(f.neck, axis, sw * 0.16),
    add(mid(f.rs, f.ls, 0.7), up, sw * 0.08),
    add(out(f.ls, 1, 0.12), up, sw * 0.05),
    out(f.lh, 1, 0.16),
    out(f.rh, -1, 0.16),
  ];
  const shapes: string[] = [path(bodice)];
  const strokes: { d: string; width: number }[] = [];
  const arms = (full: boolean) => {
    for (const [shoulder, elbow, wrist] of [
      [f.ls, l.leftElbow, l.leftWrist],
      [f.rs, l.rightElbow, l.rightWrist],
    ] as const) {
      if (elbow.score < 0.2) continue;
      const end = full && wrist.score >= 0.2 ? [elbow, mid(elbow, wrist, 0.85)] : [mid(shoulder, elbow, 0.55)];
      strokes.push({ d: line([shoulder, ...end]), width: sw * (full ? 0.3 : 0.34) });
    }
  };
  const legs = (width: number, to: 'ankle' | 'knee') => {
    strokes.push({ d: line([f.lh, f.lk, ...(to === 'ankle' ? [f.la] : [])]), width: sw * width });
    strokes.push({ d: line([f.rh, f.rk, ...(to === 'ankle' ? [f.ra] : [])]), width: sw * width });
  };
  const skirt = (hemAt: number, flare: number) => {
    // From the hips to the hem, as wide at the hem as the feet are apart plus the flare.
    const lHem = out(mid(f.lk, f.la, hemAt), 1, flare);
    const rHem = out(mid(f.rk, f.ra, hemAt), -1, flare);
    shapes.push(path([out(f.rh, -1, 0.2), out(f.lh, 1, 0.2), add(lHem, axis, sw * 0.06), add(rHem, axis, sw * 0.06)]));
    return { lHem, rHem };
  };
  const drapes: string[] = [];
  const edge = `rgb(${Math.round(spec.colour.r * 0.55)},${Math.round(spec.colour.g * 0.55)},${Math.round(spec.colour.b * 0.55)})`;
  const band = (points: Point[]) => drapes.push(path(points));

  switch (spec.category) {
    case 'saree': {
      arms(false);
      const subtype = spec.subtype ?? 'nivi';
      if (subtype === 'maharashtrian') {
        // The nine-yard nauvari is tucked between the legs: a trouser-like drape to the calves.
        legs(0.62, 'ankle');
        band([add(f.ls, up, sw * 0.06), out(f.ls, 1, 0.2), out(f.rh, -1, 0.05), add(f.rh, across, sw * 0.3)]);
        break;
      }
      const { lHem, rHem } = skirt(1.05, 0.22);
      // Pleats: the tucked folds falling from the navel.
      const navel = add(f.hips, axis, sw * 0.1);
      for (const t of [0.38, 0.46, 0.54, 0.62]) drapes.push(line([navel, mid(rHem, lHem, t)]));
      if (subtype === 'gujarati') {
        // Seedha pallu: over the right shoulder and spread across the front, to the knees.
        band([out(f.rs, -1, 0.1), add(f.rs, across, sw * 0.45), out(f.lk, 1, 0.1), mid(f.lk, f.rk, 0.15)]);
      } else if (subtype === 'bengali') {
        // Athpourey: the pallu over the left shoulder and brought back over the right, a key-bunch weight.
        band([add(f.ls, up, sw * 0.06), out(f.ls, 1, 0.14), out(f.rh, -1, 0.1), add(f.rh, across, sw * 0.35)]);
        band([
          out(f.rs, -1, 0.14),
          add(f.rs, across, sw * 0.3),
          mid(f.rs, f.rh, 0.75),
          out(mid(f.rs, f.rh, 0.75), -1, 0.2),
        ]);
      } else {
        // Nivi: the pallu from the right hip across the chest, over the left shoulder.
        band([add(f.ls, up, sw * 0.06), out(f.ls, 1, 0.16), out(f.rh, -1, 0.12), add(f.rh, across, sw * 0.32)]);
      }
      break;
    }
    case 'lehenga': {
      arms(false);
      skirt(1.05, 0.55);
      // The dupatta over one shoulder.
      band([out(f.ls, 1, 0.1), add(f.ls, across, -sw * 0.2), mid(f.lh, f.lk, 0.5), out(mid(f.lh, f.lk, 0.5), 1, 0.3)]);
      break;
    }
    case 'dress': {
      arms(false);
      skirt(0.5, spec.subtype === 'a-line' ? 0.4 : 0.2);
      break;
    }
    case 'sherwani': {
      arms(true);
      shapes.push(path([out(f.rh, -1, 0.16), out(f.lh, 1, 0.16), out(f.lk, 1, 0.2), out(f.rk, -1, 0.2)]));
      // The placket down the front.
      drapes.push(line([add(f.neck, axis, sw * 0.16), mid(f.lk, f.rk)]));
      break;
    }
    case 'suit': {
      arms(true);
      legs(0.42, 'ankle');
      shapes.push(
        path([
          out(f.rh, -1, 0.16),
          out(f.lh, 1, 0.16),
          add(out(f.lh, 1, 0.16), axis, sw * 0.35),
          add(out(f.rh, -1, 0.16), axis, sw * 0.35),
        ]),
      );
      drapes.push(line([add(f.neck, axis, sw * 0.16), add(f.hips, axis, sw * 0.35)]));
      break;
    }
    default: {
      // bandhgala: a closed-neck jacket to below the hips.
      arms(true);
      shapes.push(
        path([
          out(f.rh, -1, 0.16),
          out(f.lh, 1, 0.16),
          add(out(f.lh, 1, 0.16), axis, sw * 0.3),
          add(out(f.rh, -1, 0.16), axis, sw * 0.3),
        ]),
      );
      drapes.push(line([add(f.neck, axis, sw * 0.16), add(f.hips, axis, sw * 0.3)]));
    }
  }

  // The garment's picture spans the garment's box, so its border lands at the hem and its body on the torso.
  const all = [...bodice, f.la, f.ra, f.lk, f.rk, out(f.la, 1, 0.6), out(f.ra, -1, 0.6)];
  const left = Math.min(...all.map((p) => p.x)) - sw * 0.3;
  const right = Math.max(...all.map((p) => p.x)) + sw * 0.3;
  const top = Math.min(...bodice.map((p) => p.y));
  const bottom = Math.max(...all.map((p) => p.y)) + sw * 0.1;
  const { width, height } = spec;
  const strokeD = strokes.map((s) => `<path d="${s.d}" stroke-width="${s.width.toFixed(1)}"/>`).join('');
  const body = `${shapes.map((d) => `<path d="${d}"/>`).join('')}<g fill="none" stroke-linecap="round" stroke-linejoin="round">${strokeD}</g>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}">
    <defs>
      <pattern id="cloth" patternUnits="userSpaceOnUse" x="0" y="0" width="${width}" height="${height}">
        <image x="${left.toFixed(1)}" y="${top.toFixed(1)}" width="${(right - left).toFixed(1)}" height="${(bottom - top).toFixed(1)}" preserveAspectRatio="none" xlink:href="${spec.texture}" href="${spec.texture}"/>
      </pattern>
      <linearGradient id="shade" gradientUnits="userSpaceOnUse" x1="${left.toFixed(1)}" x2="${right.toFixed(1)}" y1="0" y2="0">
        <stop offset="0" stop-color="#000" stop-opacity="0.28"/><stop offset="0.3" stop-color="#000" stop-opacity="0"/>
        <stop offset="0.7" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.28"/>
      </linearGradient>
    </defs>
    <g fill="url(#cloth)" stroke="url(#cloth)">${body}</g>
    <g fill="url(#shade)" stroke="url(#shade)">${body}</g>
    <g fill="url(#cloth)" stroke="${edge}" stroke-width="${Math.max(1, sw * 0.025).toFixed(1)}" stroke-opacity="0.7">${drapes
      .map((d) => (d.endsWith('Z') ? `<path d="${d}"/>` : `<path d="${d}" fill="none"/>`))
      .join('')}</g>
  </svg>`;
  return { svg: Buffer.from(svg), fit: { shoulders: sw, bodice, neck: add(f.neck, axis, sw * 0.16), top } };
}
