// The result on screen, as a controller created once with the panel: which view is shown (the first
// to arrive, then the shopper's choice), the first look fading out under the full render that took
// its place, a video brought into view when it lands below the fold, and Download and Share of what
// is shown (actions.ts), said in the live region (Download with the file's name).
import type { ReactiveController } from 'lit';
import { hasOutput } from '../run/session.js';
import type { SessionEvent, SessionState } from '../run/session.js';
import type { TryonRun } from '../run/tryon-run.js';
import { download, outputFileName, productPageUrl, share } from './actions.js';
import type { TryonOutput } from '../core/events.js';
import type { DialogContext } from '../core/dialog-context.js';

/** What the result view reads of the dialog's context: the session of the run, and the outfit shown over it. */
export interface ResultViewContext extends DialogContext {
  readonly run: Pick<TryonRun, 'session'>;
  /** "Complete the look": what the result shows instead of the session's outputs, once the outfit has a piece. */
  readonly outfit?: { shown(): { outputs: TryonOutput[] } | undefined };
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
  readonly #context: ResultViewContext;

  constructor(context: ResultViewContext) {
    this.#context = context;
    context.panel.addController(this);
  }

  hostConnected(): void {}

  /** The shopper picked a view: it is shown, without the first look's crossfade. */
  select(view: string): void {
    this.selectedView = view;
    this.fadeFrom = undefined;
    this.#context.panel.requestUpdate();
  }

  /** A new try-on (another photo, colour or product): its first view to arrive is shown. */
  showFirstView(): void {
    this.selectedView = '';
    this.#context.panel.requestUpdate();
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
      if (before.firstLook && after.output === 'image') this.fadeFrom = before.firstLook.url;
      // The video lands below the image, often below the fold: bring it into view.
      if (after.output === 'video') this.#revealVideo = true;
    }
  }

  /** After a render with the dialog open: a video that just arrived is scrolled into view (after focus moved). */
  revealVideo(): void {
    if (!this.#revealVideo) return;
    const video = this.#context.root.querySelector('video');
    if (!video) return;
    this.#revealVideo = false;
    const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
    const reveal = () => video.scrollIntoView({ block: 'nearest', behavior: still ? 'instant' : 'smooth' });
    reveal();
    // Its height is known once its metadata has loaded (or failed to): in view again then.
    for (const type of ['loadedmetadata', 'error']) video.addEventListener(type, reveal, { once: true });
  }

  #currentImage(): TryonOutput | undefined {
    const shown = this.#context.outfit?.shown()?.outputs ?? this.#context.run.session.outputs;
    const images = shown.filter((o) => o.type === 'image');
    return images.find((o) => o.view === this.selectedView) ?? images[0];
  }

  readonly download = async () => {
    const context = this.#context;
    const { output, complete, outputs } = context.run.session;
    const chosen =
      output === 'video' && complete && !context.outfit?.shown()
        ? outputs.find((o) => o.type === 'video')
        : this.#currentImage();
    if (!chosen) return;
    // The result stays on screen; the live region says the save failed, so Download can be pressed again,
    // or, once the browser has the file, the name it is saved under: without it the button seemed to do nothing.
    const fileName = await download(chosen, context.host.product, context.root);
    context.announce(fileName ? context.texts.t('downloaded', { file: fileName }) : context.texts.t('error_generic'));
  };

  readonly share = async () => {
    const context = this.#context;
    const output = this.#currentImage() ?? context.run.session.outputs[0];
    if (!output) return;
    const texts = context.texts;
    const product = context.productName;
    const url = productPageUrl();
    const outcome = await share(output, {
      title: product,
      text: texts.t('shareText', { product }),
      url,
      fileName: outputFileName(output, context.host.product),
    });
    // The live region says what was shared, so a screen reader user knows what the sheet sent.
    if (outcome === 'failed') context.announce(texts.t('shareFailed', { product, url }));
    else if (outcome !== 'cancelled') context.announce(texts.t(sharedWords[outcome], { product }));
  };
}
