// The photo preparation's worker: decode, orientation, downscale and JPEG encode of the shopper's
// photo (photo-pipeline.ts) off the page's main thread, so a 12-megapixel JPEG or an iPhone HEIC
// never holds the page in a long task. libheif, when a HEIC needs it, is imported here, in the
// worker, as a chunk of its own. Built on its own by scripts/worker-build.ts into
// dist/cdn/photo-prep-worker.js (and photo-prep-heic-<hash>.js beside it); started by photo.ts.
import { preparePhotoHere } from '../photo-pipeline.js';
import type { PrepAnswer, PrepRequest } from '../photo-pipeline.js';
import { PhotoError } from '../rules.js';

const scope = globalThis as unknown as {
  onmessage: unknown;
  postMessage(message: PrepAnswer): void;
  document?: unknown;
};
if (scope.document === undefined) {
  scope.onmessage = async (event: MessageEvent<PrepRequest>) => {
    const { id, file } = event.data;
    try {
      scope.postMessage({ id, photo: await preparePhotoHere(file) });
    } catch (error) {
      if (error instanceof PhotoError && error.message !== 'No 2D canvas is available.') {
        const facts = { width: error.width, height: error.height, sizeMb: error.sizeMb };
        scope.postMessage({ id, problem: error.problem, message: error.message, facts });
      } else {
        scope.postMessage({ id, failed: error instanceof Error ? error.message : String(error) });
      }
    }
  };
}
