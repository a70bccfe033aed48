// Photo preparation in the shopper's browser, before anything is uploaded (photo-pipeline.ts: EXIF
// orientation applied, long side at most 2048 px, re-encoded as JPEG with no EXIF, GPS or XMP).
// It runs in a module worker (photo-prep-worker.js, built beside this chunk), so decoding a
// 12-megapixel phone photo or an iPhone HEIC and encoding the JPEG never hold the page in a long
// task. Where the browser has no module workers or OffscreenCanvas, or the page's CSP refuses the
// worker (`worker-src`), or the widget is served from another origin than the page, the same steps
// run on the page in slices (a yield between decode, draw and encode), and the console says so.
import type { PrepAnswer, Prepared } from './photo-pipeline.js';
import { PhotoError } from './rules.js';
import type { PreparedPhoto } from './rules.js';
import { askWorker, workersAvailable, WorkerStartError } from '../core/worker-file.js';

export * from './rules.js';

/** The worker file, beside this module in every build (scripts/worker-build.ts); named for the console. */
const WORKER_FILE = './photo-prep-worker.js';
/** A HEIC's first decode loads libheif (0.7 MB gzipped) on a slow phone: generous. */
const TIMEOUT_MS = 60_000;

let worker: Worker | undefined;
let nextId = 0;

/** Where the last photo was prepared and which decoder read it (for tests and diagnostics). */
export let lastPreparation: { where: 'worker' | 'page'; decoder: Prepared['decoder'] } | undefined;

const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Turns the shopper's file into what is uploaded. Throws a PhotoError (with the figures for a
 * clear message) for a file that is not an image, too small or too large.
 */
export async function prepareRawPhoto(file: Blob): Promise<PreparedPhoto> {
  let why = 'this browser has no module workers or OffscreenCanvas';
  if (workersAvailable()) {
    try {
      // A literal URL, not WORKER_FILE: bundlers (Vite, webpack, Next) emit a worker only for
      // `new Worker(new URL('<literal>', import.meta.url))` (widget/core/worker-file.ts).
      worker ??= new Worker(new URL('./photo-prep-worker.js', import.meta.url), { type: 'module' });
      const answer = await askWorker<PrepAnswer>(worker, { id: ++nextId, file }, TIMEOUT_MS);
      if ('photo' in answer) return done('worker', answer.photo);
      if ('problem' in answer) throw new PhotoError(answer.problem, answer.message, answer.facts);
      why = answer.failed;
    } catch (error) {
      if (error instanceof PhotoError) throw error;
      // Not started (file missing, CSP, another origin) or stuck: drop it, so a later photo tries afresh.
      if (!(error instanceof WorkerStartError)) worker?.terminate();
      worker = undefined;
      why = `its worker ${WORKER_FILE} could not run: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  console.warn(
    `<tryon-button>: the photo is prepared on the page, in slices, not in a worker (${why}); the page may respond more slowly meanwhile.`,
  );
  // The steps themselves are a chunk of their own, fetched only here: the panel carries just the worker's client.
  const { preparePhotoHere } = await import('./photo-pipeline.js');
  return done('page', await preparePhotoHere(file, yieldToPage));
}

function done(where: 'worker' | 'page', { decoder, ...photo }: Prepared): PreparedPhoto {
  lastPreparation = { where, decoder };
  return photo;
}
