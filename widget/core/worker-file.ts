// Asking one of the widget's module workers one question, shared by the photo preparation
// (photo/photo.ts → photo-prep-worker.js) and the photo check (photo/check/photo-check.ts →
// photo-check-worker.js), here below both so that neither part of photo/ leans on the other's folder.
// Each caller starts its worker itself with `new Worker(new URL('./…-worker.js', import.meta.url),
// { type: 'module' })`, the URL a literal: that exact shape is what Vite, webpack and Next recognise
// to emit the worker into a shop's bundle; a URL from a variable or a helper is left alone, and the
// worker is missing there. Every build has the worker file beside the module that starts it
// (scripts/worker-build.ts, scripts/photo-check-build.ts; in dist/npm a one-line module importing
// dist/cdn's). A worker must come from the page's own origin and a CSP may refuse it (`worker-src`):
// `new Worker` then throws, or the worker fires `error` instead of answering; both reject here, and
// the caller says so in the console and goes on without.

/** Whether this browser can run the widget's workers at all (module workers with OffscreenCanvas). */
export const workersAvailable = (): boolean => typeof Worker === 'function' && typeof OffscreenCanvas === 'function';

/** The worker fired `error`: it could not start (or broke); it is terminated, start another next time. */
export class WorkerStartError extends Error {}

/**
 * Posts `message` (with its `id`) and waits for the answer carrying the same id. Rejects when the
 * worker fires `error` (it could not start: file missing, CSP; a WorkerStartError, the worker terminated) or no answer comes within `timeoutMs`.
 */
export function askWorker<A extends { id: number }>(
  worker: Worker,
  message: { id: number; [key: string]: unknown },
  timeoutMs: number,
): Promise<A> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
    };
    const onError = (event: ErrorEvent) => {
      done();
      worker.terminate();
      reject(new WorkerStartError(event.message || 'the worker did not start'));
    };
    const onMessage = (event: MessageEvent<A>) => {
      if (event.data.id !== message.id) return;
      done();
      resolve(event.data);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
    worker.postMessage(message);
  });
}
