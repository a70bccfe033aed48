// The result on screen, as a controller created once with the panel: which view is shown (the first
// to arrive, then the shopper's choice), the first look fading out under the full render that took
// its place, a video brought into view when it lands below the fold, and Download and Share of what
// is shown (actions.ts), said in the live region.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { hasOutput } from '../run/session.js';
import type { SessionEvent, SessionState } from '../run/session.js';
import { download, outputFileName, productPageUrl, share } from './actions.js';
import type { Texts } from '../i18n/words/texts.js';
import type { TryonOutput } from '../core/events.js';

/** What the result view asks of the panel. */
export interface ResultViewOptions {
  session(): SessionState;
  texts(): Texts;
  /** The product's name as the shopper reads it, and its id (for file names). */
  productName(): string;
  productId(): string;
  /** Where the result is drawn (a download's link is made there). */
  root(): ShadowRoot;
  announce(text: string): void;
}

/** The live region's words for each way a share went ("cancelled" says nothing). */
const sharedWords = { picture: 'sharedPicture', link: 'sharedLink', copied: 'shareCopied' } as const;

export class ResultView implements ReactiveController {
  /** The view shown ('' until one arrives). Read-only outside: it changes through `select` and the session. */
  selectedView = '';
  /** The first look the full render just replaced, fading out over it; cleared by the next try-on or view. */
  fadeFrom: string | undefined;
  /**
   * How many times the pictures were asked for afresh: each answer after the service was not
   * answering counts one, so an image that failed during the outage is a new element that loads again.
   */
  pictureRound = 0;
  /** A video has just arrived: it is scrolled into view once it is rendered. */
  #revealVideo = false;
  readonly #host: ReactiveControllerHost;
  readonly #options: ResultViewOptions;

  constructor(host: ReactiveControllerHost, options: ResultViewOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  hostConnected(): void {}

  /** The shopper picked a view: it is shown, without the first look's crossfade. */
  select(view: string): void {
    this.selectedView = view;
    this.fadeFrom = undefined;
    this.#host.requestUpdate();
  }

  /** A new try-on (another photo, colour or product): its first view to arrive is shown. */
  showFirstView(): void {
    this.selectedView = '';
    this.#host.requestUpdate();
  }

  sessionChanged(before: SessionState, after: SessionState, event: SessionEvent): void {
    if (event.type === 'product-changed') this.selectedView = '';
    if (after.requestId !== before.requestId) this.fadeFrom = undefined;
    if (event.type !== 'status') return;
    if (before.notAnswering && !after.notAnswering) this.pictureRound += 1;
    const arrived = after.outputs.filter((o) => !before.outputs.some((b) => b.url === o.url));
    // The first view to arrive is shown; after that the shopper's own choice stands.
    if (arrived.length && after.status === 'result' && !this.selectedView)
      this.selectedView = arrived.find((o) => o.type === 'image')?.view ?? '';
    if (after.complete && hasOutput(after) && !(before.complete && hasOutput(before))) {
      // The full render takes the first look's place: a short crossfade (styles); "ready" says it once.
      if (before.preview && after.output === 'image') this.fadeFrom = before.preview.url;
      // The video lands below the image, often below the fold: bring it into view.
      if (after.output === 'video') this.#revealVideo = true;
    }
  }

  /** After a render with the dialog open: a video that just arrived is scrolled into view (after focus moved). */
  revealVideo(): void {
    if (!this.#revealVideo) return;
    const video = this.#options.root().querySelector('video');
    if (!video) return;
    this.#revealVideo = false;
    const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
    const reveal = () => video.scrollIntoView({ block: 'nearest', behavior: still ? 'instant' : 'smooth' });
    reveal();
    // Its height is known once its metadata has loaded (or failed to): in view again then.
    for (const type of ['loadedmetadata', 'error']) video.addEventListener(type, reveal, { once: true });
  }

  #currentImage(): TryonOutput | undefined {
    const images = this.#options.session().outputs.filter((o) => o.type === 'image');
    return images.find((o) => o.view === this.selectedView) ?? images[0];
  }

  readonly download = async () => {
    const { output, complete, outputs } = this.#options.session();
    const chosen = output === 'video' && complete ? outputs.find((o) => o.type === 'video') : this.#currentImage();
    if (!chosen) return;
    // The result stays on screen; the live region says the save failed, so Download can be pressed again.
    if (!(await download(chosen, this.#options.productId(), this.#options.root())))
      this.#options.announce(this.#options.texts().t('error_generic'));
  };

  readonly share = async () => {
    const output = this.#currentImage() ?? this.#options.session().outputs[0];
    if (!output) return;
    const texts = this.#options.texts();
    const product = this.#options.productName();
    const url = productPageUrl();
    const outcome = await share(output, {
      title: product,
      text: texts.t('shareText', { product }),
      url,
      fileName: outputFileName(output, this.#options.productId()),
    });
    // The live region says what was shared, so a screen reader user knows what the sheet sent.
    if (outcome === 'failed') this.#options.announce(texts.t('shareFailed', { product, url }));
    else if (outcome !== 'cancelled') this.#options.announce(texts.t(sharedWords[outcome], { product }));
  };
}
