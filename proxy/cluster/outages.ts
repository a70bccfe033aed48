// How a store a network hop away (Redis, Durable Objects) fails: every operation runs through
// StoreOutages, so any failure is the shopper's 503 store_unavailable (nothing that spends or must
// agree goes on unguarded) and the operator hears of an outage once when it starts and once when it
// ends. Below every feature, since each feature's Redis and Durable Object adapters run through it.
import { ProxyError } from '../http/errors.js';
import type { Log } from '../operator/log.js';

/** One operation of a store a hop away, by its name in the log and the metrics, run as StoreOutages runs it. */
export type StoreRun = <T>(operation: string, work: () => Promise<T>) => Promise<T>;

/** The shared store cannot be reached: nothing that spends or must agree may go on unguarded. */
export class StoreUnavailable extends ProxyError {
  /** `cause`: the store's own error, for the operator's stack traces; the shopper's answer never shows it. */
  constructor(cause?: unknown) {
    super(503, 'store_unavailable', 'Try-on is briefly unavailable; please try again in a moment.', true, 1);
    this.name = 'StoreUnavailable';
    if (cause !== undefined) this.cause = cause;
  }
}

/**
 * A store a network hop away (Redis, Durable Objects) runs every operation through this: any
 * failure is the shopper's 503 store_unavailable, and the operator hears of an outage once when
 * it starts and once when it ends, not once per request.
 */
export class StoreOutages {
  private failing = false;

  constructor(private readonly log: Log | undefined) {}

  async run<T>(operation: string, work: () => Promise<T>, failed?: (operation: string) => void): Promise<T> {
    try {
      const result = await work();
      if (this.failing) {
        this.failing = false;
        this.log?.({ level: 'warn', event: 'store_recovered' });
      }
      return result;
    } catch (error) {
      failed?.(operation);
      if (!this.failing) {
        this.failing = true;
        this.log?.({ level: 'error', event: 'store_unavailable', operation, message: (error as Error).message });
      }
      throw new StoreUnavailable(error);
    }
  }
}
