// Job events sent to SANDBOX_WEBHOOK_URL, signed the Standard Webhooks way, so the proxy's
// webhook route (signature check, duplicate drop, waking its watchers) is tested against real
// deliveries, retries included.
import { Webhook } from 'standardwebhooks';
import { newId } from '../api/ids.js';

export interface WebhookSenderOptions {
  url: string;
  secret: string;
  log: (line: string) => void;
  attempts?: number;
  baseDelayMs?: number;
}

/**
 * Sends job events signed by the Standard Webhooks scheme. A delivery is retried on a non-2xx
 * answer or a network error with exponential backoff and jitter, keeping its webhook-id so the
 * receiver can drop duplicates. Events of one job go out in order.
 */
export class WebhookSender {
  readonly #signer: Webhook;
  readonly #chains = new Map<string, Promise<void>>();
  readonly #timers = new Set<{ timer: NodeJS.Timeout; done: () => void }>();
  readonly #inFlight = new Set<AbortController>();
  #closed = false;

  constructor(private readonly options: WebhookSenderOptions) {
    // Fails here, at start, when the secret is not in whsec_<base64> form.
    this.#signer = new Webhook(options.secret);
  }

  send(type: string, chainKey: string, data: unknown): void {
    if (this.#closed) return;
    const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
    const id = newId('msg');
    const previous = this.#chains.get(chainKey) ?? Promise.resolve();
    const next = previous.then(() => this.#deliver(id, body, type));
    this.#chains.set(chainKey, next);
    void next.finally(() => {
      if (this.#chains.get(chainKey) === next) this.#chains.delete(chainKey);
    });
  }

  /** Resolves when every queued delivery has finished (delivered or given up). */
  async idle(): Promise<void> {
    while (this.#chains.size) await Promise.all(this.#chains.values());
  }

  close(): void {
    this.#closed = true;
    for (const { timer, done } of this.#timers) {
      clearTimeout(timer);
      done();
    }
    this.#timers.clear();
    for (const controller of this.#inFlight) controller.abort();
  }

  async #deliver(id: string, body: string, type: string): Promise<void> {
    const attempts = this.options.attempts ?? 5;
    const base = this.options.baseDelayMs ?? 500;
    for (let attempt = 1; attempt <= attempts && !this.#closed; attempt++) {
      const sentAt = new Date();
      const controller = new AbortController();
      this.#inFlight.add(controller);
      const timeout = setTimeout(() => controller.abort(), 10_000);
      let outcome: string;
      try {
        const response = await fetch(this.options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
            'webhook-signature': this.#signer.sign(id, sentAt, body),
          },
          body,
          signal: controller.signal,
        });
        await response.body?.cancel();
        if (response.ok) return;
        outcome = `answered ${response.status}`;
      } catch (error) {
        outcome = `failed (${error instanceof Error ? error.message : 'network error'})`;
      } finally {
        clearTimeout(timeout);
        this.#inFlight.delete(controller);
      }
      if (this.#closed) return;
      if (attempt === attempts) {
        this.options.log(`sandbox: webhook ${type} ${id} ${outcome}; gave up after ${attempts} tries`);
        return;
      }
      const delay = base * 2 ** (attempt - 1) * (1 + Math.random() * 0.25);
      this.options.log(`sandbox: webhook ${type} ${id} ${outcome}; retrying in ${Math.round(delay)} ms`);
      await new Promise<void>((resolve) => {
        const entry = {
          timer: setTimeout(() => {
            this.#timers.delete(entry);
            resolve();
          }, delay),
          done: resolve,
        };
        this.#timers.add(entry);
      });
    }
  }
}
