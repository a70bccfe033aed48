import { LitElement, html, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import { panelStyles } from './tryon-panel.styles.js';
import { initialSession, nextSession } from './session.js';
import type { FailedStage, SessionEvent, SessionState } from './session.js';
import { ProxyClient, ProxyError } from './proxy-client.js';
import type { ProductInfo } from './proxy-client.js';
import { PhotoError, prepareRawPhoto } from './photo.js';
import type { PreparedPhoto } from './photo.js';
import { ClockController } from './clock.js';
import { CompareController } from './compare.js';
import { currentTryon, lastPhoto, rememberPhoto, rememberTryon } from './storage.js';
import type { StoredPhoto, StoredTryon } from './storage.js';
import { en } from './i18n/en.js';
import type { Strings } from './i18n/en.js';
import { hi } from './i18n/hi.js';
import type { TryonButton } from './tryon-button.component.js';
import type { TryonOutput } from './events.js';

const dictionaries: Record<string, Partial<Strings>> = { en, hi };

/** Expected p95 render time by tier (tryon-api.md part 8; draft is the quick iteration tier). */
const expectedSeconds: Record<string, number> = { draft: 10, standard: 25, premium: 60 };

/** Error codes that mean "this photo will not do": trying again means choosing another. */
const photoCodes = new Set(['unsupported_media_type', 'photo_too_small', 'file_too_large', 'photo_limit_reached']);
/** Error codes that mean a handle is gone: start again from the photo. */
const handleCodes = new Set(['expired_handle', 'invalid_handle', 'not_found']);

/** Previews of photos uploaded from this page, by photo handle, for the before/after view. */
const beforeImages = new Map<string, string>();

function newRequestId(): string {
  // randomUUID exists only in secure contexts; a shop page on plain http still needs an id.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function format(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** Only web links: a `javascript:` privacy-url from a theme setting must not become a link. */
function safeLink(url: string): string {
  if (!url) return '';
  try {
    return ['http:', 'https:'].includes(new URL(url, location.href).protocol) ? url : '';
  } catch {
    return '';
  }
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * The try-on dialog and its steps. Loaded on first interaction by <tryon-button>, which it
 * reports to: its status, its events and its texts all live on the button (the host).
 * Not for use on its own: style it through <tryon-button>'s parts and custom properties.
 *
 * @internal
 */
export class TryonPanel extends LitElement {
  static override styles = panelStyles;

  static override properties = {
    host: { attribute: false },
    session: { state: true },
    product: { state: true },
    prepared: { state: true },
    preview: { state: true },
    preparing: { state: true },
    problem: { state: true },
    consentChecked: { state: true },
    selectedView: { state: true },
    announcement: { state: true },
    dragging: { state: true },
  };

  declare host: TryonButton;
  declare private session: SessionState;
  declare private product: ProductInfo | undefined;
  declare private prepared: PreparedPhoto | undefined;
  declare private preview: string | undefined;
  declare private preparing: boolean;
  declare private problem: string;
  declare private consentChecked: boolean;
  declare private selectedView: string;
  declare private announcement: string;
  declare private dragging: boolean;

  private readonly clock = new ClockController(this);
  private readonly compare = new CompareController(this, () => this.renderRoot.querySelector<HTMLElement>('.compare'));
  private run: AbortController | undefined;
  private productLoad: Promise<ProductInfo> | undefined;
  private client: ProxyClient | undefined;
  private focusStep = false;
  private loadedFor: string | undefined;

  constructor() {
    super();
    this.session = initialSession();
    this.product = undefined;
    this.prepared = undefined;
    this.preview = undefined;
    this.preparing = false;
    this.problem = '';
    this.consentChecked = false;
    this.selectedView = '';
    this.announcement = '';
    this.dragging = false;
  }

  // ── texts ────────────────────────────────────────────────────────────────────────────────

  private t(key: keyof Strings, values: Record<string, string | number> = {}): string {
    const text = this.host?.strings?.[key] ?? dictionaries[this.host?.language ?? 'en']?.[key] ?? en[key];
    return format(text, values);
  }

  private productName(): string {
    return this.product?.name || this.host.product;
  }

  private viewName(view: string): string {
    const key = `view_${view}` as keyof Strings;
    return key in en ? this.t(key) : view.replace(/_/g, ' ');
  }

  private errorMessage(code: string): string {
    const key = `error_${code}` as keyof Strings;
    return key in en ? this.t(key) : this.t('error_generic');
  }

  // ── state ────────────────────────────────────────────────────────────────────────────────

  private get dialog(): HTMLDialogElement | null {
    return this.renderRoot.querySelector('dialog');
  }

  private get endpoint(): string {
    return this.host.endpoint || '/tryon';
  }

  private proxy(): ProxyClient {
    const base = new URL(this.endpoint, location.href).href;
    if (!this.client || this.client.base.href.replace(/\/$/, '') !== base.replace(/\/$/, '')) {
      this.client = new ProxyClient(this.endpoint, { pollInterval: this.host.pollInterval });
    }
    return this.client;
  }

  private dispatch(event: SessionEvent): void {
    const before = this.session;
    const after = nextSession(before, event);
    if (after === before) return;
    this.session = after;
    if (after.status !== before.status) {
      this.focusStep = true;
      this.announcement = '';
    }
    this.host.status = after.status;
    this.clock.running = after.status === 'queued' || after.status === 'rendering' ||
      (after.status === 'result' && !after.complete);
  }

  private elapsedMs(): number | undefined {
    return this.session.submittedAt ? Math.max(0, this.clock.now - this.session.submittedAt) : undefined;
  }

  private expectedMs(): number {
    const tier = this.product?.tier ?? 'standard';
    const seconds = expectedSeconds[tier] ?? 25;
    return (this.session.output === 'video' ? seconds * 2 : seconds) * 1000;
  }

  private requestedViews(): string[] {
    const offered = this.product?.views?.length ? this.product.views : ['front'];
    const wanted = this.host.views.split(',').map((v) => v.trim()).filter(Boolean);
    const chosen = wanted.length ? offered.filter((v) => wanted.includes(v)) : offered;
    const views = chosen.length ? chosen : offered;
    // The front renders first upstream and anchors the other views; show it first too.
    return [...views].sort((a, b) => (a === 'front' ? -1 : b === 'front' ? 1 : 0));
  }

  /** A different product, proxy or choice of views is a different try-on: start over (consent is kept). */
  private resetIfProductChanged(): void {
    const now = `${new URL(this.endpoint, location.href).href}|${this.host.product}|${this.host.views}`;
    if (this.loadedFor === undefined) this.loadedFor = now;
    if (this.loadedFor === now) return;
    this.loadedFor = now;
    this.run?.abort();
    this.run = undefined;
    this.product = undefined;
    this.productLoad = undefined;
    this.selectedView = '';
    this.session = { ...initialSession(), consented: this.session.consented, status: this.session.status === 'idle' ? 'idle' : this.session.status };
    if (this.session.status !== 'idle') this.session = { ...this.session, status: this.session.consented ? 'photo' : 'consent' };
  }

  private loadProduct(): Promise<ProductInfo> {
    this.productLoad ??= this.proxy().product(this.host.product).then((product) => {
      this.product = product;
      return product;
    }).catch((error: unknown) => {
      this.productLoad = undefined;
      throw error;
    });
    return this.productLoad;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // The page is going away (or the element moved): stop watching; storage keeps the try-on.
    this.run?.abort();
    this.run = undefined;
  }

  // ── public ───────────────────────────────────────────────────────────────────────────────

  /** Opens the dialog; with `resume`, picks up a try-on stored before a reload. */
  async show(resume?: StoredTryon): Promise<void> {
    await this.updateComplete;
    const dialog = this.dialog;
    if (!dialog) return;
    const wasOpen = dialog.open;
    this.resetIfProductChanged();
    if (resume && !this.session.tryon) {
      this.dispatch({ type: 'resume', ...resume, at: resume.submittedAt });
      const photo = resume.photo;
      this.session = { ...this.session, photo: photo ? { handle: photo.photo, expiresAt: photo.expiresAt } : undefined };
    } else {
      this.dispatch({ type: 'open' });
    }
    if (!wasOpen) {
      dialog.showModal();
      this.host.emit('tryon-open', { product: this.host.product });
    }
    this.focusStep = true;
    this.requestUpdate();
    this.loadProduct().catch((error: unknown) => {
      if (!this.product) this.fail('product', error);
    });
    await this.continueRun();
  }

  /** Closes the dialog (Escape and the close button end up here too). */
  hide(): void {
    const dialog = this.dialog;
    if (dialog?.open) dialog.close();
  }

  // ── the flow ─────────────────────────────────────────────────────────────────────────────

  private newRun(): AbortSignal {
    this.run?.abort();
    this.run = new AbortController();
    return this.run.signal;
  }

  /** Carries on from the current step: after a reopen, a resume or a retry. */
  private async continueRun(): Promise<void> {
    const { status, tryon, photo } = this.session;
    if (status === 'uploading') await this.send();
    else if ((status === 'queued' || status === 'rendering' || (status === 'result' && !this.session.complete)) && tryon) {
      await this.watch(this.newRun());
    } else if (status === 'queued' && photo) await this.submit(this.newRun());
  }

  private fail(stage: FailedStage, error: unknown): void {
    if (isAbort(error)) return;
    let code = error instanceof ProxyError ? error.code : 'generic';
    if (error instanceof TypeError) code = 'offline';
    if (!(error instanceof ProxyError) && !(error instanceof TypeError)) console.error(error);
    let failed: FailedStage = stage;
    if (photoCodes.has(code)) failed = 'photo';
    else if (code === 'unknown_product') failed = 'product';
    else if (handleCodes.has(code)) {
      failed = 'photo';
      rememberTryon(this.endpoint, this.host.product, undefined);
      if (stage !== 'watch') rememberPhoto(this.endpoint, undefined);
    }
    const message = this.errorMessage(code);
    const retryable = error instanceof ProxyError ? error.retryable : true;
    this.dispatch({ type: 'failed', stage: failed, error: { code, message, retryable } });
    this.host.emit('tryon-error', { product: this.host.product, code, message, retryable });
  }

  /** Uploads the prepared photo (unless already uploaded), then submits. */
  private async send(): Promise<void> {
    const signal = this.newRun();
    const prepared = this.prepared;
    if (!this.session.photo) {
      if (!prepared) {
        this.dispatch({ type: 'cancel' });
        return;
      }
      try {
        const uploaded = await this.proxy().uploadPhoto(prepared.blob, (percent) => {
          this.dispatch({ type: 'upload-progress', percent });
          this.host.emit('tryon-progress', { product: this.host.product, status: 'uploading', percent: this.session.percent });
        }, signal);
        const photo: StoredPhoto = { photo: uploaded.photo, expiresAt: uploaded.expiresAt };
        this.dispatch({ type: 'uploaded', photo: { handle: photo.photo, expiresAt: photo.expiresAt } });
        rememberPhoto(this.endpoint, photo);
        if (this.preview) beforeImages.set(photo.photo, this.preview);
      } catch (error) {
        if (!signal.aborted) this.fail('upload', error);
        return;
      }
    }
    await this.submit(signal);
  }

  private async submit(signal: AbortSignal): Promise<void> {
    const { photo, requestId, output } = this.session;
    if (!photo || !requestId) return;
    try {
      const product = this.product ?? (await this.loadProduct());
      const views = output === 'video' ? ['front'] : this.requestedViews();
      this.host.emit('tryon-submit', { product: this.host.product, requestId, views, output });
      const created = await this.proxy().createTryon({
        product: product.product || this.host.product,
        photo: photo.handle,
        requestId,
        ...(output === 'video' ? { output } : { views }),
      }, signal);
      if (signal.aborted) return;
      const at = Date.now();
      const createdViews = Array.isArray(created.views) && created.views.length ? created.views : views;
      this.dispatch({ type: 'submitted', tryon: created.tryon, views: createdViews, at });
      rememberTryon(this.endpoint, this.host.product, {
        tryon: created.tryon, requestId, views: createdViews, output, submittedAt: at,
        photo: { photo: photo.handle, expiresAt: photo.expiresAt },
      });
      this.host.emit('tryon-progress', {
        product: this.host.product, status: 'queued', tryon: created.tryon, elapsedMs: 0, expectedMs: this.expectedMs(),
      });
    } catch (error) {
      if (!signal.aborted) this.fail('submit', error);
      return;
    }
    await this.watch(signal);
  }

  private async watch(signal: AbortSignal): Promise<void> {
    const tryon = this.session.tryon;
    if (!tryon) return;
    this.clock.now = Date.now();
    try {
      const final = await this.proxy().watch(tryon, (answer) => {
        if (signal.aborted || this.session.tryon !== tryon) return;
        const before = this.session;
        this.dispatch({ type: 'status', answer });
        const arrived = this.session.outputs.filter((o) => !before.outputs.some((b) => b.url === o.url));
        if (arrived.length && this.session.status === 'result') {
          const last = arrived[arrived.length - 1];
          // The first view to arrive is shown; after that the shopper's own choice stands.
          if (!this.selectedView) this.selectedView = arrived.find((o) => o.type === 'image')?.view ?? '';
          if (last && !this.session.complete && last.type === 'image') {
            this.announcement = this.t('viewReady', { view: this.viewName(last.view) });
          }
        }
        this.host.emit('tryon-progress', {
          product: this.host.product, status: this.session.status, tryon,
          elapsedMs: this.elapsedMs() ?? 0, expectedMs: this.expectedMs(),
        });
      }, signal);
      if (signal.aborted || this.session.tryon !== tryon) return;
      if (final.status === 'succeeded' && !this.session.outputs.some((o) => o.type === this.session.output)) {
        // Success without anything to show: ask once more (outputs may trail the status), and
        // if there is still nothing, offer "Try again" rather than an empty result.
        this.dispatch({ type: 'status', answer: await this.proxy().status(tryon, signal) });
        if (!this.session.outputs.some((o) => o.type === this.session.output)) {
          throw new ProxyError('no_outputs', '', true);
        }
      }
      if (final.status === 'succeeded') {
        this.announcement = this.t(this.session.output === 'video' ? 'videoReady' : 'ready');
        rememberTryon(this.endpoint, this.host.product, undefined);
        const requestId = this.session.requestId ?? '';
        this.host.emit('tryon-result', { product: this.host.product, tryon, requestId, outputs: this.session.outputs });
      } else if (final.status === 'failed') {
        rememberTryon(this.endpoint, this.host.product, undefined);
        const code = final.error?.code ?? 'render_failed';
        const message = this.errorMessage(code);
        // The session already moved to `error`; give it the words the shopper reads.
        this.session = { ...this.session, error: { code, message, retryable: final.error?.retryable ?? true } };
        this.host.emit('tryon-error', { product: this.host.product, code, message, retryable: final.error?.retryable ?? true });
      }
    } catch (error) {
      if (!signal.aborted) this.fail('watch', error);
    }
  }

  // ── handlers ─────────────────────────────────────────────────────────────────────────────

  private readonly onDialogClose = () => {
    this.run?.abort();
    this.run = undefined;
    const status = this.session.status;
    if (this.session.complete) rememberTryon(this.endpoint, this.host.product, undefined);
    this.dispatch({ type: 'close' });
    this.clock.running = false;
    this.host.emit('tryon-close', { product: this.host.product, status });
    // Focus goes back to where the shopper started, unless the page already moved it elsewhere.
    const active = document.activeElement;
    if (!active || active === document.body || active === this.host) this.host.focus();
  };

  private readonly onConsentChange = (event: Event) => {
    this.consentChecked = (event.target as HTMLInputElement).checked;
  };

  private readonly onConsent = () => {
    if (!this.consentChecked) return;
    this.dispatch({ type: 'consent' });
  };

  private pickFile(capture: boolean): void {
    this.renderRoot.querySelector<HTMLInputElement>(capture ? '#camera' : '#file')?.click();
  }

  private readonly onFileChange = (event: Event) => {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) void this.choose(file);
  };

  private readonly onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    this.dragging = true;
  };

  private readonly onDragLeave = () => {
    this.dragging = false;
  };

  private readonly onDrop = (event: DragEvent) => {
    event.preventDefault();
    this.dragging = false;
    const file = event.dataTransfer?.files?.[0];
    if (file) void this.choose(file);
  };

  /** Prepares a chosen photo and shows its preview; nothing is uploaded yet. */
  async choose(file: Blob): Promise<void> {
    if (!this.session.consented) return;
    this.problem = '';
    this.preparing = true;
    this.dispatch({ type: 'photo-chosen' });
    try {
      const prepared = await prepareRawPhoto(file);
      this.prepared = prepared;
      this.preview = URL.createObjectURL(prepared.blob);
      this.focusStep = true;
    } catch (error) {
      this.prepared = undefined;
      this.preview = undefined;
      this.problem = this.photoProblem(error);
    } finally {
      this.preparing = false;
    }
  }

  private photoProblem(error: unknown): string {
    if (!(error instanceof PhotoError)) return this.t('photoUnreadable');
    switch (error.problem) {
      case 'not_image': return this.t('photoNotImage');
      case 'too_small': return this.t('photoTooSmall', { width: error.width ?? 0, height: error.height ?? 0 });
      case 'too_large': return this.t('photoTooLarge', { size: error.sizeMb ?? 0 });
      default: return this.t('photoUnreadable');
    }
  }

  private readonly onSubmit = () => {
    if (!this.prepared) return;
    this.dispatch({ type: 'upload-start', requestId: newRequestId() });
    void this.send();
  };

  private readonly onUseLastPhoto = () => {
    const stored = lastPhoto(this.endpoint);
    if (!stored) {
      this.requestUpdate();
      return;
    }
    this.dispatch({ type: 'photo-chosen' });
    this.preview = beforeImages.get(stored.photo);
    this.dispatch({ type: 'use-last-photo', photo: { handle: stored.photo, expiresAt: stored.expiresAt }, requestId: newRequestId() });
    void this.submit(this.newRun());
  };

  private readonly onCancel = () => {
    this.run?.abort();
    this.run = undefined;
    rememberTryon(this.endpoint, this.host.product, undefined);
    this.dispatch({ type: 'cancel' });
  };

  private readonly onRetry = () => {
    const refusedPhoto = photoCodes.has(this.session.error?.code ?? '');
    this.dispatch({ type: 'retry', requestId: newRequestId() });
    if (refusedPhoto) {
      // The proxy refused this photo: offering to send it again would be a dead end.
      this.prepared = undefined;
      this.preview = undefined;
    }
    if (this.session.status === 'consent' || this.session.status === 'photo') {
      if (!this.product) this.loadProduct().catch((error: unknown) => this.fail('product', error));
      return;
    }
    void this.continueRun();
  };

  private readonly onAnotherPhoto = () => {
    this.run?.abort();
    rememberTryon(this.endpoint, this.host.product, undefined);
    this.prepared = undefined;
    this.preview = undefined;
    this.selectedView = '';
    this.compare.reset();
    this.dispatch({ type: 'another-photo' });
  };

  private readonly onMakeVideo = () => {
    this.dispatch({ type: 'video', requestId: newRequestId() });
    void this.submit(this.newRun());
  };

  private currentImage(): TryonOutput | undefined {
    const images = this.session.outputs.filter((o) => o.type === 'image');
    return images.find((o) => o.view === this.selectedView) ?? images[0];
  }

  private readonly onDownload = async () => {
    const output = this.session.output === 'video' && this.session.complete
      ? this.session.outputs.find((o) => o.type === 'video')
      : this.currentImage();
    if (!output) return;
    const extension = output.type === 'video' ? 'mp4' : (output.contentType ?? '').includes('png') ? 'png' : 'jpg';
    const name = `${this.host.product}-${output.view}.${extension}`;
    let href = output.url;
    let revoke = false;
    try {
      // A fetched blob downloads under our name even when the proxy is on another origin.
      const response = await fetch(output.url);
      if (response.ok) {
        href = URL.createObjectURL(await response.blob());
        revoke = true;
      }
    } catch {
      // Fall back to the link itself.
    }
    const link = document.createElement('a');
    link.href = href;
    link.download = name;
    link.rel = 'noopener';
    link.style.display = 'none';
    this.renderRoot.appendChild(link);
    link.click();
    link.remove();
    if (revoke) setTimeout(() => URL.revokeObjectURL(href), 60_000);
  };

  private readonly onShare = async () => {
    const output = this.currentImage() ?? this.session.outputs[0];
    if (!output) return;
    const title = this.t('resultAlt', { product: this.productName() });
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url: output.url });
      } catch {
        // The shopper closed the share sheet: nothing to say.
      }
      return;
    }
    try {
      await navigator.clipboard.writeText(output.url);
      this.announcement = this.t('linkCopied');
    } catch {
      this.announcement = output.url;
    }
  };

  private readonly onTabKey = (event: KeyboardEvent) => {
    const tabs = [...this.renderRoot.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
    const at = tabs.findIndex((tab) => tab === event.currentTarget);
    const rtl = getComputedStyle(this.dialog ?? document.body).direction === 'rtl';
    const step: Record<string, number> = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, ArrowDown: 1, ArrowUp: -1 };
    let next: number | undefined;
    if (event.key in step) next = (at + (step[event.key] ?? 0) + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    this.selectedView = tab.dataset['view'] ?? '';
    tab.focus();
  };

  /** Keeps Tab and Shift+Tab cycling inside the dialog instead of escaping to the browser. */
  private readonly onDialogKey = (event: KeyboardEvent) => {
    if (event.key !== 'Tab') return;
    const focusable = [...this.renderRoot.querySelectorAll<HTMLElement>(
      'dialog button:not([disabled]), dialog a[href], dialog input:not([tabindex="-1"]):not([disabled]), dialog video[controls], dialog [tabindex="0"]',
    )].filter((el) => el.getClientRects().length > 0);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    const active = this.shadowRoot?.activeElement;
    if (event.shiftKey && (active === first || !active)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !active)) {
      event.preventDefault();
      first.focus();
    }
  };

  // ── rendering ────────────────────────────────────────────────────────────────────────────

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (this.focusStep && this.dialog?.open) {
      this.focusStep = false;
      this.renderRoot.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
  }

  private statusText(): string {
    const { status, percent, tryon } = this.session;
    switch (status) {
      // Whole tens only, so a screen reader is not told every percent.
      case 'uploading': return this.t('uploading', { percent: Math.floor(percent / 10) * 10 });
      case 'queued': return tryon ? this.t('queued') : this.t('sending');
      case 'rendering': return this.t('rendering');
      default: return this.announcement;
    }
  }

  private renderConsent(): TemplateResult {
    const privacy = safeLink(this.host.privacyUrl);
    return html`<div part="consent" class="body">
      <h3 id="step-title" tabindex="-1">${this.t('consentTitle')}</h3>
      <p>${this.t('consentBody', { product: this.productName() })}</p>
      ${privacy ? html`<p><a href=${privacy} target="_blank" rel="noopener">${this.t('consentPrivacy')}</a></p>` : nothing}
      <label class="check"><input type="checkbox" data-autofocus .checked=${this.consentChecked} @change=${this.onConsentChange}>
        <span>${this.t('consentCheckbox')}</span></label>
      <div class="actions" part="actions">
        <button class="primary" part="primary-button" type="button" ?disabled=${!this.consentChecked} @click=${this.onConsent}>${this.t('continue')}</button>
      </div>
    </div>`;
  }

  private renderPhoto(): TemplateResult {
    const last = lastPhoto(this.endpoint);
    const ready = Boolean(this.prepared && this.preview);
    return html`<div part="photo" class="body">
      <h3 id="step-title" tabindex="-1">${this.t('photoTitle')}</h3>
      <div>
        <p>${this.t('tipsTitle')}</p>
        <ul>
          <li>${this.t('tipOnePerson')}</li>
          <li>${this.t('tipFacing')}</li>
          <li>${this.t('tipLight')}</li>
          <li>${this.t('tipBody')}</li>
        </ul>
      </div>
      <div part="dropzone" class="dropzone ${this.dragging ? 'over' : ''}"
        @dragover=${this.onDragOver} @dragleave=${this.onDragLeave} @drop=${this.onDrop}>
        ${ready
          ? html`<img part="preview" src=${this.preview ?? ''} alt=${this.t('previewAlt')}>`
          : html`<p class="muted">${this.preparing ? this.t('preparing') : this.t('dropHint')}</p>`}
      </div>
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
      <div class="actions" part="actions">
        ${ready ? html`<button class="primary" part="primary-button" type="button" data-autofocus @click=${this.onSubmit}>${this.t('submit')}</button>` : nothing}
        <button class=${ready ? '' : 'primary'} part=${ready ? 'secondary-button' : 'primary-button'} type="button"
          ?data-autofocus=${!ready} @click=${() => this.pickFile(false)}>${this.t('choosePhoto')}</button>
        <button type="button" part="secondary-button" @click=${() => this.pickFile(true)}>${this.t('takePhoto')}</button>
        ${last ? html`<button type="button" part="secondary-button" @click=${this.onUseLastPhoto}>${this.t('useLastPhoto')}</button>` : nothing}
      </div>
      <input id="file" class="visually-hidden" type="file" tabindex="-1" accept="image/*,.heic,.heif"
        aria-label=${this.t('yourPhoto')} @change=${this.onFileChange}>
      <input id="camera" class="visually-hidden" type="file" tabindex="-1" accept="image/*" capture="user"
        aria-label=${this.t('takePhoto')} @change=${this.onFileChange}>
    </div>`;
  }

  private renderProgress(): TemplateResult {
    const { status, percent } = this.session;
    const elapsed = Math.round((this.elapsedMs() ?? 0) / 1000);
    const expected = Math.round(this.expectedMs() / 1000);
    return html`<div part="progress" class="body">
      <h3 id="step-title" tabindex="-1" data-autofocus>${this.t('progressTitle', { product: this.productName() })}</h3>
      ${status === 'uploading'
        ? html`<progress max="100" .value=${percent} aria-labelledby="status"></progress>`
        : html`<div class="spinner" aria-hidden="true"></div>
          ${this.session.tryon ? html`<p class="muted">${this.t('timing', { elapsed, expected })}</p>` : nothing}`}
      <div class="actions" part="actions">
        <button type="button" part="secondary-button" @click=${this.onCancel}>${this.t('cancel')}</button>
      </div>
    </div>`;
  }

  private renderImage(output: TryonOutput | undefined): TemplateResult {
    if (!output) return html`<div class="frame"><p class="muted">${this.t('viewPending')}</p></div>`;
    const alt = this.t('resultAlt', { product: this.productName() });
    const before = this.session.photo ? beforeImages.get(this.session.photo.handle) : undefined;
    if (!before) return html`<div class="frame"><img part="image" src=${output.url} alt=${alt}></div>`;
    const position = this.compare.position;
    return html`<div class="frame"><div class="compare" part="compare"
        @pointerdown=${this.compare.onPointer} @pointermove=${this.compare.onPointer}>
      <img part="image" src=${output.url} alt=${alt}>
      <img class="before" src=${before} alt="">
      <div role="slider" part="compare-handle" tabindex="0" aria-label=${this.t('compare')}
        aria-valuemin="0" aria-valuemax="100" aria-valuenow=${position} aria-valuetext="${position}%"
        aria-orientation="horizontal" @keydown=${this.compare.onKey}></div>
    </div></div>`;
  }

  private renderResult(): TemplateResult {
    const { outputs, views, complete } = this.session;
    const images = outputs.filter((o) => o.type === 'image');
    const video = outputs.find((o) => o.type === 'video');
    const shownViews = views.length ? views : [...new Set(images.map((o) => o.view))];
    const selected = shownViews.includes(this.selectedView) ? this.selectedView : (images[0]?.view ?? shownViews[0] ?? 'front');
    const image = images.find((o) => o.view === selected);
    const offerVideo = complete && this.host.video && this.product?.video === true && !video && this.session.output === 'image';
    const switcher = shownViews.length > 1;
    return html`<div part="result" class="body">
      <h3 id="step-title" tabindex="-1" ?data-autofocus=${!switcher}>${this.t('ready')}</h3>
      ${switcher
        ? html`<div role="tablist" part="views" aria-label=${this.t('views')}>
          ${shownViews.map((view) => html`<button role="tab" type="button" id="tab-${view}" data-view=${view}
            aria-selected=${view === selected ? 'true' : 'false'} aria-controls="view-panel"
            tabindex=${view === selected ? '0' : '-1'} ?data-autofocus=${view === selected}
            @click=${() => { this.selectedView = view; }} @keydown=${this.onTabKey}>${this.viewName(view)}</button>`)}
        </div>
        <div role="tabpanel" id="view-panel" aria-labelledby="tab-${selected}">${this.renderImage(image)}</div>`
        : this.renderImage(image)}
      ${video ? html`<video part="video" controls playsinline src=${video.url} aria-label=${this.t('videoLabel', { product: this.productName() })}></video>` : nothing}
      <div class="actions" part="actions">
        <button type="button" part="secondary-button" ?disabled=${!image && !video} @click=${this.onDownload}>${this.t('download')}</button>
        <button type="button" part="secondary-button" ?disabled=${!image && !video} @click=${this.onShare}>${this.t('share')}</button>
        <button type="button" part="secondary-button" @click=${this.onAnotherPhoto}>${this.t('anotherPhoto')}</button>
        ${offerVideo ? html`<button type="button" part="secondary-button" @click=${this.onMakeVideo}>${this.t('makeVideo')}</button>` : nothing}
      </div>
    </div>`;
  }

  private renderError(): TemplateResult {
    const message = this.session.error?.message || this.t('error_generic');
    return html`<div class="body">
      <h3 id="step-title" tabindex="-1">${this.t('errorTitle')}</h3>
      <div role="alert" part="error" class="error"><p>${message}</p></div>
      <div class="actions" part="actions">
        <button class="primary" part="primary-button" type="button" data-autofocus @click=${this.onRetry}>${this.t('tryAgain')}</button>
        <button type="button" part="secondary-button" @click=${() => this.hide()}>${this.t('close')}</button>
      </div>
    </div>`;
  }

  private renderStep(): TemplateResult | typeof nothing {
    switch (this.session.status) {
      case 'consent': return this.renderConsent();
      case 'photo': return this.renderPhoto();
      case 'uploading':
      case 'queued':
      case 'rendering': return this.renderProgress();
      case 'result': return this.renderResult();
      case 'error': return this.renderError();
      default: return nothing;
    }
  }

  override render() {
    const rtl = this.host?.language === 'ar' || this.host?.language === 'ur' || this.host?.language === 'he';
    return html`<dialog part="dialog" aria-labelledby="dialog-title" lang=${this.host?.language ?? 'en'}
        dir=${rtl ? 'rtl' : nothing as unknown as string}
        @close=${this.onDialogClose} @keydown=${this.onDialogKey}>
      <div class="header" part="header">
        <h2 id="dialog-title" part="title">${this.t('dialogTitle')}</h2>
        <button type="button" class="close" part="close-button" aria-label=${this.t('close')} @click=${() => this.hide()}>×</button>
      </div>
      ${this.renderStep()}
      <p id="status" role="status" part="status" class="status body">${this.statusText()}</p>
    </dialog>`;
  }
}
