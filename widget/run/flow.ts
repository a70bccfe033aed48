// The run itself, in the manner of Lit's Task: every run (upload → submit → watch, or a part of it)
// gets its own AbortSignal and aborts the one before; an answer that arrives for an aborted run is
// dropped in one place (`settled`, `whileCurrent`), never applied. Every change goes through the
// pure reducer (session.ts) and out through ONE channel: the changes it publishes to its
// subscribers (`subscribe`), each with the public events it reports and what storage keeps, both
// worked out in reports.ts. `complete` awaits the run under way, as Task's `taskComplete`.
// The shopper's actions that start and stop runs are the subclass's (tryon-run.ts).
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { hasOutput, initialSession, nextSession } from './session.js';
import type { FailedStage, SessionEvent, SessionState } from './session.js';
import { ProxyClient, ProxyCallError } from '../api/proxy-client.js';
import type { ProductInfo } from '../api/proxy-client.js';
import { failure, isAbort } from './error-policy.js';
import { unavailableReasonOf } from '../core/availability.js';
import { expectedMs, requestedViews, variantToTry } from './product.js';
import { keepForReload, reportsOf } from './reports.js';
import type { RunChange, RunNotice } from './reports.js';
import type { Run, RunOptions, RunSettings } from './settings.js';

export { newRequestId } from './settings.js';
export type { Run, RunOptions, RunSettings } from './settings.js';

const isNotice = (event: SessionEvent | RunNotice): event is RunNotice =>
  event.type === 'submitting' || event.type === 'preview-painted' || event.type === 'availability';

export class RunFlow implements ReactiveController {
  #session: SessionState = initialSession();
  #product: ProductInfo | undefined;
  #current: AbortController | undefined;
  #running: Promise<void> | undefined;
  #productLoad: Promise<ProductInfo> | undefined;
  #client: ProxyClient | undefined;
  #loadedFor: string | undefined;
  readonly #listeners = new Set<(change: RunChange) => void>();
  /** The consent text the shopper agreed to, sent with every try-on. */
  protected consentGiven: { version: string | undefined; language: string } | undefined;

  protected readonly host: ReactiveControllerHost;
  protected readonly options: RunOptions;

  constructor(host: ReactiveControllerHost, options: RunOptions) {
    this.host = host;
    this.options = options;
    host.addController(this);
  }

  /** Where the shopper's try-on is: read-only, it changes only through the reducer. */
  get session(): SessionState {
    return this.#session;
  }

  /** The product as the proxy describes it, once loaded. */
  get product(): ProductInfo | undefined {
    return this.#product;
  }

  /**
   * Settles once no run is under way (a run started meanwhile is awaited too), with the session
   * then: a result, an error, or wherever a stop left it. A run never rejects: failures are states.
   */
  get complete(): Promise<SessionState> {
    const running = this.#running;
    if (!running) return Promise.resolve(this.session);
    return running.then(() => (this.#running && this.#running !== running ? this.complete : this.session));
  }

  /** The one channel back: `listener` hears every change, in order, until the returned function is called. */
  subscribe(listener: (change: RunChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  hostDisconnected(): void {
    // The page is going away (or the element moved): stop watching; storage keeps the try-on.
    this.stop();
  }

  protected get settings(): RunSettings {
    return this.options.settings();
  }

  /** The variant chosen on the page now, as it will be tried on (product.ts): undefined for the product's own garment. */
  get chosenVariant(): string | undefined {
    return variantToTry(this.product, this.settings.variant || undefined);
  }

  /** Expected time of the current try-on, from the product's tier. */
  expectedMs(): number {
    return expectedMs(this.product, this.session.output);
  }

  /** The only way the session changes, and the only way anything is said: one change, published. */
  protected dispatch(event: SessionEvent | RunNotice): void {
    const before = this.session;
    const after = isNotice(event) ? before : nextSession(before, event);
    const { endpoint, product } = this.settings;
    const facts = { endpoint, product, chosenVariant: this.chosenVariant, expectedMs: this.expectedMs() };
    const reports = reportsOf(before, after, event, facts);
    if (after === before && !reports.length && event.type !== 'availability') return;
    this.#session = after;
    const change: RunChange = { before, after, event, reports };
    keepForReload(change, facts);
    for (const listener of this.#listeners) listener(change);
    this.host.requestUpdate();
  }

  protected get running(): boolean {
    return this.#current !== undefined;
  }

  protected stop(): void {
    this.#current?.abort();
    this.#current = undefined;
  }

  /** Starts a run, aborting the one before; a failure is reported once, an aborted run says nothing. */
  protected start(stage: FailedStage, work: (run: Run) => Promise<void>): Promise<void> {
    this.stop();
    const controller = new AbortController();
    this.#current = controller;
    const run: Run = { signal: controller.signal, stage };
    const running = (async () => {
      try {
        await work(run);
      } catch (error) {
        if (!run.signal.aborted) this.fail(run.stage, error);
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
  async #settled<T>(run: Run, stage: FailedStage, work: Promise<T>): Promise<T> {
    run.stage = stage;
    const value = await work;
    run.signal.throwIfAborted();
    return value;
  }

  /** A callback that does nothing once its run was aborted. */
  #whileCurrent<A extends unknown[]>(run: Run, callback: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      if (!run.signal.aborted) callback(...args);
    };
  }

  protected async send(run: Run): Promise<void> {
    if (!this.session.photo) {
      const blob = this.options.chosenPhoto();
      if (!blob) {
        this.dispatch({ type: 'cancel' });
        return;
      }
      const progress = this.#whileCurrent(run, (percent: number) =>
        this.dispatch({ type: 'upload-progress', percent }),
      );
      const uploaded = await this.#settled(run, 'upload', this.proxy().uploadPhoto(blob, progress, run.signal));
      this.dispatch({ type: 'uploaded', photo: { handle: uploaded.photo, expiresAt: uploaded.expiresAt } });
    }
    await this.submit(run);
  }

  protected async submit(run: Run): Promise<void> {
    const { photo, model, requestId, output } = this.session;
    if ((!photo && !model) || !requestId) return;
    const product = this.product ?? (await this.#settled(run, 'submit', this.loadProduct()));
    // Chosen before the product was known (a quick shopper): checked against its list now.
    const variant = variantToTry(product, this.session.variant);
    const views = output === 'video' ? ['front'] : requestedViews(this.product, this.settings.views);
    this.dispatch({ type: 'submitting', views, variant });
    const created = await this.#settled(
      run,
      'submit',
      this.proxy().createTryon(
        {
          product: product.product || this.settings.product,
          ...(variant ? { variant } : {}),
          // The shop's model needs no consent; the shopper's photo carries the consent they gave.
          ...(model !== undefined ? { model } : { photo: photo!.handle, ...this.consentFields() }),
          requestId,
          ...(output === 'video' ? { output } : { views }),
          ...(this.session.previewOff ? { preview: 'off' as const } : {}),
        },
        run.signal,
      ),
    );
    const createdViews = Array.isArray(created.views) && created.views.length ? created.views : views;
    this.dispatch({ type: 'submitted', tryon: created.tryon, views: createdViews, at: Date.now(), variant });
    await this.watch(run);
  }

  protected async watch(run: Run): Promise<void> {
    const tryon = this.session.tryon;
    if (!tryon) return;
    const client = this.proxy();
    const final = await this.#settled(
      run,
      'watch',
      client.watch(
        tryon,
        this.#whileCurrent(run, (answer) => this.dispatch({ type: 'status', answer })),
        run.signal,
        this.#whileCurrent(run, () => this.dispatch({ type: 'not-answering' })),
      ),
    );
    if (final.status === 'succeeded' && !hasOutput(this.session)) {
      // Success without anything to show: ask once more (outputs may trail the status), and
      // if there is still nothing, offer "Try again" rather than an empty result.
      const answer = await this.#settled(run, 'watch', client.status(tryon, run.signal));
      this.dispatch({ type: 'status', answer, recheck: true });
      if (!hasOutput(this.session)) throw new ProxyCallError('no_outputs', { retryable: true });
    }
    if (final.status === 'failed') {
      const code = final.error?.code ?? 'render_failed';
      const error = { code, message: this.options.errorMessage(code), retryable: final.error?.retryable ?? true };
      // The session already moved to `error`; give it the words the shopper reads.
      this.dispatch({ type: 'failed', stage: 'render', error, forget: { tryon: true } });
    }
  }

  /** Shows a failure to the shopper; storage forgets what the error policy says is gone. */
  protected fail(stage: FailedStage, error: unknown): void {
    if (isAbort(error)) return;
    if (!(error instanceof ProxyCallError) && !(error instanceof TypeError)) console.error(error);
    const { code, retryable, stage: failed, forgetTryon: tryon, forgetPhoto: photo } = failure(stage, error);
    // A try-on the proxy cannot open any more (its secret changed) is said plainly to be lost.
    const message = this.options.errorMessage(code === 'invalid_handle' && stage === 'watch' ? 'tryon_lost' : code);
    this.dispatch({ type: 'failed', stage: failed, error: { code, message, retryable }, forget: { tryon, photo } });
  }

  /** Which consent text the shopper agreed to, sent with every try-on. */
  protected consentFields(): { consentVersion?: string; consentLanguage?: string } {
    const consent = this.consentGiven;
    return consent
      ? { ...(consent.version ? { consentVersion: consent.version } : {}), consentLanguage: consent.language }
      : {};
  }

  // ── the product and the proxy ────────────────────────────────────────────────────────────

  protected proxy(): ProxyClient {
    const { endpoint, pollInterval } = this.settings;
    const base = new URL(endpoint, location.href).href;
    if (!this.#client || this.#client.base.href.replace(/\/$/, '') !== base.replace(/\/$/, '')) {
      this.#client = new ProxyClient(endpoint, { pollInterval });
    }
    return this.#client;
  }

  /**
   * Whether the product wants a full-length photo, once the proxy has said: a photo chosen before
   * the product's answer came is checked against the product, not against a guess. False when the
   * product cannot be loaded: that failure is the try-on's to show, on submit.
   */
  async needsFullBody(): Promise<boolean> {
    const product = this.product ?? (await this.loadProduct().catch(() => undefined));
    return product?.fullBody === true;
  }

  /** The product as the proxy describes it: loaded once, or asked `again` (the day's budget may have run out since). */
  protected loadProduct(again?: boolean): Promise<ProductInfo> {
    if (this.#productLoad && !again) return this.#productLoad;
    const load: Promise<ProductInfo> = this.proxy()
      .product(this.settings.product)
      .then((product) => {
        // The answer for a product the element no longer shows is stale: dropped.
        if (this.#productLoad !== load) return product;
        const reason = unavailableReasonOf(product);
        this.dispatch({ type: 'availability', reason });
        // Not today: said in the words of the code a try-on would be refused with, never uploaded.
        if (reason)
          throw new ProxyCallError(reason === 'disabled' ? 'unknown_product' : 'daily_budget_reached', {
            retryable: false,
            status: 200,
          });
        this.#product = product;
        this.host.requestUpdate();
        return product;
      })
      .catch((error: unknown) => {
        if (this.#productLoad === load) this.#productLoad = undefined;
        throw error;
      });
    this.#productLoad = load;
    return load;
  }

  /** A different product, proxy or choice of views is a different try-on: start over (consent is kept). */
  protected resetIfProductChanged(): void {
    const { endpoint, product, views } = this.settings;
    const now = `${new URL(endpoint, location.href).href}|${product}|${views}`;
    this.#loadedFor ??= now;
    if (this.#loadedFor === now) return;
    this.#loadedFor = now;
    this.stop();
    this.#product = undefined;
    this.#productLoad = undefined;
    this.dispatch({ type: 'product-changed' });
  }
}
