// The pieces worn over another garment (an outfit's second and third piece), drawn over an earlier
// result by the body's landmarks: a dupatta as a drape over the left shoulder, falling down that
// side and across the front to the right hip; a stole around the neck, its two ends down the
// chest; a jacket over the torso and arms, open down the front. Each is filled with the piece's
// own picture, and each leaves the garment beneath in sight where it is not: the skirt, the middle
// of the chest under an open jacket, the body between a stole's ends.
import { frame, type DressingSpec } from './dressing.js';
import type { Landmarks } from './person.js';

type Point = { x: number; y: number };

/** The categories drawn here rather than as a whole garment (dressing.ts). */
export const PIECES: readonly string[] = ['dupatta', 'stole', 'jacket'];

const add = (a: Point, b: Point, k = 1): Point => ({ x: a.x + b.x * k, y: a.y + b.y * k });
const mid = (a: Point, b: Point, t = 0.5): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
const path = (points: Point[]) => `M${points.map((p) => `${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' L')} Z`;
const line = (points: Point[]) => `M${points.map((p) => `${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' L')}`;

/** The piece as an SVG the size of the output, transparent but where the piece is. */
export function pieceSvg(l: Landmarks, spec: DressingSpec): Buffer {
  const f = frame(l);
  const { sw, across, axis } = f;
  const up = { x: -axis.x, y: -axis.y };
  const out = (p: Point, side: 1 | -1, k: number) => add(p, across, side * sw * k);
  const shapes: string[] = [];
  const strokes: { d: string; width: number }[] = [];
  const folds: string[] = [];
  switch (spec.category) {
    case 'dupatta': {
      // Over the left shoulder: the hanging fall down that side to below the knee, and the front
      // length across the chest to the right hip.
      const knee = mid(f.lk, f.la, 0.25);
      shapes.push(
        path([add(out(f.ls, 1, 0.02), up, sw * 0.1), out(f.ls, 1, 0.3), out(knee, 1, 0.42), out(knee, 1, 0.1)]),
      );
      shapes.push(
        path([
          add(out(f.ls, -1, 0.1), up, sw * 0.06),
          out(f.ls, 1, 0.2),
          out(mid(f.rs, f.rh, 0.85), -1, 0.22),
          out(mid(f.rs, f.rh, 0.55), -1, 0.02),
        ]),
      );
      folds.push(line([out(f.ls, 1, 0.16), out(knee, 1, 0.26)]));
      break;
    }
    case 'stole': {
      // Round the back of the neck, both ends falling straight down the chest to the waist.
      const waist = (shoulder: Point, hip: Point) => mid(shoulder, hip, 0.92);
      const leftEnd = waist(mid(f.neck, f.ls, 0.45), mid(f.hips, f.lh, 0.45));
      const rightEnd = waist(mid(f.neck, f.rs, 0.45), mid(f.hips, f.rh, 0.45));
      strokes.push({
        d: line([leftEnd, mid(f.neck, f.ls, 0.45), add(f.neck, up, sw * 0.08), mid(f.neck, f.rs, 0.45), rightEnd]),
        width: sw * 0.2,
      });
      folds.push(
        line([out(leftEnd, 1, 0.1), out(leftEnd, -1, 0.1)]),
        line([out(rightEnd, 1, 0.1), out(rightEnd, -1, 0.1)]),
      );
      break;
    }
    default: {
      // jacket: two front panels from the shoulders to just past the hips, open in the middle, and sleeves.
      const hem = (hip: Point) => add(hip, axis, sw * 0.12);
      shapes.push(
        path([
          add(out(f.ls, 1, 0.14), up, sw * 0.05),
          add(mid(f.neck, f.ls, 0.35), up, sw * 0.06),
          add(mid(f.hips, f.lh, 0.3), axis, sw * 0.12),
          out(hem(f.lh), 1, 0.18),
        ]),
        path([
          add(out(f.rs, -1, 0.14), up, sw * 0.05),
          add(mid(f.neck, f.rs, 0.35), up, sw * 0.06),
          add(mid(f.hips, f.rh, 0.3), axis, sw * 0.12),
          out(hem(f.rh), -1, 0.18),
        ]),
      );
      for (const [shoulder, elbow, wrist] of [
        [f.ls, l.leftElbow, l.leftWrist],
        [f.rs, l.rightElbow, l.rightWrist],
      ] as const) {
        if (elbow.score < 0.2) continue;
        const end = wrist.score >= 0.2 ? [elbow, mid(elbow, wrist, 0.8)] : [mid(shoulder, elbow, 0.9)];
        strokes.push({ d: line([shoulder, ...end]), width: sw * 0.32 });
      }
      folds.push(line([mid(f.neck, f.ls, 0.35), add(mid(f.hips, f.lh, 0.3), axis, sw * 0.12)]));
      folds.push(line([mid(f.neck, f.rs, 0.35), add(mid(f.hips, f.rh, 0.3), axis, sw * 0.12)]));
    }
  }
  // The piece's picture spans the piece's box, so its border lands at its edges.
  const left = Math.min(f.ls.x, f.rs.x, f.lh.x, f.rh.x, f.lk.x, f.rk.x) - sw * 0.6;
  const right = Math.max(f.ls.x, f.rs.x, f.lh.x, f.rh.x, f.lk.x, f.rk.x) + sw * 0.6;
  const top = Math.min(f.ls.y, f.rs.y) - sw * 0.2;
  const bottom = Math.max(f.lk.y, f.rk.y, f.la.y, f.ra.y);
  const { width, height, colour } = spec;
  const edge = `rgb(${Math.round(colour.r * 0.55)},${Math.round(colour.g * 0.55)},${Math.round(colour.b * 0.55)})`;
  const strokeD = strokes.map((s) => `<path d="${s.d}" stroke-width="${s.width.toFixed(1)}"/>`).join('');
  const body = `${shapes.map((d) => `<path d="${d}"/>`).join('')}<g fill="none" stroke-linecap="round" stroke-linejoin="round">${strokeD}</g>`;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}">
    <defs>
      <pattern id="piece" patternUnits="userSpaceOnUse" x="0" y="0" width="${width}" height="${height}">
        <image x="${left.toFixed(1)}" y="${top.toFixed(1)}" width="${(right - left).toFixed(1)}" height="${(bottom - top).toFixed(1)}" preserveAspectRatio="none" xlink:href="${spec.texture}" href="${spec.texture}"/>
      </pattern>
    </defs>
    <g fill="url(#piece)" stroke="url(#piece)">${body}</g>
    <g fill="none" stroke="${edge}" stroke-width="${Math.max(1, sw * 0.02).toFixed(1)}" stroke-opacity="0.6">${folds
      .map((d) => `<path d="${d}"/>`)
      .join('')}</g>
  </svg>`);
}
