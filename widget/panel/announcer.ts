// What the dialog's live region (role=status) says, as a controller created once with the panel:
// the step's own words while a try-on is made (uploading, queued, rendering, the first look, the
// service not answering), the session's news (a view in, the result ready), and what the shopper's
// own actions bring (shared, saved, added to the cart, forgotten). A new step clears the old news.
import type { ReactiveController } from 'lit';
import { hasOutput } from '../run/session.js';
import type { SessionEvent, SessionState } from '../run/session.js';
import type { DialogContext } from '../core/dialog-context.js';

export class Announcer implements ReactiveController {
  #said = '';
  readonly #context: Pick<DialogContext, 'panel' | 'texts'>;

  constructor(context: Pick<DialogContext, 'panel' | 'texts'>) {
    this.#context = context;
    context.panel.addController(this);
  }

  hostConnected(): void {}

  /** Puts `text` in the live region ('' empties it). */
  say(text: string): void {
    this.#said = text;
    this.#context.panel.requestUpdate();
  }

  /** The session's news: a new step clears what was said; a catalog's view in, the result ready. */
  sessionChanged(before: SessionState, after: SessionState, event: SessionEvent): void {
    const texts = this.#context.texts;
    if (after.status !== before.status) this.#said = '';
    if (event.type !== 'status') return;
    const arrived = after.outputs.filter((o) => !before.outputs.some((b) => b.url === o.url));
    const last = arrived[arrived.length - 1];
    if (last && after.status === 'result' && !after.complete && last.type === 'image')
      this.#said = texts.t('viewReady', { view: texts.viewName(last.view) });
    if (after.complete && hasOutput(after) && !(before.complete && hasOutput(before)))
      this.#said = texts.t(after.output === 'video' ? 'videoReady' : 'ready');
  }

  /**
   * The live region's words now. `longerThanUsual` (past twice the usual time) stays true while the
   * try-on is made, so the region's words change once and are said once, however the clock ticks
   * and whether or not the shopper puts the note away.
   */
  line(session: SessionState, longerThanUsual = false): string {
    const texts = this.#context.texts;
    const { status, percent, tryon } = session;
    switch (status) {
      // Whole tens only, so a screen reader is not told every percent.
      case 'uploading':
        return texts.t('uploading', { percent: texts.percent(Math.floor(percent / 10) * 10) });
      case 'queued':
      case 'rendering': {
        const { notAnswering, firstLook, firstLookOff } = session;
        if (notAnswering) return texts.t('notAnswering');
        if (session.fidelity?.rerender === 'running') return texts.t('fidelityRedoing');
        if (longerThanUsual) return texts.t('longerThanUsual');
        // Said once, when the first look arrives; the full render's own words come with the result.
        if (firstLook && !firstLookOff) return texts.t('previewReady');
        return status === 'rendering' ? texts.t('rendering') : tryon ? texts.t('queued') : texts.t('sending');
      }
      case 'result':
        // A result still being watched, or one whose pictures did not load while the service is down.
        // A view that differed from the product being made again: said once, as the note beside the result.
        if (session.notAnswering) return texts.t('notAnswering');
        return session.fidelity?.rerender === 'running' ? texts.t('fidelityRedoing') : this.#said;
      default:
        return this.#said;
    }
  }
}
