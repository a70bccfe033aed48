// The try-on's flow as a Lit reactive controller: what the shopper does that starts, steers or
// stops a run (open, consent, send a photo, a model, a colour, retry, cancel, forget). The run
// itself (send → submit → watch), its single channel back to the panel (`subscribe`: every change,
// with the public events and storage writes it brings, from reports.ts) and its awaitable end
// (`complete`) are in flow.ts. It renders nothing.
import { RunFlow, newRequestId } from './flow.js';
import { showsTryon } from './session.js';
import { ProxyCallError, serviceDown } from '../api/proxy-client.js';
import type { ProxyClient, ProxyStatus, UploadedPhoto } from '../api/proxy-client.js';
import { unavailableNow } from './error-policy.js';
import { lastPhoto } from '../core/storage.js';
import { forgetEverything } from '../photo/forget-photo.js';
import { consentVersion } from './consent-version.js';
import type { StoredTryon } from '../core/storage.js';
import type { TryonOutput } from '../core/events.js';

export type { RunOptions, RunSettings } from './flow.js';
export type { RunChange, Report } from './reports.js';

export class TryonRun extends RunFlow {
  /** The page's chosen variant when "Make this one in full quality" was pressed. */
  #pageVariantAtUpgrade: string | undefined;
  /** The try-on whose first look was reported with `tryon-preview` (once each). */
  #previewTold: string | undefined;
  /** Photos forgotten in this tab whose revocation the proxy has not confirmed yet. */
  readonly #unconfirmed = new Set<string>();
  /** The one question "is the service down?" asked for images that failed to load together. */
  #imageCheck: Promise<void> | undefined;
  /** How many statuses the watch has reported: a verdict of "down" older than the last one is stale. */
  #statusesHeard = 0;

  protected override dispatch(event: Parameters<RunFlow['dispatch']>[0]): void {
    if (event.type === 'status') this.#statusesHeard += 1;
    super.dispatch(event);
  }

  /** Enters the flow on opening; with `resume`, picks up a try-on stored before a reload. */
  enter(resume?: StoredTryon): void {
    this.resetIfProductChanged();
    if (resume && !this.session.tryon) {
      const { tryon, requestId, variant, views, output, submittedAt, photo } = resume;
      const kept = photo ? { handle: photo.photo, expiresAt: photo.expiresAt } : undefined;
      this.dispatch({ type: 'resume', tryon, requestId, variant, views, output, at: submittedAt, photo: kept });
    } else {
      this.dispatch({ type: 'open' });
    }
    // Asked again on every opening before a photo is sent: the day's budget may have run out since.
    const again = this.session.status === 'consent' || this.session.status === 'photo';
    this.loadProduct(again).catch((error: unknown) => {
      if (!this.product || unavailableNow(error)) this.fail('product', error);
    });
  }

  /** Carries on from the current step: after an open, a resume or a retry. */
  continue(): Promise<void> {
    const { status, tryon, photo, complete } = this.session;
    const watched = status === 'queued' || status === 'rendering' || (status === 'result' && !complete);
    // Reopened while the try-on is still watched in the background: that watch goes on.
    if (this.running && watched) return Promise.resolve();
    if (status === 'uploading') return this.start('upload', (run) => this.send(run));
    if (tryon && watched) return this.start('watch', (run) => this.watch(run));
    if (status === 'queued' && (photo || this.session.model)) return this.start('submit', (run) => this.submit(run));
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
    if (!sent) this.stop();
    this.dispatch({ type: 'close' });
  }

  /** The shopper agreed to `words` (the consent step's exact text) in `language`. */
  async consent(words: string, language: string): Promise<void> {
    this.consentGiven = { version: await consentVersion(words), language };
    this.dispatch({ type: 'consent' });
  }

  /** Whether "Forget my photo" has anything to forget: a photo in this session or this tab. */
  hasPhotoToForget(): boolean {
    return Boolean(this.session.photo || lastPhoto(this.settings.endpoint) || this.#unconfirmed.size);
  }

  /**
   * "Forget my photo": stops any run, clears what this tab kept (the last photo, every stored
   * try-on of this proxy), returns to the photo step, and asks the proxy to revoke each photo
   * named (its try-ons and files with it). Resolves false when the proxy could not be reached;
   * the photos are then kept in memory only, so asking again retries.
   */
  async forget(): Promise<boolean> {
    this.stop();
    const handles = new Set([...forgetEverything(this.settings.endpoint), ...this.#unconfirmed]);
    if (this.session.photo) handles.add(this.session.photo.handle);
    this.dispatch({ type: 'forgotten' });
    const client = this.proxy();
    const named = [...handles];
    const outcomes = await Promise.allSettled(named.map((handle) => client.forgetPhoto(handle)));
    this.#unconfirmed.clear();
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'rejected') this.#unconfirmed.add(named[i]!);
    });
    this.host.requestUpdate();
    return this.#unconfirmed.size === 0;
  }

  /** A new photo is being prepared: a new logical try-on. */
  photoChosen(): void {
    this.dispatch({ type: 'photo-chosen' });
  }

  /** Uploads the chosen photo, then submits and watches. */
  sendPhoto(): Promise<void> {
    this.dispatch({ type: 'upload-start', requestId: newRequestId(), variant: this.chosenVariant });
    return this.start('upload', (run) => this.send(run));
  }

  /** Submits with the photo this tab uploaded last; false when there is none (it expired). */
  useLastPhoto(): boolean {
    const stored = lastPhoto(this.settings.endpoint);
    if (!stored) {
      this.host.requestUpdate();
      return false;
    }
    this.dispatch({ type: 'photo-chosen' });
    const photo = { handle: stored.photo, expiresAt: stored.expiresAt };
    this.dispatch({ type: 'use-last-photo', photo, requestId: newRequestId(), variant: this.chosenVariant });
    void this.start('submit', (run) => this.submit(run));
    return true;
  }

  /** "No photo? See it on a model": the grid of the product's models (no consent needed). */
  browseModels(): void {
    this.dispatch({ type: 'browse-models' });
  }

  /** Back from the grid of models. */
  closeModels(): void {
    this.dispatch({ type: 'models-closed' });
  }

  /** Tries the product on the shop's model `model`: straight to the try-on, no photo, no consent. */
  useModel(model: string): void {
    this.stop();
    this.dispatch({ type: 'use-model', model, requestId: newRequestId(), variant: this.chosenVariant });
    void this.start('submit', (run) => this.submit(run));
  }

  /**
   * The shopper's phone gave a photo by a hand-off: tried on at once, with the consent given on
   * the phone (the proxy records that one). `expiresAt`: until when the desktop counts on the
   * photo's handle (the hand-off answer does not say; see handoffPhotoExpiry).
   */
  useHandoffPhoto(handle: string, expiresAt: string): void {
    this.stop();
    const photo = { handle, expiresAt };
    this.dispatch({ type: 'use-handoff-photo', photo, requestId: newRequestId(), variant: this.chosenVariant });
    void this.start('submit', (run) => this.submit(run));
  }

  /**
   * The phone's side of a hand-off: uploads `photo` with the code and the consent given here;
   * nothing is tried on here. The answer holds the number the shopper types on the computer.
   */
  sendToComputer(code: string, photo: Blob, onProgress?: (percent: number) => void): Promise<UploadedPhoto> {
    const fields = { handoff: code, consent: 'true', ...this.consentFields() };
    return this.proxy().uploadPhoto(photo, onProgress, undefined, fields);
  }

  /** The proxy client, for the panel's hand-off (which is not a run). */
  client(): ProxyClient {
    return this.proxy();
  }

  cancel(): void {
    this.stop();
    this.dispatch({ type: 'cancel' });
  }

  retry(): void {
    this.dispatch({ type: 'retry', requestId: newRequestId(), variant: this.chosenVariant });
    if (this.session.status === 'consent' || this.session.status === 'photo') {
      if (!this.product) this.loadProduct().catch((error: unknown) => this.fail('product', error));
      return;
    }
    void this.continue();
  }

  anotherPhoto(): void {
    this.stop();
    this.dispatch({ type: 'another-photo' });
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
    if (upload && !this.options.chosenPhoto()) {
      this.anotherPhoto();
      return;
    }
    this.stop();
    this.dispatch({ type: 'variant', requestId: newRequestId(), variant: this.chosenVariant, upload });
    void (upload ? this.start('upload', (run) => this.send(run)) : this.start('submit', (run) => this.submit(run)));
  }

  /**
   * The first look is on screen (its image painted): `tryon-preview` says how long it took from the
   * submit, once per try-on. A colour's draft shown while its full render is made is not a first look
   * of that try-on, so it says nothing; nor does one painted after the full render came in (the
   * image may finish loading after the result replaced it).
   */
  previewShown(): void {
    const { tryon, preview, previewOff, submittedAt, status, resume } = this.session;
    if (!tryon || !preview || previewOff || this.#previewTold === tryon) return;
    // Where the try-on is, also when the dialog closed while the image was loading.
    const at = status === 'idle' ? resume : status;
    if (at !== 'queued' && at !== 'rendering') return;
    this.#previewTold = tryon;
    this.dispatch({ type: 'preview-painted', ms: submittedAt ? Math.max(0, Date.now() - submittedAt) : 0 });
  }

  /**
   * "Make this one in full quality": a normal try-on of `variant` at the product's tier with the
   * same photo and no first look of its own; `draft`, its colour preview, shows while it is made.
   */
  upgradeColour(variant: string, draft: TryonOutput): void {
    const { status, complete, photo, model } = this.session;
    if (status !== 'result' || !complete || (!photo && !model)) return;
    this.stop();
    this.#pageVariantAtUpgrade = this.chosenVariant;
    this.dispatch({ type: 'variant', requestId: newRequestId(), variant, upload: false, draft });
    void this.start('submit', (run) => this.submit(run));
  }

  /**
   * One draft, front-view preview of another colour with the photo of the result on screen ("See all
   * colours"): submitted with `quality: "preview"`, watched to its end, its final answer returned.
   * It is not the session's try-on: the result stays on screen, and `signal` stops it.
   */
  async colourPreview(variant: string, signal: AbortSignal): Promise<ProxyStatus> {
    const { photo, model } = this.session;
    if (!photo && !model) throw new ProxyCallError('photo_expired', { retryable: false });
    const client = this.proxy();
    const who = model !== undefined ? { model } : { photo: photo!.handle, ...this.consentFields() };
    const product = this.product?.product || this.settings.product;
    const request = { product, variant, requestId: newRequestId(), views: ['front'], quality: 'preview' as const };
    const created = await client.createTryon({ ...request, ...who }, signal);
    return client.watch(created.tryon, () => undefined, signal);
  }

  makeVideo(): void {
    this.dispatch({ type: 'video', requestId: newRequestId() });
    void this.start('submit', (run) => this.submit(run));
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
          if (!this.running) void this.start('watch', (run) => this.watch(run));
          this.dispatch({ type: 'not-answering' });
          return;
        }
        this.stop();
        this.fail('watch', new ProxyCallError('image_failed', { retryable: true }));
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
      await this.proxy().status(tryon);
      return false;
    } catch (error) {
      return error instanceof ProxyCallError && serviceDown(error);
    }
  }
}
