// The photo check's worker: decodes the prepared photo itself, measures light and sharpness, and
// runs two small models (BlazeFace for faces, MediaPipe's selfie segmentation for people) with TensorFlow.js on
// its WebAssembly backend. Off the main thread so the page never stalls (no long task); built on
// its own by scripts/photo-check-build.ts into dist/cdn/photo-check-worker.js, the models and the
// wasm beside it (photo-check-*.json, .bin, .wasm; quantized to uint8 at build time). Nothing is
// fetched from anywhere but the folder the worker itself came from.
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import type { PhotoMeasures } from './verdict.js';

export interface CheckRequest {
  id: number;
  photo: Blob;
}
export type CheckAnswer = { id: number; measures: PhotoMeasures; ms: number } | { id: number; error: string };

/**
 * The models and the wasm, beside the worker wherever the shop serves the widget. Each URL a literal
 * `new URL('./…', import.meta.url)`, so a shop's bundler (Vite, webpack, Next), having bundled this
 * worker, emits these files too and writes their new names here; a model's weights are named here
 * as well, not found beside its JSON, which a bundler renames.
 */
const files = {
  wasm: new URL('./photo-check-tfjs-simd.wasm', import.meta.url).href,
  face: new URL('./photo-check-blazeface.json', import.meta.url).href,
  faceWeights: new URL('./photo-check-blazeface.bin', import.meta.url).href,
  people: new URL('./photo-check-selfie.json', import.meta.url).href,
  peopleWeights: new URL('./photo-check-selfie.bin', import.meta.url).href,
};

interface Models {
  face: GraphModel;
  people: GraphModel;
  anchors: Float32Array;
}
let loading: Promise<Models> | undefined;

function load(): Promise<Models> {
  loading ??= (async () => {
    // Only the SIMD build ships (every browser with module workers has wasm SIMD); threads would
    // need cross-origin isolation, which a shop's page does not have.
    setWasmPaths({
      'tfjs-backend-wasm.wasm': files.wasm,
      'tfjs-backend-wasm-simd.wasm': files.wasm,
      'tfjs-backend-wasm-threaded-simd.wasm': files.wasm,
    });
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    if (!(await tf.setBackend('wasm'))) throw new Error('the WebAssembly backend did not start');
    const [face, people] = await Promise.all([
      loadGraphModel(files.face, { weightUrlConverter: () => Promise.resolve(files.faceWeights) }),
      loadGraphModel(files.people, { weightUrlConverter: () => Promise.resolve(files.peopleWeights) }),
    ]);
    return { face, people, anchors: faceAnchors(256) };
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** BlazeFace's anchors for a 256 px input: strides 16 and 32, 2 and 6 anchors a cell. */
function faceAnchors(size: number): Float32Array {
  const out: number[] = [];
  for (const [stride, count] of [
    [size / 16, 2],
    [size / 8, 6],
  ] as const) {
    const cells = Math.ceil(size / stride);
    for (let y = 0; y < cells; y++)
      for (let x = 0; x < cells; x++) for (let n = 0; n < count; n++) out.push(stride * (x + 0.5), stride * (y + 0.5));
  }
  return Float32Array.from(out);
}

/** The photo as RGBA pixels at most `longest` px on its longer side, and its full size. */
async function pixels(photo: Blob, longest: number): Promise<{ data: ImageData; width: number; height: number }> {
  const bitmap = await createImageBitmap(photo);
  const { width, height } = bitmap;
  const scale = Math.min(1, longest / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const canvas = new OffscreenCanvas(w, h);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('no 2D context on an OffscreenCanvas');
  context.drawImage(bitmap, 0, 0, w, h);
  bitmap.close();
  return { data: context.getImageData(0, 0, w, h), width, height };
}

/** Mean luma and the variance of the Laplacian (how much fine edge the photo holds). */
function lightAndSharpness(image: ImageData): { brightness: number; sharpness: number } {
  const { width: w, height: h, data } = image;
  const luma = new Float32Array(w * h);
  let sum = 0;
  for (let i = 0; i < w * h; i++) {
    const y = 0.299 * data[i * 4]! + 0.587 * data[i * 4 + 1]! + 0.114 * data[i * 4 + 2]!;
    luma[i] = y;
    sum += y;
  }
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const lap = luma[i - 1]! + luma[i + 1]! + luma[i - w]! + luma[i + w]! - 4 * luma[i]!;
      n++;
      const delta = lap - mean;
      mean += delta / n;
      m2 += delta * (lap - mean);
    }
  }
  return { brightness: sum / (w * h), sharpness: n > 1 ? m2 / (n - 1) : 0 };
}

/** The photo padded to a square (so the models see it unstretched) and resized to `size`. */
function square(image: tf.Tensor3D, size: number): tf.Tensor4D {
  return tf.tidy(() => {
    const [h, w] = image.shape;
    const side = Math.max(h, w);
    const top = Math.floor((side - h) / 2);
    const left = Math.floor((side - w) / 2);
    const padded = tf.pad(image, [
      [top, side - h - top],
      [left, side - w - left],
      [0, 0],
    ]);
    return tf.image.resizeBilinear(tf.expandDims(padded, 0) as tf.Tensor4D, [size, size]);
  });
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Faces (score, top and height as shares of the photo's height), after non-max suppression. */
async function findFaces(
  model: GraphModel,
  anchors: Float32Array,
  image: tf.Tensor3D,
): Promise<PhotoMeasures['faces']> {
  const [h, w] = image.shape;
  const side = Math.max(h, w);
  const input = tf.tidy(() => tf.sub(tf.div(square(image, 256), 127.5), 1));
  const raw = model.execute(input) as tf.Tensor | tf.Tensor[];
  // This BlazeFace comes as four outputs (scores and boxes for the 16 × 16 grid and the 8 × 8
  // one): ordered by size, joined into one row of 17 (score, box, 6 landmarks) per anchor.
  const joined = tf.tidy(() => {
    if (!Array.isArray(raw)) return tf.squeeze(raw);
    const [s384, s512, b384, b512] = [...raw].sort((a, b) => a.size - b.size) as [
      tf.Tensor,
      tf.Tensor,
      tf.Tensor,
      tf.Tensor,
    ];
    return tf.squeeze(tf.concat([tf.concat([s512, b512], 2), tf.concat([s384, b384], 2)], 1));
  });
  const rows = (await joined.data()) as Float32Array;
  tf.dispose([input, raw, joined]);
  const stride = rows.length / (anchors.length / 2);
  const boxes: number[] = [];
  const scores: number[] = [];
  for (let i = 0; i < anchors.length / 2; i++) {
    const score = sigmoid(rows[i * stride]!);
    if (score < 0.5) continue;
    const cx = rows[i * stride + 1]! + anchors[i * 2]!;
    const cy = rows[i * stride + 2]! + anchors[i * 2 + 1]!;
    const bw = rows[i * stride + 3]!;
    const bh = rows[i * stride + 4]!;
    boxes.push((cy - bh / 2) / 256, (cx - bw / 2) / 256, (cy + bh / 2) / 256, (cx + bw / 2) / 256);
    scores.push(score);
  }
  if (scores.length === 0) return [];
  const boxT = tf.tensor2d(boxes, [scores.length, 4]);
  const scoreT = tf.tensor1d(scores);
  const kept = await tf.image.nonMaxSuppressionAsync(boxT, scoreT, 10, 0.3, 0.5);
  const keptIndices = await kept.data();
  tf.dispose([boxT, scoreT, kept]);
  // From the padded square back to the photo.
  const toTop = (y: number) => (y * side - (side - h) / 2) / h;
  const toLeft = (x: number) => (x * side - (side - w) / 2) / w;
  return Array.from(keptIndices, (i) => ({
    score: scores[i]!,
    top: toTop(boxes[i * 4]!),
    left: toLeft(boxes[i * 4 + 1]!),
    height: ((boxes[i * 4 + 2]! - boxes[i * 4]!) * side) / h,
    width: ((boxes[i * 4 + 3]! - boxes[i * 4 + 1]!) * side) / w,
  })).sort((a, b) => b.height - a.height);
}

/**
 * The people in the photo: the selfie segmentation's mask (a person's pixels, 256 × 256 over the
 * whole photo), cut into separate figures. Each figure's share of the photo and its box, largest first.
 */
async function findPeople(model: GraphModel, image: tf.Tensor3D): Promise<PhotoMeasures['people']> {
  const input = tf.tidy(() => tf.div(tf.image.resizeBilinear(tf.expandDims(image, 0) as tf.Tensor4D, [256, 256]), 255));
  const out = model.execute(input) as tf.Tensor;
  const small = tf.tidy(() => tf.squeeze(tf.image.resizeBilinear(out as tf.Tensor4D, [MASK, MASK])));
  const mask = (await small.data()) as Float32Array;
  tf.dispose([input, out, small]);
  return figures(mask, MASK);
}

/** The mask's resolution for cutting it into figures. */
const MASK = 96;

/** Connected regions of the mask over one half (4-neighbours), as shares of the photo. */
function figures(mask: Float32Array, size: number): PhotoMeasures['people'] {
  const seen = new Uint8Array(size * size);
  const out: PhotoMeasures['people'] = [];
  const stack: number[] = [];
  // Each row's first and last cell of the figure being cut out: its outline, drawn over the thumbnail.
  const first = new Int16Array(size);
  const last = new Int16Array(size);
  for (let start = 0; start < size * size; start++) {
    if (seen[start] || mask[start]! < 0.5) continue;
    seen[start] = 1;
    stack.push(start);
    first.fill(size);
    last.fill(-1);
    let area = 0;
    let top = size;
    let bottom = 0;
    let left = size;
    let right = 0;
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % size;
      const y = (i - x) / size;
      area++;
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
      left = Math.min(left, x);
      right = Math.max(right, x);
      first[y] = Math.min(first[y]!, x);
      last[y] = Math.max(last[y]!, x);
      for (const j of [
        x > 0 ? i - 1 : -1,
        x < size - 1 ? i + 1 : -1,
        y > 0 ? i - size : -1,
        y < size - 1 ? i + size : -1,
      ]) {
        if (j >= 0 && !seen[j] && mask[j]! >= 0.5) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    out.push({
      area: area / (size * size),
      top: top / size,
      bottom: (bottom + 1) / size,
      left: left / size,
      right: (right + 1) / size,
      outline: outline(first, last, top, bottom, size),
    });
  }
  return out.sort((a, b) => b.area - a.area).slice(0, 8);
}

/**
 * A figure's outline as a polygon (x, y pairs, shares of the photo): down its left edge and up its
 * right one, every other row. Holes and overhangs are lost, which a drawing of where the check
 * looked can spare; a marching-squares contour would cost more code in the worker for no verdict.
 */
function outline(first: Int16Array, last: Int16Array, top: number, bottom: number, size: number): number[] {
  // A connected figure has cells in every row from its top to its bottom.
  const rows: number[] = [];
  for (let y = top; y < bottom; y += 2) rows.push(y);
  rows.push(bottom);
  const round = (v: number) => Math.round((v / size) * 1000) / 1000;
  const points: number[] = [];
  for (const y of rows) points.push(round(first[y]!), round(y === top ? y : y + 0.5));
  for (const y of rows.reverse()) points.push(round(last[y]! + 1), round(y === bottom ? y + 1 : y + 0.5));
  return points;
}

export async function measure(photo: Blob): Promise<PhotoMeasures> {
  const { data, width, height } = await pixels(photo, 512);
  const { face, people, anchors } = await load();
  const image = tf.tidy(() => tf.cast(tf.browser.fromPixels(data), 'float32')) as tf.Tensor3D;
  try {
    const faces = await findFaces(face, anchors, image);
    return { width, height, ...lightAndSharpness(data), faces, people: await findPeople(people, image) };
  } finally {
    image.dispose();
  }
}

// In a worker (not when a test imports this module): answer each request.
const scope = globalThis as unknown as {
  onmessage: unknown;
  postMessage(message: CheckAnswer): void;
  document?: unknown;
};
if (typeof scope.document === 'undefined') {
  scope.onmessage = async (event: MessageEvent<CheckRequest>) => {
    const { id, photo } = event.data;
    const started = performance.now();
    try {
      scope.postMessage({ id, measures: await measure(photo), ms: performance.now() - started });
    } catch (error) {
      scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  };
}
