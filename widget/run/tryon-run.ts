// The try-on's flow as a Lit reactive controller, in the manner of Lit's Task: what the shopper does
// that starts, steers or stops a run (open, consent, send a photo, a model, a colour, retry, cancel,
// forget), and the run itself (send → submit → watch). One run at a time, each with its own
// AbortSignal, its stale answers dropped (current-run.ts). Every change goes through the pure reducer
// (session.ts) and out through ONE channel: the changes it publishes to its subscribers
// (`subscribe`), each with the public events it reports and what storage keeps, both worked out in
// reports.ts. `complete` awaits the run under way, as Task's `taskComplete`. What each request is
// sent as is tryon-request.ts's. It renders nothing.
import type { ReactiveController } from 'lit';
import { beingMade, hasOutput, initialSession, nextSession, showsTryon } from './session.js';
import type { FailedStage, SessionEvent, SessionState } from './session.js';
import { ProxyClient, ProxyCallError, serviceDown } from '../api/proxy-client.js';
import type { ProductInfo, ProxyStatus, UploadedPhoto } from '../api/proxy-client.js';
import { failure, isAbort, unavailableNow } from './error-policy.js';
import { unavailableReasonOf } from '../core/availability.js';
import { lastPhoto } from '../core/storage.js';
import type { StoredTryon } from '../core/storage.js';
import { tryonSubject } from '../core/events.js';
import type { TryonOutput, TryonSubject } from '../core/events.js';
import { forgetEverything } from '../photo/forget-photo.js';
import { consentVersion } from './consent-version.js';
import { expectedMs, requestedViews, variantToTry } from './product.js';
import { keepForReload, reportsOf } from './reports.js';
import type { RunChange, RunNotice } from './reports.js';
import { CurrentRun } from './current-run.js';
import { newRequestId } from './settings.js';
import type { Run, RunContext } from './settings.js';
import { colourDraftRequest, consentFields, tryonRequest } from './tryon-request.js';
import type { GivenConsent } from './tryon-request.js';

export type { RunChange, Report } from './reports.js';
export type { RunContext } from './settings.js';

const isNotice = (event: SessionEvent | RunNotice): event is RunNotice =>
  event.type === 'submitting' || event.type === 'availability';

export class TryonRun implements ReactiveController {
  #session: SessionState = initialSession();
  #product: ProductInfo | undefined;
  /** The run under way, one at a time: its signal, and its failure shown to the shopper. */
  readonly #runs = new CurrentRun((stage, error) => this.#fail(stage, error));
  #productLoad: Promise<ProductInfo> | undefined;
  #client: ProxyClient | undefined;
  #loadedFor: string | undefined;
  readonly #listeners = new Set<(change: RunChange) => void>();
  /** The consent text the shopper agreed to, sent with every try-on. */
  #consent: GivenConsent | undefined;
  /** The page's choice of variant as resolved against the product (see `chosenVariant`). */
  #chosen: { choice: string; product: ProductInfo | undefined; variant: string | undefined } | undefined;
  /** The page's chosen variant when "Make this one in full quality" was pressed. */
  #pageVariantAtUpgrade: string | undefined;
  /** Photos forgotten in this tab whose revocation the proxy has not confirmed yet. */
  readonly #unconfirmed = new Set<string>();
  /** The one question "is the service down?" asked for images that failed to load together. */
  #imageCheck: Promise<void> | undefined;
  /** How many statuses the watch has reported: a verdict of "down" older than the last one is stale. */
  #statusesHeard = 0;
  readonly #context: RunContext;

  constructor(context: RunContext) {
    this.#context = context;
    context.panel.addController(this);
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
    const running = this.#runs.running;
    if (!running) return Promise.resolve(this.session);
    return running.then(() => (this.#runs.running && this.#runs.running !== running ? this.complete : this.session));
  }

  /** The one channel back: `listener` hears every change, in order, until the returned function is called. */
  subscribe(listener: (change: RunChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  hostDisconnected(): void {
    // The page is going away (or the element moved): stop watching; storage keeps the try-on.
    this.#runs.stop();
  }

  /** The element's settings now, as the run uses them. */
  get #settings() {
    const { endpoint, product, views, variant, pollInterval } = this.#context.host;
    return { endpoint: endpoint || '/tryon', product, views, variant: variant ?? '', pollInterval };
  }

  /**
   * The variant chosen on the page now, as it will be tried on (product.ts): undefined for the
   * product's own garment. Resolved once for each choice and product, the two things its answer
   * depends on; a try-on keeps the one it started with (the session's `variant`).
   */
  get chosenVariant(): string | undefined {
    const choice = this.#settings.variant;
    const chosen = this.#chosen;
    if (chosen?.choice === choice && chosen.product === this.product) return chosen.variant;
    const variant = variantToTry(this.product, choice || undefined);
    this.#chosen = { choice, product: this.product, variant };
    return variant;
  }

  /** What the dialog's own events name (opening, the photo check): the product and the page's chosen variant. */
  get subject(): TryonSubject {
    return tryonSubject(this.#settings.product, this.chosenVariant);
  }

  /** The time the current try-on usually takes, as the proxy measured it (its views, or the video). */
  expectedMs(): number {
    const { output, views } = this.session;
    const count = views.length || requestedViews(this.product, this.#settings.views).length;
    return expectedMs(this.product, output, count);
  }

  /** The only way the session changes, and the only way anything is said: one change, published. */
  #dispatch(event: SessionEvent | RunNotice): void {
    if (event.type === 'status') this.#statusesHeard += 1;
    const before = this.session;
    const after = isNotice(event) ? before : nextSession(before, event);
    const { endpoint, product } = this.#settings;
    const facts = { endpoint, product, chosenVariant: this.chosenVariant, expectedMs: this.expectedMs() };
    const reports = reportsOf(before, after, event, facts);
    if (after === before && !reports.length && event.type !== 'availability') return;
    this.#session = after;
    const change: RunChange = { before, after, event, reports };
    keepForReload(change, facts);
    for (const listener of this.#listeners) listener(change);
    this.#context.panel.requestUpdate();
  }

  // ── the run: send → submit → watch ───────────────────────────────────────────────────────

  /** Uploads `photo` unless the session already holds one; without either the try-on stops. */
  async #send(run: Run, photo: Blob | undefined): Promise<void> {
    if (!this.session.photo) {
      if (!photo) {
        this.#dispatch({ type: 'cancel' });
        return;
      }
      const progress = this.#runs.whileCurrent(run, (percent: number) =>
        this.#dispatch({ type: 'upload-progress', percent }),
      );
      const uploaded = await this.#runs.settled(run, 'upload', this.#proxy().uploadPhoto(photo, progress, run.signal));
      this.#dispatch({ type: 'uploaded', photo: { handle: uploaded.photo, expiresAt: uploaded.expiresAt } });
    }
    await this.#submit(run);
  }

  async #submit(run: Run): Promise<void> {
    const { photo, model, requestId, output } = this.session;
    if ((!photo && !model) || !requestId) return;
    const product = this.product ?? (await this.#runs.settled(run, 'submit', this.#loadProduct()));
    // A try-on started before the product was known (a quick shopper) has its variant checked
    // against the product's list now; one started after it was known comes through unchanged.
    const variant = variantToTry(product, this.session.variant);
    const views = output === 'video' ? ['front'] : requestedViews(this.product, this.#settings.views);
    this.#dispatch({ type: 'submitting', views, variant });
    const request = tryonRequest(
      this.session,
      product.product || this.#settings.product,
      variant,
      views,
      this.#consent,
    );
    const created = await this.#runs.settled(run, 'submit', this.#proxy().createTryon(request, run.signal));
    const createdViews = Array.isArray(created.views) && created.views.length ? created.views : views;
    this.#dispatch({ type: 'submitted', tryon: created.tryon, views: createdViews, at: Date.now(), variant });
    await this.#watch(run);
  }

  async #watch(run: Run): Promise<void> {
    const tryon = this.session.tryon;
    if (!tryon) return;
    const client = this.#proxy();
    const final = await this.#runs.settled(
      run,
      'watch',
      client.watch(
        tryon,
        this.#runs.whileCurrent(run, (answer) => this.#dispatch({ type: 'status', answer })),
        run.signal,
        this.#runs.whileCurrent(run, () => this.#dispatch({ type: 'not-answering' })),
      ),
    );
    if (final.status === 'succeeded' && !hasOutput(this.session)) {
      // Success without anything to show: ask once more (outputs may trail the status), and
      // if there is still nothing, offer "Try again" rather than an empty result.
      const answer = await this.#runs.settled(run, 'watch', client.status(tryon, run.signal));
      this.#dispatch({ type: 'status', answer, recheck: true });
      if (!hasOutput(this.session)) throw new ProxyCallError('no_outputs', { retryable: true });
    }
    if (final.status === 'failed') {
      const code = final.error?.code ?? 'render_failed';
      const error = {
        code,
        // A try-on the service stopped answering for is said as that, not as "busy right now"
        // (the words of the same code refusing a request); `tryon-error` keeps the code.
        message: this.#context.texts.errorMessage(code === 'upstream_unavailable' ? 'tryon_unfinished' : code),
        retryable: final.error?.retryable ?? true,
      };
      // The session already moved to `error`; give it the words the shopper reads.
      this.#dispatch({ type: 'failed', stage: 'render', error, forget: { tryon: true } });
    }
  }

  /** Shows a failure to the shopper; storage forgets what the error policy says is gone. */
  #fail(stage: FailedStage, error: unknown): void {
    if (isAbort(error)) return;
    if (!(error instanceof ProxyCallError) && !(error instanceof TypeError)) console.error(error);
    const { code, retryable, stage: failed, forgetTryon: tryon, forgetPhoto: photo } = failure(stage, error);
    // A try-on the proxy cannot open any more (its secret changed) is said plainly to be lost.
    const message = this.#context.texts.errorMessage(
      code === 'invalid_handle' && stage === 'watch' ? 'tryon_lost' : code,
    );
    this.#dispatch({ type: 'failed', stage: failed, error: { code, message, retryable }, forget: { tryon, photo } });
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

  /** The proxy client, for the panel's hand-off (which is not a run). */
  client(): ProxyClient {
    return this.#proxy();
  }

  /**
   * Whether the product wants a full-length photo, once the proxy has said: a photo chosen before
   * the product's answer came is checked against the product, not against a guess. False when the
   * product cannot be loaded: that failure is the try-on's to show, on submit.
   */
  async needsFullBody(): Promise<boolean> {
    const product = this.product ?? (await this.#loadProduct().catch(() => undefined));
    return product?.fullBody === true;
  }

  /** The product as the proxy describes it: loaded once, or asked `again` (the day's budget may have run out since). */
  #loadProduct(again?: boolean): Promise<ProductInfo> {
    if (this.#productLoad && !again) return this.#productLoad;
    const load: Promise<ProductInfo> = this.#proxy()
      .product(this.#settings.product)
      .then((product) => {
        // The answer for a product the element no longer shows is stale: dropped.
        if (this.#productLoad !== load) return product;
        const reason = unavailableReasonOf(product);
        this.#dispatch({ type: 'availability', reason });
        // Not today: said in the words of the code a try-on would be refused with, never uploaded.
        if (reason)
          throw new ProxyCallError(reason === 'disabled' ? 'unknown_product' : 'daily_budget_reached', {
            retryable: false,
            status: 200,
          });
        this.#product = product;
        this.#context.panel.requestUpdate();
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
    this.#runs.stop();
    this.#product = undefined;
    this.#productLoad = undefined;
    this.#dispatch({ type: 'product-changed' });
  }

  // ── what the shopper does ────────────────────────────────────────────────────────────────

  /** Enters the flow on opening; with `resume`, picks up a try-on stored before a reload. */
  enter(resume?: StoredTryon): void {
    this.#resetIfProductChanged();
    if (resume && !this.session.tryon) {
      const { tryon, requestId, variant, views, output, submittedAt, photo } = resume;
      const kept = photo ? { handle: photo.photo, expiresAt: photo.expiresAt } : undefined;
      this.#dispatch({ type: 'resume', tryon, requestId, variant, views, output, at: submittedAt, photo: kept });
    } else {
      this.#dispatch({ type: 'open' });
    }
    // Asked again on every opening before a photo is sent: the day's budget may have run out since.
    const again = this.session.status === 'consent' || this.session.status === 'photo';
    this.#loadProduct(again).catch((error: unknown) => {
      if (!this.product || unavailableNow(error)) this.#fail('product', error);
    });
  }

  /**
   * Carries on from the current step: after an open, a resume or a retry. `photo`: the photo chosen
   * on this page, uploaded when the step is its upload.
   */
  continue(photo?: Blob): Promise<void> {
    const { status, tryon, complete } = this.session;
    const watched = beingMade(status, complete);
    // Reopened while the try-on is still watched in the background: that watch goes on.
    if (this.#runs.underWay && watched) return Promise.resolve();
    if (status === 'uploading') return this.#runs.start('upload', (run) => this.#send(run, photo));
    if (tryon && watched) return this.#runs.start('watch', (run) => this.#watch(run));
    if (status === 'queued' && (this.session.photo || this.session.model))
      return this.#runs.start('submit', (run) => this.#submit(run));
    return Promise.resolve();
  }

  /**
   * The dialog closed. A try-on already sent (queued, rendering, or a catalog's first views in) is
   * charged and will finish: it is watched on in the background while the page is open, and its
   * result or error waits for the dialog to reopen (session.ts). Anything earlier stops.
   */
  close(): void {
    if (!beingMade(this.session.status, this.session.complete)) this.#runs.stop();
    this.#dispatch({ type: 'close' });
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
    this.#runs.stop();
    const handles = new Set([...forgetEverything(this.#settings.endpoint), ...this.#unconfirmed]);
    if (this.session.photo) handles.add(this.session.photo.handle);
    this.#dispatch({ type: 'forgotten' });
    const client = this.#proxy();
    const named = [...handles];
    const outcomes = await Promise.allSettled(named.map((handle) => client.forgetPhoto(handle)));
    this.#unconfirmed.clear();
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'rejected') this.#unconfirmed.add(named[i]!);
    });
    this.#context.panel.requestUpdate();
    return this.#unconfirmed.size === 0;
  }

  /** A new photo is being prepared: a new logical try-on. */
  photoChosen(): void {
    this.#dispatch({ type: 'photo-chosen' });
  }

  /** Uploads `photo` (the one the shopper chose, prepared), then submits and watches. */
  sendPhoto(photo: Blob): Promise<void> {
    this.#dispatch({ type: 'upload-start', requestId: newRequestId(), variant: this.chosenVariant });
    return this.#runs.start('upload', (run) => this.#send(run, photo));
  }

  /** Submits with the photo this tab uploaded last; false when there is none (it expired). */
  useLastPhoto(): boolean {
    const stored = lastPhoto(this.#settings.endpoint);
    if (!stored) {
      this.#context.panel.requestUpdate();
      return false;
    }
    this.#dispatch({ type: 'photo-chosen' });
    const photo = { handle: stored.photo, expiresAt: stored.expiresAt };
    this.#dispatch({ type: 'use-last-photo', photo, requestId: newRequestId(), variant: this.chosenVariant });
    void this.#runs.start('submit', (run) => this.#submit(run));
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
    this.#runs.stop();
    this.#dispatch({ type: 'use-model', model, requestId: newRequestId(), variant: this.chosenVariant });
    void this.#runs.start('submit', (run) => this.#submit(run));
  }

  /**
   * The shopper's phone gave a photo by a hand-off: tried on at once, with the consent given on
   * the phone (the proxy records that one). `expiresAt`: until when the desktop counts on the
   * photo's handle (the hand-off answer does not say; see handoffPhotoExpiry).
   */
  useHandoffPhoto(handle: string, expiresAt: string): void {
    this.#runs.stop();
    const photo = { handle, expiresAt };
    this.#dispatch({ type: 'use-handoff-photo', photo, requestId: newRequestId(), variant: this.chosenVariant });
    void this.#runs.start('submit', (run) => this.#submit(run));
  }

  /**
   * The phone's side of a hand-off: uploads `photo` with the code and the consent given here;
   * nothing is tried on here. The answer holds the number the shopper types on the computer.
   */
  sendToComputer(code: string, photo: Blob, onProgress?: (percent: number) => void): Promise<UploadedPhoto> {
    const fields = { handoff: code, consent: 'true', ...consentFields(this.#consent) };
    return this.#proxy().uploadPhoto(photo, onProgress, undefined, fields);
  }

  cancel(): void {
    this.#runs.stop();
    this.#dispatch({ type: 'cancel' });
  }

  /** "Try again"; `photo`, the photo chosen on this page, is uploaded again when the upload was what failed. */
  retry(photo?: Blob): void {
    this.#dispatch({ type: 'retry', requestId: newRequestId(), variant: this.chosenVariant });
    if (this.session.status === 'consent' || this.session.status === 'photo') {
      if (!this.product) this.#loadProduct().catch((error: unknown) => this.#fail('product', error));
      return;
    }
    void this.continue(photo);
  }

  anotherPhoto(): void {
    this.#runs.stop();
    this.#dispatch({ type: 'another-photo' });
  }

  /** Whether the result on screen is of another variant than the one chosen on the page now. */
  offersChosenVariant(): boolean {
    const { status, complete, variant, firstLookOff } = this.session;
    // A colour made in full from "See all colours" was the shopper's choice over the page's: the
    // page's colour is offered again only once the page picks another.
    if (firstLookOff && this.chosenVariant === this.#pageVariantAtUpgrade) return false;
    return status === 'result' && complete && variant !== this.chosenVariant;
  }

  /**
   * "Try this colour": a new try-on of the chosen variant with the same photo. The photo's handle
   * is reused while it is valid (a minute's margin, as storage.ts keeps); past that, `photo`, the
   * one chosen on this page, is uploaded again, and without one the shopper picks a photo.
   */
  tryChosenVariant(photo: Blob | undefined): void {
    if (!this.offersChosenVariant()) return;
    const { photo: sent, model } = this.session;
    const valid = model !== undefined || (sent !== undefined && Date.parse(sent.expiresAt) - 60_000 > Date.now());
    const upload = !valid;
    if (upload && !photo) {
      this.anotherPhoto();
      return;
    }
    this.#runs.stop();
    this.#dispatch({ type: 'variant', requestId: newRequestId(), variant: this.chosenVariant, upload });
    void (upload
      ? this.#runs.start('upload', (run) => this.#send(run, photo))
      : this.#runs.start('submit', (run) => this.#submit(run)));
  }

  /**
   * "Make this one in full quality": a normal try-on of `variant` at the product's tier with the
   * same photo and no first look of its own; `draft`, its colour draft, shows while it is made.
   */
  upgradeColour(variant: string, draft: TryonOutput): void {
    const { status, complete, photo, model } = this.session;
    if (status !== 'result' || !complete || (!photo && !model)) return;
    this.#runs.stop();
    this.#pageVariantAtUpgrade = this.chosenVariant;
    this.#dispatch({ type: 'variant', requestId: newRequestId(), variant, upload: false, draft });
    void this.#runs.start('submit', (run) => this.#submit(run));
  }

  /**
   * One colour draft: a front view of another colour with the photo of the result on screen ("See
   * all colours"), submitted with `quality: "preview"`, watched to its end, its final answer
   * returned. It is not the session's try-on: the result stays on screen, and `signal` stops it.
   */
  async colourDraft(variant: string, signal: AbortSignal): Promise<ProxyStatus> {
    const { photo, model } = this.session;
    if (!photo && !model) throw new ProxyCallError('photo_expired', { retryable: false });
    const client = this.#proxy();
    const product = this.product?.product || this.#settings.product;
    const request = colourDraftRequest(this.session, product, variant, newRequestId(), this.#consent);
    const created = await client.createTryon(request, signal);
    return client.watch(created.tryon, () => undefined, signal);
  }

  makeVideo(): void {
    this.#dispatch({ type: 'video', requestId: newRequestId() });
    void this.#runs.start('submit', (run) => this.#submit(run));
  }

  /**
   * An image the dialog shows did not load (its URL answers an error, or not an image). First the
   * proxy is asked once whether it answers at all: a shop's service that is down explains the
   * missing picture, so it is said as that outage ("not answering", watched until it answers, when
   * the pictures load again: ResultView's pictureRound), never as a broken try-on. Otherwise the
   * watch stops and the shopper reads `image_failed`; "Try again" shows the result again (and
   * watches on if it was not complete), loading the images afresh. The try-on is kept for a reload.
   * Several images failing at once are asked about once.
   */
  imageFailed(): Promise<void> {
    const { status, tryon } = this.session;
    if (!showsTryon(status)) return Promise.resolve();
    const heard = this.#statusesHeard;
    this.#imageCheck ??= this.#serviceDown(tryon)
      .then((down) => {
        // Another try-on since, or one no longer on screen (cancelled, failed): nothing to say.
        if (this.session.tryon !== tryon || !showsTryon(this.session.status)) return;
        // An answer heard while asking means the service is back: the picture's failure is its own.
        if (down && heard === this.#statusesHeard) {
          // A finished result is no longer watched: watching again hears when the service is back.
          if (!this.#runs.underWay) void this.#runs.start('watch', (run) => this.#watch(run));
          this.#dispatch({ type: 'not-answering' });
          return;
        }
        this.#runs.stop();
        this.#fail('watch', new ProxyCallError('image_failed', { retryable: true }));
      })
      .finally(() => {
        this.#imageCheck = undefined;
      });
    return this.#imageCheck;
  }

  /** Whether the shop's try-on service is down now (refused, a gateway's error page, no answer in time). */
  async #serviceDown(tryon: string | undefined): Promise<boolean> {
    if (!tryon) return false;
    try {
      await this.#proxy().status(tryon);
      return false;
    } catch (error) {
      return error instanceof ProxyCallError && serviceDown(error);
    }
  }
}
