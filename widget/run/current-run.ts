// One run at a time, in the manner of Lit's Task: every run (upload → submit → watch, or a part of
// it) gets its own AbortSignal and aborts the one before; an answer that arrives for an aborted run
// is dropped in one place (`settled`, `whileCurrent`), never applied; a run's failure is handed on
// once, an aborted run's never. The try-on run (tryon-run.ts) starts and stops runs through it.
import type { FailedStage } from './session.js';
import type { Run } from './settings.js';

export class CurrentRun {
  #current: AbortController | undefined;
  #running: Promise<void> | undefined;
  readonly #failed: (stage: FailedStage, error: unknown) => void;

  /** `failed`: what a run's failure becomes (the try-on run shows it to the shopper). */
  constructor(failed: (stage: FailedStage, error: unknown) => void) {
    this.#failed = failed;
  }

  /** A run has started and has neither ended nor been stopped. */
  get underWay(): boolean {
    return this.#current !== undefined;
  }

  /** The last run started, until it settles (awaited by the try-on run's `complete`). */
  get running(): Promise<void> | undefined {
    return this.#running;
  }

  stop(): void {
    this.#current?.abort();
    this.#current = undefined;
  }

  /** Starts a run, aborting the one before; a failure is handed on once, an aborted run says nothing. */
  start(stage: FailedStage, work: (run: Run) => Promise<void>): Promise<void> {
    this.stop();
    const controller = new AbortController();
    this.#current = controller;
    const run: Run = { signal: controller.signal, stage };
    const running = (async () => {
      try {
        await work(run);
      } catch (error) {
        if (!run.signal.aborted) this.#failed(run.stage, error);
      } finally {
        if (this.#current === controller) this.#current = undefined;
      }
    })();
    this.#running = running;
    void running.then(() => {
      if (this.#running === running) this.#running = undefined;
    });
    return running;
  }

  /** Awaits one step of a run; if the run was aborted meanwhile, its answer is stale: dropped. */
  async settled<T>(run: Run, stage: FailedStage, work: Promise<T>): Promise<T> {
    run.stage = stage;
    const value = await work;
    run.signal.throwIfAborted();
    return value;
  }

  /** A callback that does nothing once its run was aborted. */
  whileCurrent<A extends unknown[]>(run: Run, callback: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      if (!run.signal.aborted) callback(...args);
    };
  }
}
