// The dialog shell: the <dialog>, its header and live region, and what the panel does on each change
// of the run (focus, the live region, the host's status, the ready badge). Its parts and what they
// read of it are the context's (panel-context.ts), built once with it; what each step shows is
// panel-steps.ts's.
import { LitElement, html, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import { panelStyles } from './tryon-panel.styles.js';
import { beingMade, readyInBackground } from '../run/session.js';
import type { SessionEvent, SessionState } from '../run/session.js';
import type { RunChange } from '../run/tryon-run.js';
import type { StoredTryon } from '../core/storage.js';
import type { PanelHost, PanelReadyEvent, PanelStatusEvent } from '../core/panel-host.js';
import { CONSENT_TEXT_ID } from './consent-step.js';
import { PanelContext } from './panel-context.js';
import { renderStep } from './panel-steps.js';

/**
 * Every part of the dialog's shadow root, forwarded through <tryon-button> to the page (the
 * panel's `exportparts`). The panel sets it on itself, so the list weighs on its own lazy chunk, not
 * on the first script a product page loads.
 */
const EXPORTED_PARTS =
  'dialog, header, title, close-button, consent, retention, photo, dropzone, preview, progress, status, result, views, image, compare, compare-handle, before-after, photo-toggle, compare-toggle, video, actions, primary-button, secondary-button, forget-button, error, add-to-cart-button, cart-error, first-look, first-look-badge, colours, colour, alternatives, models, model-grid, model, handoff, qr-code, handoff-code, handoff-confirm, handoff-number-input, handoff-sent, handoff-number, photo-check, outfit, outfit-pieces, remove-piece-button, outfit-error, outfit-progress, outfit-offers, piece-colour, piece-button, fidelity, fidelity-swatch';

/**
 * The try-on dialog: its header, the live region, the current step and focus when the step
 * changes. The flow itself is the run controller's (tryon-run.ts); each step's markup is its own
 * module, in the folder of the feature it shows (`*-step.ts`). It knows its host only as a `PanelHost`, dispatches the public events on it,
 * and reports its step with a `panel-status` event for the host to reflect.
 * Not for use on its own: style it through <tryon-button>'s parts and custom properties.
 *
 * @internal
 */
export class TryonPanel extends LitElement {
  static override styles = panelStyles;

  static override properties = {
    host: { attribute: false },
  };

  declare host: PanelHost;
  /** The dialog's parts and what they read of it: built once. */
  readonly #context = new PanelContext(this);

  constructor() {
    super();
    // The run's one channel back: every change, with the public events it reports.
    this.#context.run.subscribe((change) => this.#runChanged(change));
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.setAttribute('exportparts', EXPORTED_PARTS);
  }

  get #dialog(): HTMLDialogElement | null {
    return this.renderRoot.querySelector('dialog');
  }

  /** A change of the run: what the proxy said of the product, the session's change, then the public events it reports. */
  #runChanged({ before, after, event, reports }: RunChange): void {
    if (event.type === 'availability') this.host?.productAvailability?.(event.reason);
    else if (after !== before) this.#sessionChanged(before, after, event as SessionEvent);
    for (const [name, detail] of reports) this.#context.emit(name, detail);
  }

  /** What the panel does on each change of the session: focus, the live region, the host's status. */
  #sessionChanged(before: SessionState, after: SessionState, event: SessionEvent): void {
    const context = this.#context;
    if (after.status !== before.status) {
      context.focusStep();
      this.dispatchEvent(new CustomEvent('panel-status', { detail: after.status }) satisfies PanelStatusEvent);
    }
    // No clock while the service is not answering: counting towards "usually about 25 seconds" would pretend.
    context.clock.running = !after.notAnswering && beingMade(after.status, after.complete);
    if (readyInBackground(after) && !readyInBackground(before)) this.#readyBadge(true);
    context.result.sessionChanged(before, after, event);
    // The full render arrives whole: whatever the first look was toggled to, the try-on comes first.
    if (after.complete && !before.complete) context.compare.showResult();
    if (event.type === 'uploaded') context.photo.uploaded(event.photo.handle);
    if (event.type === 'use-last-photo') context.photo.reused(event.photo.handle);
    // Another photo (or none): the colour drafts made with the old one are not this shopper's now.
    context.colours.sessionChanged(after);
    context.announcer.sessionChanged(before, after, event);
  }

  /**
   * A try-on watched after the dialog closed has its result: the button shows its ready badge and
   * says so politely (`panel-ready`, handled by the button); opening the dialog takes it away.
   */
  #readyBadge(on: boolean): void {
    const texts = this.#context.texts;
    const detail = on
      ? {
          badge: texts.t('readyBadge'),
          announcement: texts.t('readyInBackground', { product: this.#context.productName }),
        }
      : undefined;
    this.dispatchEvent(new CustomEvent('panel-ready', { detail }) satisfies PanelReadyEvent);
  }

  // ── public ───────────────────────────────────────────────────────────────────────────────

  /** Opens the dialog; with `resume`, picks up a try-on stored before a reload. */
  async show(resume?: StoredTryon): Promise<void> {
    await this.updateComplete;
    const dialog = this.#dialog;
    if (!dialog) return;
    const { run, handoff, photo } = this.#context;
    const wasOpen = dialog.open;
    this.#readyBadge(false);
    // Opened from a hand-off's QR code: this is the phone. The code leaves the address bar at once.
    handoff.openedOnPhone();
    run.enter(resume);
    if (!wasOpen) {
      dialog.showModal();
      this.#context.emit('tryon-open', run.subject);
    }
    this.#context.focusStep();
    this.requestUpdate();
    await run.continue(photo.prepared?.blob);
  }

  /** Closes the dialog (Escape and the close button end up here too). */
  hide(): void {
    const dialog = this.#dialog;
    if (dialog?.open) dialog.close();
  }

  /** The page chose another variant: a result on screen may now offer "Try this colour". */
  variantChanged(): void {
    this.requestUpdate();
  }

  /** Prepares a chosen photo and shows its thumbnail; nothing is uploaded yet. */
  choose(file: Blob): Promise<void> {
    return this.#context.photo.choose(file);
  }

  /** The photo being prepared (tests wait on it). */
  get preparing(): boolean {
    return this.#context.photo.preparing;
  }

  // ── handlers and rendering ───────────────────────────────────────────────────────────────

  readonly #onDialogClose = () => {
    this.#context.run.close();
    // Focus goes back to where the shopper started, unless the page already moved it elsewhere.
    const active = document.activeElement;
    if (!active || active === document.body || active === this.host) this.host.focus();
  };

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    // After focus moved (the context's last controller): a video that just arrived is scrolled into view.
    if (this.#dialog?.open) this.#context.result.revealVideo();
  }

  override render() {
    const context = this.#context;
    const texts = context.texts;
    const session = context.run.session;
    // The language the texts are really in: a page in a language the widget lacks reads English.
    // While consent is asked, what the shopper agrees to is the dialog's description.
    const description = session.status === 'consent' ? CONSENT_TEXT_ID : nothing;
    return html`<dialog part="dialog" class=${context.smallScreen.matches ? 'sheet' : ''} aria-labelledby="dialog-title" aria-describedby=${description} lang=${texts.code}
        dir=${texts.dir ?? nothing} @close=${this.#onDialogClose}>
      <div class="header" part="header">
        <h2 id="dialog-title" part="title">${texts.t('dialogTitle')}</h2>
        <button type="button" class="close" part="close-button" aria-label=${texts.t('close')} @click=${() => this.hide()}>×</button>
      </div>
      ${renderStep(context)}
      <p id="status" role="status" part="status" class="status body">${context.announcer.line(session, context.longerThanUsual(session))}</p>
    </dialog>`;
  }
}
