// The one map from the session to the step the dialog shows (each a `*-step.ts` of its feature's
// folder), with each step's inputs:
// consent, the photo, the models and the hand-off (alternatives.ts, loaded on demand), progress with
// the first look, the result or the colours' grid, and the error. It reads everything from the
// dialog's context (panel-context.ts) and keeps nothing itself.
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { actionLabel } from '../run/error-policy.js';
import { lastPhoto } from '../core/storage.js';
import { consentStep, consentText } from './consent-step.js';
import { consentWords } from '../run/consent-version.js';
import { photoStep } from '../photo/photo-step.js';
import { bodyNeeded } from '../photo/rules.js';
import { firstLook, progressStep } from './progress-step.js';
import { coloursStep } from '../colours/colours-step.js';
import { resultStep } from '../result/result-step.js';
import type { ImageView } from '../result/result-step.js';
import { fidelityNote, swatchOf } from '../result/fidelity-note.js';
import type { ResultFidelity } from '../result/fidelity-note.js';
import { errorStep } from './error-step.js';
import { networkUrl } from '../api/proxy-client.js';
import type { PanelContext } from './panel-context.js';

/** What a drawn try-on image needs: the shopper's photo (when sent from this page) for the compare. */
function imageView(p: PanelContext): ImageView {
  const photo = p.run.session.photo;
  return {
    texts: p.texts,
    productName: p.productName,
    before: p.photo.before(photo?.handle),
    compare: p.compare,
    onImageError: p.imageFailed,
    round: p.result.pictureRound,
  };
}

/** The proxy's check of the try-on on screen, and the garment image of what was tried on. */
function fidelityOf(p: PanelContext): ResultFidelity {
  const { fidelity, variant } = p.run.session;
  return {
    fidelity,
    swatch: fidelity?.verdict === 'differs' ? swatchOf(p.run.product, variant, p.run.client().base) : undefined,
  };
}

/** The product's models, their pictures through the same gate as every URL from the network. */
function models(p: PanelContext): { id: string; name: string; image: string }[] {
  const client = p.run.client();
  return (p.run.product?.models ?? []).flatMap((model) => {
    try {
      return [{ id: model.id, name: model.name, image: networkUrl(model.image, client.base) }];
    } catch {
      return [];
    }
  });
}

/** "No photo? See it on a model" and, on a computer, "Use your phone": offered beside consent and the photo step. */
function alternativesRow(p: PanelContext): TemplateResult | typeof nothing {
  const { texts } = p;
  // Their screens' chunk did not load: said here, where the press that needed it was.
  const notLoaded = p.handoff.notLoaded
    ? html`<p class="body error" part="error" role="alert">${texts.t('alternativesNotLoaded')}</p>`
    : nothing;
  if (p.handoff.phone) return notLoaded;
  const models = (p.run.product?.models ?? []).length > 0;
  const phone = !p.smallScreen.matches;
  if (!models && !phone) return nothing;
  return html`${notLoaded}<div class="body actions alternatives" part="alternatives">
    ${models ? html`<button type="button" part="secondary-button" @click=${p.browseModels}>${texts.t('seeOnModel')}</button>` : nothing}
    ${phone ? html`<button type="button" part="secondary-button" @click=${p.handoff.start}>${texts.t('usePhone')}</button>` : nothing}
  </div>`;
}

/** The result step's inputs: the base try-on, or the outfit made over it ("Complete the look") once it has a piece. */
function resultInputs(p: PanelContext): Parameters<typeof resultStep>[0] {
  const { texts } = p;
  const session = p.run.session;
  const look = p.outfit.shown();
  return {
    texts,
    productName: look?.name ?? p.productName,
    outputs: look?.outputs ?? session.outputs,
    views: look?.views ?? session.views,
    selectedView: p.result.selectedView,
    before: p.photo.before(session.photo?.handle),
    compare: p.compare,
    // A video is of the base try-on alone: not offered over an outfit.
    offerVideo:
      !look &&
      session.complete &&
      p.host.video &&
      p.run.product?.video === true &&
      !session.outputs.some((o) => o.type === 'video') &&
      session.output === 'image',
    onSelect: (view) => p.result.select(view),
    onDownload: () => void p.result.download(),
    onShare: () => void p.result.share(),
    onAnotherPhoto: p.anotherPhoto,
    onForget: () => void p.forget(),
    onMakeVideo: () => p.run.makeVideo(),
    colourOffer: p.colours.offer(texts),
    onTryColour: p.colours.tryChosen,
    cart: session.complete ? p.cart.forResult() : undefined,
    fadeFrom: look ? look.fadeFrom : p.result.fadeFrom,
    offerColours: p.colours.offersAll(),
    onSeeColours: p.colours.seeAll,
    onImageError: p.imageFailed,
    round: p.result.pictureRound,
    outfit: p.outfit.view(),
    // The check is of the try-on the session holds: a piece shown over it claims nothing of its own.
    ...(look ? {} : { fidelity: fidelityOf(p) }),
  };
}

export function renderStep(p: PanelContext): TemplateResult | typeof nothing {
  const { texts, photo, productName } = p;
  const session = p.run.session;
  const alternatives = p.handoff.loaded;
  if (p.handoff.phone && (p.handoff.phone.state === 'sent' || p.handoff.phone.state === 'refused')) {
    // Loaded while the photo was sent (#sendToComputer); a moment's blank at worst.
    if (!alternatives) return nothing;
    const number = p.handoff.phone.number;
    return alternatives.phoneSentStep({
      texts,
      problem: p.handoff.phone.problem,
      number: alternatives.spacedNumber(number ?? ''),
      onClose: () => p.panel.hide(),
    });
  }
  const handoff = p.handoff.desk;
  if (handoff && alternatives && (session.status === 'consent' || session.status === 'photo')) {
    return alternatives.desktopHandoffStep({
      texts,
      qr: handoff.qr,
      code: handoff.code,
      left: alternatives.timeLeft(handoff.expiresAt ?? 0, Date.now()),
      state: handoff.state,
      problem: handoff.problem,
      onNewCode: () => void p.handoff.start(),
      onBack: p.handoff.close,
      onConfirm: p.handoff.confirm,
    });
  }
  if (session.status === 'photo' && session.browsingModels && !p.handoff.notLoaded) {
    // Back to the grid after a reload of the panel's state: its chunk is asked for, and renders when
    // in; if it cannot be loaded, the photo step shows with the words saying so.
    if (!alternatives) {
      p.handoff.screens().catch(() => undefined);
      return nothing;
    }
    return alternatives.modelsStep({
      texts,
      productName,
      models: models(p),
      onPick: (model) => p.run.useModel(model),
      onBack: () => {
        p.focusStep();
        p.run.closeModels();
      },
    });
  }
  switch (session.status) {
    case 'consent':
      return html`${consentStep({
        texts,
        productName,
        privacyUrl: p.host.privacyUrl,
        retention: p.run.product?.retention,
        checked: p.consentChecked,
        onCheck: (event) => {
          p.checkConsent((event.target as HTMLInputElement).checked);
        },
        onContinue: () => {
          if (!p.consentChecked) return;
          const words = consentText({
            texts,
            productName,
            privacyUrl: p.host.privacyUrl,
            retention: p.run.product?.retention,
          });
          void p.run.consent(consentWords(Object.values(words)), texts.code);
        },
      })}${alternativesRow(p)}`;
    case 'photo':
      return html`${photoStep({
        texts,
        thumbnail: photo.prepared ? photo.thumbnail : undefined,
        body: bodyNeeded(p.run.product),
        preparing: photo.preparing,
        dragging: photo.dragging,
        problem: photo.problem,
        hasLastPhoto: Boolean(lastPhoto(p.host.endpoint)),
        canForget: p.run.hasPhotoToForget(),
        onForget: () => void p.forget(),
        onDragOver: photo.onDragOver,
        onDragLeave: photo.onDragLeave,
        onDrop: photo.onDrop,
        // The photo check gates both ways a photo leaves the device: to the try-on, and to the computer.
        onSubmit: () => {
          if (!photo.prepared || !photo.allowsSend) return;
          if (p.handoff.phone) void p.handoff.sendToComputer(photo.prepared.blob);
          else void p.run.sendPhoto(photo.prepared.blob);
        },
        check:
          photo.check === 'loading'
            ? { view: nothing, allowsSend: false }
            : photo.check
              ? {
                  view: photo.check.view(p.root),
                  allowsSend: photo.check.allowsSend,
                  overlay: photo.check.overlay(),
                  refusing: photo.check.refusing,
                }
              : undefined,
        onPick: (camera) => p.root.querySelector<HTMLInputElement>(camera ? '#camera' : '#file')?.click(),
        onUseLastPhoto: () => p.run.useLastPhoto(),
        onFile: photo.onFile,
        phone: p.handoff.phone ? { sending: p.handoff.phone.state === 'sending' } : undefined,
      })}${alternativesRow(p)}`;
    case 'uploading':
    case 'queued':
    case 'rendering':
      return progressStep({
        texts,
        productName,
        uploading: session.status === 'uploading',
        percent: session.percent,
        elapsedSeconds: session.tryon
          ? Math.round(Math.max(0, p.clock.now - (session.submittedAt ?? p.clock.now)) / 1000)
          : undefined,
        // Whole seconds, at least one: a fast upstream's 0.4 s is "about 1 second", never "about 0".
        expectedSeconds: Math.max(1, Math.round(p.run.expectedMs() / 1000)),
        notAnswering: Boolean(session.notAnswering),
        onCancel: () => p.run.cancel(),
        longerThanUsual:
          session.tryon && p.longerThanUsual(session) && !p.clock.keptWaiting(session.tryon)
            ? { onKeepWaiting: p.keepWaiting }
            : undefined,
        firstLook: session.firstLook
          ? {
              output: session.firstLook,
              view: imageView(p),
              onLoad: p.firstLookPainted,
            }
          : undefined,
        // A view that differed from the product is being made again: said under the look shown meanwhile.
        fidelityNote:
          session.fidelity?.rerender === 'running' ? fidelityNote(texts, productName, fidelityOf(p)) : undefined,
      });
    case 'result':
      return p.colours.drafts.open && session.complete
        ? coloursStep({
            texts,
            productName,
            tiles: p.colours.drafts.tiles,
            chosen: p.colours.drafts.chosen,
            onChoose: p.colours.choose,
            onUpgrade: p.colours.upgrade,
            onBack: p.colours.back,
            onImageError: p.imageFailed,
          })
        : resultStep(resultInputs(p));
    case 'error': {
      // The full render failed after its first look: the shopper keeps the look and is told plainly.
      const kept =
        session.firstLook && session.failedStage === 'render'
          ? firstLook(texts, {
              output: session.firstLook,
              view: imageView(p),
              onLoad: () => undefined,
            })
          : undefined;
      // No action for a code that cannot succeed today (a spent budget): only Close.
      const action = actionLabel(session.error?.code);
      return errorStep({
        texts,
        message: kept ? texts.t('previewFullFailed') : session.error?.message,
        action: action && texts.t(action),
        onRetry: p.retry,
        onClose: () => p.panel.hide(),
        kept,
      });
    }
    default:
      return nothing;
  }
}
