// The person in a photo, found with models (person-models.ts): where the body's landmarks are
// (shoulders, hips, knees, ankles, the face) and the person's outline, lifted off whatever ground
// they stand on, a stadium crowd as well as a studio wall. The pose is looked for twice, the second
// time on a crop around the first answer (MoveNet sees a small figure better close up), and the
// outline on a square crop around the body, then kept to the one figure joined to the torso, so
// a crowd or a second player behind does not come along. No person: null, and the render says so.
import type { Raw } from './figure.js';
import { personModels, tf } from './person-models.js';

/** A landmark in the photo's pixels, with the model's confidence (0–1). */
export interface Landmark {
  x: number;
  y: number;
  score: number;
}

/** MoveNet's seventeen landmarks, in its order. */
export const LANDMARKS = [
  'nose',
  'leftEye',
  'rightEye',
  'leftEar',
  'rightEar',
  'leftShoulder',
  'rightShoulder',
  'leftElbow',
  'rightElbow',
  'leftWrist',
  'rightWrist',
  'leftHip',
  'rightHip',
  'leftKnee',
  'rightKnee',
  'leftAnkle',
  'rightAnkle',
] as const;
export type LandmarkName = (typeof LANDMARKS)[number];
export type Landmarks = Record<LandmarkName, Landmark>;

export interface Person {
  landmarks: Landmarks;
  /** The person's outline at the photo's size: one byte a pixel, 255 the person, soft at the edge. */
  mask: Uint8Array;
}

/** The torso's four landmarks must average this confidence for a person to count as found. */
const MIN_TORSO_SCORE = 0.3;
/** A landmark under this confidence is not used to frame the crops. */
const MIN_SCORE = 0.2;
/** The segmentation's square input, and the share of it the outline must cover. */
const SEGMENT = 256;
const MIN_OUTLINE = 0.01;

type Box = { left: number; top: number; side: number };

const torsoScore = (l: Landmarks) =>
  (l.leftShoulder.score + l.rightShoulder.score + l.leftHip.score + l.rightHip.score) / 4;

/** The picture's tensor, cropped to a square box (outside the photo: black) and resized. */
function cropped(image: tf.Tensor3D, box: Box, size: number, width: number, height: number): tf.Tensor4D {
  return tf.tidy(() => {
    const boxes = tf.tensor2d(
      [
        [
          box.top / (height - 1),
          box.left / (width - 1),
          (box.top + box.side) / (height - 1),
          (box.left + box.side) / (width - 1),
        ],
      ],
      [1, 4],
    );
    return tf.image.cropAndResize(tf.expandDims(image, 0) as tf.Tensor4D, boxes, [0], [size, size], 'bilinear', 0);
  });
}

async function pose(image: tf.Tensor3D, box: Box, width: number, height: number): Promise<Landmarks> {
  const { pose } = await personModels();
  const input = tf.tidy(() => tf.cast(tf.round(cropped(image, box, 192, width, height)), 'int32'));
  const output = pose.execute(input) as tf.Tensor;
  const rows = (await output.data()) as Float32Array;
  tf.dispose([input, output]);
  const landmarks = {} as Landmarks;
  LANDMARKS.forEach((name, i) => {
    landmarks[name] = {
      y: box.top + rows[i * 3]! * box.side,
      x: box.left + rows[i * 3 + 1]! * box.side,
      score: rows[i * 3 + 2]!,
    };
  });
  return landmarks;
}

/** The box around the landmarks the model is sure of, or null when it is sure of none. */
function landmarkBounds(l: Landmarks): { left: number; top: number; right: number; bottom: number } | null {
  const sure = Object.values(l).filter((p) => p.score >= MIN_SCORE);
  if (sure.length === 0) return null;
  return {
    left: Math.min(...sure.map((p) => p.x)),
    right: Math.max(...sure.map((p) => p.x)),
    top: Math.min(...sure.map((p) => p.y)),
    bottom: Math.max(...sure.map((p) => p.y)),
  };
}

/** A square box around the landmarks, `grow` times their larger side, with room above the eyes for the hair. */
function squareAround(l: Landmarks, grow: number): Box | null {
  const b = landmarkBounds(l);
  if (!b) return null;
  const side = Math.max(b.right - b.left, b.bottom - b.top, 16) * grow;
  const cx = (b.left + b.right) / 2;
  const cy = (b.top + b.bottom) / 2 - (b.bottom - b.top) * 0.04;
  return { left: cx - side / 2, top: cy - side / 2, side };
}

/** The segmentation's cells joined to the torso (4-neighbours over the cells above half), the rest cleared. */
function keepFigure(mask: Float32Array, seeds: [number, number][]): number {
  const size = SEGMENT;
  const kept = new Uint8Array(size * size);
  const stack: number[] = [];
  for (const [x, y] of seeds) {
    const cx = Math.round(x);
    const cy = Math.round(y);
    if (cx < 0 || cy < 0 || cx >= size || cy >= size) continue;
    const i = cy * size + cx;
    if (mask[i]! > 0.5 && !kept[i]) {
      kept[i] = 1;
      stack.push(i);
    }
  }
  let count = 0;
  while (stack.length > 0) {
    const i = stack.pop()!;
    count++;
    const x = i % size;
    for (const n of [x > 0 ? i - 1 : -1, x < size - 1 ? i + 1 : -1, i - size, i + size]) {
      if (n < 0 || n >= size * size || kept[n] || mask[n]! <= 0.5) continue;
      kept[n] = 1;
      stack.push(n);
    }
  }
  // One cell of the soft edge around the kept figure stays, so its outline is not cut hard.
  for (let i = 0; i < size * size; i++) {
    if (kept[i]) continue;
    const x = i % size;
    const near =
      (x > 0 && kept[i - 1] === 1) ||
      (x < size - 1 && kept[i + 1] === 1) ||
      (i >= size && kept[i - size] === 1) ||
      (i + size < size * size && kept[i + size] === 1);
    if (!near) mask[i] = 0;
  }
  return count / (size * size);
}

const segmentDistance = (px: number, py: number, a: [number, number], b: [number, number]) => {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const t = Math.max(0, Math.min(1, ((px - a[0]) * dx + (py - a[1]) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(px - (a[0] + dx * t), py - (a[1] + dy * t));
};

/**
 * Clears the cells far from the body's bones (a capsule round each limb, the torso and the head,
 * a shoulder-width across): a door frame or a chair the segmentation joined to the figure falls
 * away. Only when every landmark is sure; otherwise the outline is left as it is.
 */
function keepToBody(mask: Float32Array, l: Landmarks, toCell: (p: Landmark) => [number, number]): void {
  if (LANDMARKS.slice(5).some((name) => l[name].score < MIN_SCORE)) return;
  const c = (name: LandmarkName) => toCell(l[name]);
  const shoulders = Math.hypot(
    c('leftShoulder')[0] - c('rightShoulder')[0],
    c('leftShoulder')[1] - c('rightShoulder')[1],
  );
  const beyond = (from: LandmarkName, to: LandmarkName): [number, number] => {
    const [ax, ay] = c(from);
    const [bx, by] = c(to);
    return [bx + (bx - ax) * 0.35, by + (by - ay) * 0.35];
  };
  const bones: [[number, number], [number, number], number][] = [
    [c('leftShoulder'), c('leftElbow'), 0.3],
    [c('leftElbow'), beyond('leftElbow', 'leftWrist'), 0.3],
    [c('rightShoulder'), c('rightElbow'), 0.3],
    [c('rightElbow'), beyond('rightElbow', 'rightWrist'), 0.3],
    [c('leftHip'), c('leftKnee'), 0.38],
    [c('leftKnee'), beyond('leftKnee', 'leftAnkle'), 0.32],
    [c('rightHip'), c('rightKnee'), 0.38],
    [c('rightKnee'), beyond('rightKnee', 'rightAnkle'), 0.32],
    [c('leftShoulder'), c('leftHip'), 0.22],
    [c('rightShoulder'), c('rightHip'), 0.22],
    [c('leftShoulder'), c('rightShoulder'), 0.22],
    [c('leftHip'), c('rightHip'), 0.22],
    [c('nose'), c('nose'), 0.75],
    [
      c('nose'),
      [(c('leftShoulder')[0] + c('rightShoulder')[0]) / 2, (c('leftShoulder')[1] + c('rightShoulder')[1]) / 2],
      0.5,
    ],
  ];
  // The torso itself: inside the quadrilateral shoulders–hips (same side of each edge).
  const quad = [c('leftShoulder'), c('rightShoulder'), c('rightHip'), c('leftHip')];
  const inTorso = (x: number, y: number) => {
    let sign = 0;
    for (let k = 0; k < 4; k++) {
      const [ax, ay] = quad[k]!;
      const [bx, by] = quad[(k + 1) % 4]!;
      const cross = Math.sign((bx - ax) * (y - ay) - (by - ay) * (x - ax));
      if (cross !== 0 && sign !== 0 && cross !== sign) return false;
      if (cross !== 0) sign = cross;
    }
    return true;
  };
  for (let y = 0; y < SEGMENT; y++)
    for (let x = 0; x < SEGMENT; x++) {
      const i = y * SEGMENT + x;
      if (mask[i]! <= 0 || inTorso(x, y)) continue;
      if (!bones.some(([a, b, r]) => segmentDistance(x, y, a, b) <= r * shoulders)) mask[i] = 0;
    }
}

/** The person in an RGB picture, or null when there is none the models are sure of. */
export async function findPerson(picture: Raw): Promise<Person | null> {
  const { width, height, data, channels } = picture;
  if (channels !== 3) throw new Error('findPerson takes an RGB picture');
  await personModels();
  const image = tf.tensor3d(new Float32Array(data), [height, width, 3], 'float32');
  try {
    const whole = Math.max(width, height);
    const first = await pose(
      image,
      { left: (width - whole) / 2, top: (height - whole) / 2, side: whole },
      width,
      height,
    );
    if (torsoScore(first) < MIN_TORSO_SCORE) return null;
    const closer = squareAround(first, 1.35);
    const second = closer ? await pose(image, closer, width, height) : first;
    const landmarks = torsoScore(second) >= torsoScore(first) ? second : first;

    const around = squareAround(landmarks, 1.3);
    if (!around) return null;
    const { segmentation } = await personModels();
    const input = tf.tidy(() => tf.div(cropped(image, around, SEGMENT, width, height), 255));
    const output = segmentation.execute(input) as tf.Tensor;
    const cells = Float32Array.from((await output.data()) as Float32Array);
    tf.dispose([input, output]);
    const toCell = (p: Landmark): [number, number] => [
      ((p.x - around.left) / around.side) * SEGMENT,
      ((p.y - around.top) / around.side) * SEGMENT,
    ];
    const l = landmarks;
    const mid = (a: Landmark, b: Landmark): Landmark => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, score: 1 });
    const seeds = [
      mid(l.leftShoulder, l.rightShoulder),
      mid(l.leftHip, l.rightHip),
      mid(mid(l.leftShoulder, l.rightShoulder), mid(l.leftHip, l.rightHip)),
      l.leftShoulder,
      l.rightShoulder,
      l.leftHip,
      l.rightHip,
    ].map(toCell);
    keepToBody(cells, landmarks, toCell);
    if (keepFigure(cells, seeds) < MIN_OUTLINE) return null;

    // Back to the photo's pixels, bilinear, with the soft edge steepened (the model's 0.3–0.7 band
    // is the edge; below it is ground).
    const mask = new Uint8Array(width * height);
    const scale = SEGMENT / around.side;
    for (let y = 0; y < height; y++) {
      const fy = (y + 0.5 - around.top) * scale - 0.5;
      if (fy < -0.5 || fy > SEGMENT - 0.5) continue;
      const y0 = Math.max(0, Math.min(SEGMENT - 1, Math.floor(fy)));
      const y1 = Math.min(SEGMENT - 1, y0 + 1);
      const wy = Math.max(0, Math.min(1, fy - y0));
      for (let x = 0; x < width; x++) {
        const fx = (x + 0.5 - around.left) * scale - 0.5;
        if (fx < -0.5 || fx > SEGMENT - 0.5) continue;
        const x0 = Math.max(0, Math.min(SEGMENT - 1, Math.floor(fx)));
        const x1 = Math.min(SEGMENT - 1, x0 + 1);
        const wx = Math.max(0, Math.min(1, fx - x0));
        const top = cells[y0 * SEGMENT + x0]! * (1 - wx) + cells[y0 * SEGMENT + x1]! * wx;
        const bottom = cells[y1 * SEGMENT + x0]! * (1 - wx) + cells[y1 * SEGMENT + x1]! * wx;
        const v = top * (1 - wy) + bottom * wy;
        mask[y * width + x] = Math.round(Math.max(0, Math.min(1, (v - 0.3) / 0.4)) * 255);
      }
    }
    return { landmarks, mask };
  } finally {
    image.dispose();
  }
}
