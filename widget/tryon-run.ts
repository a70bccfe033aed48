// The try-on's network flow as a Lit reactive controller, in the manner of Lit's Task: every run
// (upload → submit → watch, or a part of it) gets its own AbortSignal and aborts the one before;
// an answer that arrives for an aborted run is dropped in one place (`settled`, `whileCurrent`),
// never applied. Every change of state goes through the pure reducer in session.ts. It also keeps
// what the tab remembers for a reload (storage.ts) and applies the error policy (error-policy.ts).
// It renders nothing: the panel shows `session` and hears of every change through `changed`.
// About 450 lines, on purpose: the shopper's actions that start or stop a run and the run itself
// (send → submit → watch) are one story, and keeping it in one file lets the AbortSignal's path be
// read top to bottom. The pure parts live elsewhere (session.ts, error-policy.ts, product.ts).
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { hasOutput, initialSession, nextSession } from './session.js';
import type { FailedStage, ProxyStatus, SessionEvent, SessionState } from './session.js';
import { ProxyClient, ProxyCallError } from './proxy-client.js';
import { failure, isAbort, unavailableNow } from './error-policy.js';
import { unavailableReasonOf } from './availability.js';
import type { Unavailable } from './availability.js';
import { expectedMs, requestedViews, variantToTry } from './product.js';
import type { ProductInfo } from './proxy-client.js';
import { forgetPhoto, forgetTryon, lastPhoto, rememberPhoto, rememberTryon } from './storage.js';
import { forgetEverything } from './forget-photo.js';
import { consentVersion } from './consent-version.js';
import type { StoredTryon } from './storage.js';
import type { TryonEventDetail, TryonEventName, TryonOutput, TryonSubject } from './events.js';

function newRequestId(): string {
  // randomUUID exists only in secure contexts; a shop page on plain http still needs an id.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** What the run reads from its element, afresh each time (the shop may change it at any moment). */
export interface RunSettings {
  endpoint: string;
  product: string;
  /** Comma-separated views the shop asked for; empty for every view the product offers. */
  views: string;
  /** The variant (colour) chosen on the page; empty for the product's own garment. */
  variant: string;
  pollInterval: number;
}

export interface RunOptions {
  settings(): RunSettings;
  /** The prepared photo to upload, when the shopper chose one. */
  chosenPhoto(): Blob | undefined;
  /** The shopper's words for an error code. */
  errorMessage(code: string): string;
  /** Dispatches one of the element's public events. */
  emit<K extends TryonEventName>(name: K, detail: TryonEventDetail<K>): void;
  /** Called after every change of the session, before the host renders it. */
  changed(before: SessionState, after: SessionState, event: SessionEvent): void;
  /** What the proxy said on opening: the product can be tried on now (''), or why not; the button follows it. */
  availability?(reason: Unavailable): void;
}

/** One run: its signal, and the stage it is at (which decides what "Try again" repeats). */
interface Run {
  signal: AbortSignal;
  stage: FailedStage;
}

export class TryonRun implements ReactiveController {
  #session: SessionState = initialSession();
  #product: ProductInfo | undefined;

  #current: AbortController | undefined;
  #productLoad: Promise<ProductInfo> | undefined;
  #client: ProxyClient | undefined;
  #loadedFor: string | undefined;
  /** The consent text the shopper agreed to, sent with every try-on. */
  #consent: { version: string | undefined; language: string } | undefined;
  /** The page's chosen variant when "Make this one in full quality" was pressed. */
  #pageVariantAtUpgrade: string | undefined;
  /** The try-on whose first look was announced with `tryon-preview` (once each). */
  #previewTold: string | undefined;
  /** Photos forgotten in this tab whose revocation the proxy has not confirmed yet. */
  readonly #unconfirmed = new Set<string>();

  readonly #host: ReactiveControllerHost;
  readonly #options: RunOptions;

  constructor(host: ReactiveControllerHost, options: RunOptions) {
    this.#host = host;
    this.#options = options;
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

  hostDisconnected(): void {
    // The page is going away (or the element moved): stop watching; storage keeps the try-on.
    this.#stop();
  }

  get #settings(): RunSettings {
    return this.#options.settings();
  }

  /**
   * The variant chosen on the page now, as it will be tried on: undefined for the product's own
   * garment, which is also what a variant the product does not list gets (product.ts).
   */
  get chosenVariant(): string | undefined {
    return variantToTry(this.product, this.#settings.variant || undefined);
  }

  /**
   * What an event is about: the product, and the variant of the try-on under way (or, before
   * there is one, the variant chosen on the page).
   */
  #subject(variant = this.session.requestId ? this.session.variant : this.chosenVariant): TryonSubject {
    return { product: this.#settings.product, ...(variant ? { variant } : {}) };
  }

  /** The only way the session changes. */
  #dispatch(event: SessionEvent): void {
    const before = this.session;
    const after = nextSession(before, event);
    if (after === before) return;
    this.#session = after;
    this.#options.changed(before, after, event);
    this.#host.requestUpdate();
  }

  // ── what the shopper does ────────────────────────────────────────────────────────────────

  /** Enters the flow on opening; with `resume`, picks up a try-on stored before a reload. */
  enter(resume?: StoredTryon): void {
    this.#resetIfProductChanged();
    if (resume && !this.session.tryon) {
      const { tryon, requestId, variant, views, output, submittedAt, photo } = resume;
      this.#dispatch({
        type: 'resume',
        tryon,
        requestId,
        variant,
        views,
        output,
        at: submittedAt,
        photo: photo ? { handle: photo.photo, expiresAt: photo.expiresAt } : undefined,
      });
    } else {
      this.#dispatch({ type: 'open' });
    }
    // Asked again on every opening before a photo is sent: the day's budget may have run out since.
    if (this.session.status === 'consent' || this.session.status === 'photo') this.#productLoad = undefined;
    this.#loadProduct().catch((error: unknown) => {
      if (!this.product || unavailableNow(error)) this.#fail('product', error);
    });
  }

  /** Carries on from the current step: after an open, a resume or a retry. */
  continue(): Promise<void> {
    const { status, tryon, photo, complete } = this.session;
    // Reopened while the try-on is still watched in the background: that watch goes on.
    if (this.#current && (status === 'queued' || status === 'rendering' || (status === 'result' && !complete)))
      return Promise.resolve();
    if (status === 'uploading') return this.#start('upload', (run) => this.#send(run));
    if (tryon && (status === 'queued' || status === 'rendering' || (status === 'result' && !complete))) {
      return this.#start('watch', (run) => this.#watch(run));
    }
    if (status === 'queued' && (photo || this.session.model)) return this.#start('submit', (run) => this.#submit(run));
    return Promise.resolve();
  }

  /**
   * The dialog closed. A try-on already sent (queued, rendering, or a catalog's first views in) is
   * charged and will finish: it is watched on in the background while the page is open, and its
   * result or error waits for the dialog to reopen (session.ts). Anything earlier stops.
   */
  close(): void {
    const status = this.session.status;
    const sent = status === 'queued' || status === 'rendering' || (status === 'result' && !this.session.complete);
    if (!sent) this.#stop();
    if (this.session.complete) forgetTryon(this.#settings.endpoint, this.#settings.product);
    this.#dispatch({ type: 'close' });
    this.#options.emit('tryon-close', { ...this.#subject(this.chosenVariant), status });
  }

  /** The shopper agreed to `words` (the consent step's exact text) in `language`. */
  async consent(words: string, language: string): Promise<void> {
    this.#consent = { version: await consentVersion(words), language };
    this.#dispatch({ type: 'consent' });
  }

  /** Whether "Forget my photo" has anything to forget: a photo in this session or this tab. */
  hasPhotoToForget(): boolean {
    return Boolean(this.session.photo || lastPhoto(this.#settings.endpoint) || this.#unconfirmed.size);
  }

  /**
   * "Forget my photo": stops any run, clears what this tab kept (the last photo, every stored
   * try-on of this proxy), returns to the photo step, and asks the proxy to revoke each photo
   * named (its try-ons and files with it). Resolves false when the proxy could not be reached;
   * the photos are then kept in memory only, so asking again retries.
   */
  async forget(): Promise<boolean> {
    const { endpoint } = this.#settings;
    this.#stop();
    const handles = new Set([...forgetEverything(endpoint), ...this.#unconfirmed]);
    if (this.session.photo) handles.add(this.session.photo.handle);
    this.#dispatch({ type: 'forgotten' });
    const client = this.#proxy();
    const named = [...handles];
    const outcomes = await Promise.allSettled(named.map((handle) => client.forgetPhoto(handle)));
    this.#unconfirmed.clear();
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'rejected') this.#unconfirmed.add(named[i]!);
    });
    this.#host.requestUpdate();
    return this.#unconfirmed.size === 0;
  }

  /** A new photo is being prepared: a new logical try-on. */
  photoChosen(): void {
    this.#dispatch({ type: 'photo-chosen' });
  }

  /** Uploads the chosen photo, then submits and watches. */
  sendPhoto(): Promise<void> {
    this.#dispatch({ type: 'upload-start', requestId: newRequestId(), variant: this.chosenVariant });
    return this.#start('upload', (run) => this.#send(run));
  }

  /** Submits with the photo this tab uploaded last; false when there is none (it expired). */
  useLastPhoto(): boolean {
    const stored = lastPhoto(this.#settings.endpoint);
    if (!stored) {
      this.#host.requestUpdate();
      return false;
    }
    this.#dispatch({ type: 'photo-chosen' });
    this.#dispatch({
      type: 'use-last-photo',
      photo: { handle: stored.photo, expiresAt: stored.expiresAt },
      requestId: newRequestId(),
      variant: this.chosenVariant,
    });
    void this.#start('submit', (run) => this.#submit(run));
    return true;
  }

  /** "No photo? See it on a model": the grid of the product's models (no consent needed). */
  browseModels(): void {
    this.#dispatch({ type: 'browse-models' });
  }

  /** Back from the grid of models. */
  closeModels(): void {
    this.#dispatch({ type: 'models-closed' });
  }

  /** Tries the product on the shop's model `model`: straight to the try-on, no photo, no consent. */
  useModel(model: string): void {
    this.#stop();
    this.#dispatch({ type: 'use-model', model, requestId: newRequestId(), variant: this.chosenVariant });
    void this.#start('submit', (run) => this.#submit(run));
  }

  /**
   * The shopper's phone gave a photo by a hand-off: tried on at once, with the consent given on
   * the phone (the proxy records that one). `expiresAt`: until when the desktop counts on the
   * photo's handle (the hand-off answer does not say; see handoffPhotoExpiry).
   */
  useHandoffPhoto(handle: string, expiresAt: string): void {
    this.#stop();
    this.#dispatch({
      type: 'use-handoff-photo',
      photo: { handle, expiresAt },
      requestId: newRequestId(),
      variant: this.chosenVariant,
    });
    void this.#start('submit', (run) => this.#submit(run));
  }

  /** The phone's side of a hand-off: uploads `photo` with the code and the consent given here; nothing is tried on here. */
  async sendToComputer(code: string, photo: Blob, onProgress?: (percent: number) => void): Promise<void> {
    await this.#proxy().uploadPhoto(photo, onProgress, undefined, {
      handoff: code,
      consent: 'true',
      ...this.#consentFields(),
    });
  }

  /** The proxy client, for the panel's hand-off (which is not a run). */
  client(): ProxyClient {
    return this.#proxy();
  }

  cancel(): void {
    this.#stop();
    forgetTryon(this.#settings.endpoint, this.#settings.product);
    this.#dispatch({ type: 'cancel' });
  }

  retry(): void {
    this.#dispatch({ type: 'retry', requestId: newRequestId(), variant: this.chosenVariant });
    if (this.session.status === 'consent' || this.session.status === 'photo') {
      if (!this.product) this.#loadProduct().catch((error: unknown) => this.#fail('product', error));
      return;
    }
    void this.continue();
  }

  anotherPhoto(): void {
    this.#stop();
    forgetTryon(this.#settings.endpoint, this.#settings.product);
    this.#dispatch({ type: 'another-photo' });
  }

  /** Whether the result on screen is of another variant than the one chosen on the page now. */
  offersChosenVariant(): boolean {
    const { status, complete, variant, previewOff } = this.session;
    // A colour made in full from "See all colours" was the shopper's choice over the page's: the
    // page's colour is offered again only once the page picks another.
    if (previewOff && this.chosenVariant === this.#pageVariantAtUpgrade) return false;
    return status === 'result' && complete && variant !== this.chosenVariant;
  }

  /**
   * "Try this colour": a new try-on of the chosen variant with the same photo. The photo's handle
   * is reused while it is valid (a minute's margin, as storage.ts keeps); past that, the photo
   * chosen on this page is uploaded again, and without one the shopper picks a photo.
   */
  tryChosenVariant(): void {
    if (!this.offersChosenVariant()) return;
    const { photo, model } = this.session;
    const valid = model !== undefined || (photo !== undefined && Date.parse(photo.expiresAt) - 60_000 > Date.now());
    const upload = !valid;
    if (upload && !this.#options.chosenPhoto()) {
      this.anotherPhoto();
      return;
    }
    this.#stop();
    this.#dispatch({ type: 'variant', requestId: newRequestId(), variant: this.chosenVariant, upload });
    void (upload ? this.#start('upload', (run) => this.#send(run)) : this.#start('submit', (run) => this.#submit(run)));
  }

  /**
   * The first look is on screen (its image painted): `tryon-preview` says how long it took from the
   * submit, once per try-on. A colour's draft shown while its full render is made is not a first look
   * of that try-on, so it says nothing.
   */
  previewShown(): void {
    const { tryon, preview, previewOff, submittedAt } = this.session;
    if (!tryon || !preview || previewOff || this.#previewTold === tryon) return;
    this.#previewTold = tryon;
    const ms = submittedAt ? Math.max(0, Date.now() - submittedAt) : 0;
    this.#options.emit('tryon-preview', { ...this.#subject(), tryon, ms });
  }

  /**
   * "Make this one in full quality": a normal try-on of `variant` at the product's tier with the
   * same photo and no first look of its own; `draft`, its colour preview, shows while it is made.
   */
  upgradeColour(variant: string, draft: TryonOutput): void {
    const { status, complete, photo, model } = this.session;
    if (status !== 'result' || !complete || (!photo && !model)) return;
    this.#stop();
    this.#pageVariantAtUpgrade = this.chosenVariant;
    this.#dispatch({ type: 'variant', requestId: newRequestId(), variant, upload: false, draft });
    void this.#start('submit', (run) => this.#submit(run));
  }

  /**
   * One draft, front-view preview of another colour with the photo of the result on screen ("See all
   * colours"): submitted with `quality: "preview"`, watched to its end, its final answer returned.
   * It is not the session's try-on: the result stays on screen, and `signal` stops it.
   */
  async colourPreview(
    variant: string,
    signal: AbortSignal,
    onStatus?: (answer: ProxyStatus) => void,
  ): Promise<ProxyStatus> {
    const { photo, model } = this.session;
    if (!photo && !model) throw new ProxyCallError('photo_expired', { retryable: false });
    const client = this.#proxy();
    const created = await client.createTryon(
      {
        product: this.product?.product || this.#settings.product,
        variant,
        requestId: newRequestId(),
        views: ['front'],
        quality: 'preview',
        ...(model !== undefined ? { model } : { photo: photo!.handle, ...this.#consentFields() }),
      },
      signal,
    );
    return client.watch(created.tryon, (answer) => onStatus?.(answer), signal);
  }

  makeVideo(): void {
    this.#dispatch({ type: 'video', requestId: newRequestId() });
    void this.#start('submit', (run) => this.#submit(run));
  }

  /** Expected time of the current try-on, from the product's tier. */
  expectedMs(): number {
    return expectedMs(this.product, this.session.output);
  }

  // ── runs ─────────────────────────────────────────────────────────────────────────────────

  #stop(): void {
    this.#current?.abort();
    this.#current = undefined;
  }

  /** Starts a run, aborting the one before; a failure is reported once, an aborted run says nothing. */
  async #start(stage: FailedStage, work: (run: Run) => Promise<void>): Promise<void> {
    this.#stop();
    const controller = new AbortController();
    this.#current = controller;
    const run: Run = { signal: controller.signal, stage };
    try {
      await work(run);
    } catch (error) {
      if (!run.signal.aborted) this.#fail(run.stage, error);
    } finally {
      if (this.#current === controller) this.#current = undefined;
    }
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

  async #send(run: Run): Promise<void> {
    if (!this.session.photo) {
      const blob = this.#options.chosenPhoto();
      if (!blob) {
        this.#dispatch({ type: 'cancel' });
        return;
      }
      const uploaded = await this.#settled(
        run,
        'upload',
        this.#proxy().uploadPhoto(
          blob,
          this.#whileCurrent(run, (percent: number) => {
            this.#dispatch({ type: 'upload-progress', percent });
            this.#options.emit('tryon-progress', {
              ...this.#subject(),
              status: 'uploading',
              percent: this.session.percent,
            });
          }),
          run.signal,
        ),
      );
      this.#dispatch({ type: 'uploaded', photo: { handle: uploaded.photo, expiresAt: uploaded.expiresAt } });
      rememberPhoto(this.#settings.endpoint, { photo: uploaded.photo, expiresAt: uploaded.expiresAt });
    }
    await this.#submit(run);
  }

  async #submit(run: Run): Promise<void> {
    const { photo, model, requestId, output } = this.session;
    if ((!photo && !model) || !requestId) return;
    const product = this.product ?? (await this.#settled(run, 'submit', this.#loadProduct()));
    // Chosen before the product was known (a quick shopper): checked against its list now.
    const variant = variantToTry(product, this.session.variant);
    const { endpoint, product: id } = this.#settings;
    const views = output === 'video' ? ['front'] : requestedViews(this.product, this.#settings.views);
    this.#options.emit('tryon-submit', {
      product: this.#settings.product,
      ...(variant ? { variant } : {}),
      requestId,
      views,
      output,
    });
    const created = await this.#settled(
      run,
      'submit',
      this.#proxy().createTryon(
        {
          product: product.product || id,
          ...(variant ? { variant } : {}),
          // The shop's model needs no consent; the shopper's photo carries the consent they gave.
          ...(model !== undefined ? { model } : { photo: photo!.handle, ...this.#consentFields() }),
          requestId,
          ...(output === 'video' ? { output } : { views }),
          ...(this.session.previewOff ? { preview: 'off' as const } : {}),
        },
        run.signal,
      ),
    );
    const at = Date.now();
    const createdViews = Array.isArray(created.views) && created.views.length ? created.views : views;
    this.#dispatch({ type: 'submitted', tryon: created.tryon, views: createdViews, at, variant });
    rememberTryon(endpoint, id, {
      tryon: created.tryon,
      requestId,
      ...(variant ? { variant } : {}),
      views: createdViews,
      output,
      submittedAt: at,
      ...(photo ? { photo: { photo: photo.handle, expiresAt: photo.expiresAt } } : {}),
    });
    this.#options.emit('tryon-progress', {
      ...this.#subject(),
      status: 'queued',
      tryon: created.tryon,
      elapsedMs: 0,
      expectedMs: this.expectedMs(),
    });
    await this.#watch(run);
  }

  async #watch(run: Run): Promise<void> {
    const tryon = this.session.tryon;
    if (!tryon) return;
    const final = await this.#settled(
      run,
      'watch',
      this.#proxy().watch(
        tryon,
        this.#whileCurrent(run, (answer) => {
          this.#dispatch({ type: 'status', answer });
          const at = this.session.submittedAt;
          this.#options.emit('tryon-progress', {
            ...this.#subject(),
            status: this.session.status,
            tryon,
            elapsedMs: at ? Math.max(0, Date.now() - at) : 0,
            expectedMs: this.expectedMs(),
          });
        }),
        run.signal,
        this.#whileCurrent(run, () => this.#dispatch({ type: 'not-answering' })),
      ),
    );
    if (final.status === 'succeeded' && !hasOutput(this.session)) {
      // Success without anything to show: ask once more (outputs may trail the status), and
      // if there is still nothing, offer "Try again" rather than an empty result.
      this.#dispatch({
        type: 'status',
        answer: await this.#settled(run, 'watch', this.#proxy().status(tryon, run.signal)),
      });
      if (!hasOutput(this.session)) throw new ProxyCallError('no_outputs', { retryable: true });
    }
    const { endpoint, product } = this.#settings;
    if (final.status === 'succeeded') {
      forgetTryon(endpoint, product);
      this.#options.emit('tryon-result', {
        ...this.#subject(),
        tryon,
        requestId: this.session.requestId ?? '',
        outputs: this.session.outputs,
      });
    } else if (final.status === 'failed') {
      forgetTryon(endpoint, product);
      const code = final.error?.code ?? 'render_failed';
      const error = { code, message: this.#options.errorMessage(code), retryable: final.error?.retryable ?? true };
      // The session already moved to `error`; give it the words the shopper reads.
      this.#dispatch({ type: 'failed', stage: 'render', error });
      this.#options.emit('tryon-error', { ...this.#subject(), ...error });
    }
  }

  /**
   * An image the dialog shows did not load (its URL answers an error, or not an image). The watch
   * stops and the shopper reads `image_failed`; "Try again" shows the result again (and watches on
   * if it was not complete), loading the images afresh. The try-on is kept for a reload.
   */
  imageFailed(): void {
    const { status } = this.session;
    if (status !== 'queued' && status !== 'rendering' && status !== 'result') return;
    this.#stop();
    this.#fail('watch', new ProxyCallError('image_failed', { retryable: true }));
  }

  /** Shows a failure to the shopper, and forgets in storage what the error policy says is gone. */
  #fail(stage: FailedStage, error: unknown): void {
    if (isAbort(error)) return;
    if (!(error instanceof ProxyCallError) && !(error instanceof TypeError)) console.error(error);
    const { code, retryable, stage: failed, forgetTryon: tryonGone, forgetPhoto: photoGone } = failure(stage, error);
    const { endpoint, product } = this.#settings;
    if (tryonGone) forgetTryon(endpoint, product);
    if (photoGone) forgetPhoto(endpoint);
    // A try-on the proxy cannot open any more (its secret changed) is said plainly to be lost.
    const message = this.#options.errorMessage(code === 'invalid_handle' && stage === 'watch' ? 'tryon_lost' : code);
    const subject = this.#subject();
    this.#dispatch({ type: 'failed', stage: failed, error: { code, message, retryable } });
    this.#options.emit('tryon-error', { ...subject, code, message, retryable });
  }

  /** Which consent text the shopper agreed to, sent with every try-on. */
  #consentFields(): { consentVersion?: string; consentLanguage?: string } {
    const consent = this.#consent;
    return consent
      ? { ...(consent.version ? { consentVersion: consent.version } : {}), consentLanguage: consent.language }
      : {};
  }

  // ── the product and the proxy ────────────────────────────────────────────────────────────

  #proxy(): ProxyClient {
    const { endpoint, pollInterval } = this.#settings;
    const base = new URL(endpoint, location.href).href;
    if (!this.#client || this.#client.base.href.replace(/\/$/, '') !== base.replace(/\/$/, '')) {
      this.#client = new ProxyClient(endpoint, { pollInterval });
    }
    return this.#client;
  }

  #loadProduct(): Promise<ProductInfo> {
    if (this.#productLoad) return this.#productLoad;
    const load: Promise<ProductInfo> = this.#proxy()
      .product(this.#settings.product)
      .then((product) => {
        // The answer for a product the element no longer shows is stale: dropped.
        if (this.#productLoad !== load) return product;
        const reason = unavailableReasonOf(product);
        this.#options.availability?.(reason);
        // Not today: said in the words of the code a try-on would be refused with, never uploaded.
        if (reason)
          throw new ProxyCallError(reason === 'disabled' ? 'unknown_product' : 'daily_budget_reached', {
            retryable: false,
            status: 200,
          });
        this.#product = product;
        this.#host.requestUpdate();
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
  #resetIfProductChanged(): void {
    const { endpoint, product, views } = this.#settings;
    const now = `${new URL(endpoint, location.href).href}|${product}|${views}`;
    this.#loadedFor ??= now;
    if (this.#loadedFor === now) return;
    this.#loadedFor = now;
    this.#stop();
    this.#product = undefined;
    this.#productLoad = undefined;
    this.#dispatch({ type: 'product-changed' });
  }
}
