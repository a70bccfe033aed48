// The shopper's try-on as a pure state machine: no DOM, no network, no clock. The panel feeds it
// what happened (an event) and renders what it returns, so every transition can be tested alone.
// Its types are in session-state.ts and what a status answer does in session-status.ts; both are
// re-exported here, the one module the rest of the widget imports.
import { hasOutput, initialSession, newTryon } from './session-state.js';
import type { SessionEvent, SessionState } from './session-state.js';
import type { TryonStatus } from '../core/events.js';
import { statusAfter } from './session-status.js';

export * from './session-state.js';

const resumable: TryonStatus[] = ['queued', 'rendering', 'result', 'error'];

/**
 * The requestId and variant of a try-on about to be sent: the session's own while the variant is
 * the same, else the new id with the new variant (a new variant is a new try-on).
 */
function sameTryonOr(
  state: SessionState,
  event: { requestId: string; variant?: string },
): Pick<SessionState, 'requestId' | 'variant'> {
  if (state.requestId && state.variant === event.variant) return { requestId: state.requestId, variant: state.variant };
  return { requestId: event.requestId, variant: event.variant };
}

/** A try-on is on screen: being made, or its result shown (what "not answering" and a failed picture apply to). */
export const showsTryon = (status: TryonStatus): boolean =>
  status === 'queued' || status === 'rendering' || status === 'result';

/** A try-on is being made: sent and not finished (queued, rendering, or a catalog's first views in). */
export const beingMade = (status: TryonStatus | undefined, complete: boolean): boolean =>
  status === 'queued' || status === 'rendering' || (status === 'result' && !complete);

/**
 * Closed while the try-on is being made, it is still watched (tryon-run.ts): what the watch
 * reports lands in `resume`, so reopening shows where it got to, the result included.
 */
export const watchedInBackground = (state: SessionState): boolean =>
  state.status === 'idle' && beingMade(state.resume, state.complete);

const backgroundEvents = new Set<SessionEvent['type']>(['submitted', 'status', 'failed', 'not-answering']);

/**
 * The session's first look, painted now, is one to tell the page of (`tryon-preview`): the draft of
 * the try-on under way while its full render is still being made, also when the dialog closed
 * meanwhile. A colour's draft shown while its full render is made is not a first look of that
 * try-on; nor is one painted after the full render came in (the image may finish loading after the
 * result replaced it).
 */
export function firstLookToTell(state: SessionState): boolean {
  const at = state.status === 'idle' ? state.resume : state.status;
  return Boolean(state.tryon && state.firstLook && !state.firstLookOff) && (at === 'queued' || at === 'rendering');
}

/** True once a try-on watched in the background has its result: the button shows its ready badge. */
export const readyInBackground = (state: SessionState): boolean =>
  state.status === 'idle' && state.resume === 'result' && state.complete && hasOutput(state);

export function nextSession(state: SessionState, event: SessionEvent): SessionState {
  if (watchedInBackground(state) && backgroundEvents.has(event.type)) {
    const inner = nextSession({ ...state, status: state.resume! }, event);
    return { ...inner, status: 'idle', resume: inner.status };
  }
  switch (event.type) {
    case 'open': {
      if (state.status !== 'idle') return state;
      if (!state.consented) return { ...state, status: 'consent', resume: undefined };
      const back = state.resume && resumable.includes(state.resume) ? state.resume : 'photo';
      return { ...state, status: back, resume: undefined };
    }
    case 'close':
      if (state.status === 'idle') return state;
      return { ...state, status: 'idle', resume: state.status };
    case 'consent':
      return state.status === 'consent' ? { ...state, consented: true, status: 'photo' } : state;
    case 'browse-models':
      if (state.status !== 'consent' && state.status !== 'photo') return state;
      return { ...state, status: 'photo', browsingModels: true };
    case 'models-closed':
      if (!state.browsingModels) return state;
      return {
        ...state,
        browsingModels: undefined,
        status: state.status === 'photo' && !state.consented ? 'consent' : state.status,
      };
    case 'use-handoff-photo':
      if (state.status !== 'consent' && state.status !== 'photo') return state;
      return {
        ...state,
        ...newTryon(event.requestId, event.variant),
        consented: true,
        status: 'queued',
        photo: event.photo,
        model: undefined,
        browsingModels: undefined,
        tryon: undefined,
      };
    case 'use-model':
      if (state.status !== 'photo') return state;
      return {
        ...state,
        ...newTryon(event.requestId, event.variant),
        status: 'queued',
        model: event.model,
        photo: undefined,
        browsingModels: undefined,
        tryon: undefined,
      };
    case 'photo-chosen':
      // A new photo is a new logical try-on.
      return {
        ...state,
        model: undefined,
        browsingModels: undefined,
        requestId: undefined,
        photo: undefined,
        tryon: undefined,
        error: undefined,
        firstLook: undefined,
        firstLookOff: undefined,
      };
    case 'upload-start': {
      if (!state.consented) return state;
      const { requestId, variant } = sameTryonOr(state, event);
      return { ...state, ...newTryon(requestId, variant), model: undefined, status: 'uploading', percent: 0 };
    }
    case 'upload-progress':
      return state.status === 'uploading' ? { ...state, percent: Math.max(0, Math.min(100, event.percent)) } : state;
    case 'uploaded':
      return { ...state, photo: event.photo, percent: 100 };
    case 'use-last-photo': {
      if (!state.consented) return state;
      const { requestId, variant } = sameTryonOr(state, event);
      return { ...state, ...newTryon(requestId, variant), status: 'queued', photo: event.photo, model: undefined };
    }
    case 'submitted':
      if (state.status === 'idle' || state.status === 'photo') return state;
      // The variant as checked against the product's list at submit (a quick shopper's choice may
      // have been made before the list was known).
      return {
        ...state,
        status: 'queued',
        tryon: event.tryon,
        views: event.views,
        submittedAt: event.at,
        variant: event.variant,
      };
    case 'status':
      if (!state.tryon || state.status === 'idle' || state.status === 'photo' || state.status === 'consent')
        return state;
      return { ...statusAfter(state, event.answer), notAnswering: undefined };
    case 'not-answering':
      if (!showsTryon(state.status)) return state;
      return { ...state, notAnswering: true };
    case 'failed':
      return { ...state, status: 'error', error: event.error, failedStage: event.stage, notAnswering: undefined };
    case 'retry': {
      if (state.status !== 'error') return state;
      const cleared = { ...state, error: undefined, failedStage: undefined };
      // A try-on not yet made upstream takes the variant chosen since, as a new try-on.
      const unmade = { ...cleared, ...sameTryonOr(state, event) };
      switch (state.failedStage) {
        case 'product':
          return { ...cleared, status: state.consented || state.model ? 'photo' : 'consent' };
        case 'photo':
          return { ...cleared, status: 'photo', photo: undefined, requestId: undefined, tryon: undefined };
        case 'upload':
          return { ...unmade, status: 'uploading', percent: 0 };
        case 'submit':
          return { ...unmade, status: 'queued' };
        case 'watch':
          return { ...cleared, status: hasOutput(state) ? 'result' : 'queued' };
        case 'render':
          // The failed job is final upstream: re-sending its requestId would return the same failure.
          return { ...cleared, status: 'queued', tryon: undefined, requestId: event.requestId, variant: event.variant };
        default:
          return { ...cleared, status: 'photo' };
      }
    }
    case 'cancel':
      if (!['uploading', 'queued', 'rendering'].includes(state.status)) return state;
      return {
        ...state,
        status: 'photo',
        tryon: undefined,
        percent: 0,
        submittedAt: undefined,
        notAnswering: undefined,
        firstLook: undefined,
        firstLookOff: undefined,
      };
    case 'forgotten':
      // "Forget my photo": nothing of it is left in the session; the shopper may pick another.
      return { ...initialSession(), consented: state.consented, status: 'photo' };
    case 'another-photo':
      return {
        ...state,
        ...newTryon(undefined, state.variant),
        status: state.consented ? 'photo' : 'consent',
        photo: undefined,
        model: undefined,
        tryon: undefined,
      };
    case 'video':
      if (!state.complete || (!state.photo && !state.model)) return state;
      // The image stays on screen while its video is made.
      return {
        ...state,
        ...newTryon(event.requestId, state.variant),
        status: 'queued',
        output: 'video',
        outputs: state.outputs,
        tryon: undefined,
      };
    case 'variant':
      if (!state.complete || state.status !== 'result') return state;
      return {
        ...state,
        ...newTryon(event.requestId, event.variant),
        status: event.upload ? 'uploading' : 'queued',
        photo: event.upload ? undefined : state.photo,
        tryon: undefined,
        percent: 0,
        submittedAt: undefined,
        firstLook: event.draft,
        firstLookOff: event.draft ? true : undefined,
      };
    case 'resume':
      return {
        ...state,
        consented: true,
        status: 'queued',
        tryon: event.tryon,
        requestId: event.requestId,
        variant: event.variant,
        views: event.views,
        output: event.output,
        submittedAt: event.at,
        outputs: [],
        complete: false,
        photo: event.photo,
        firstLook: undefined,
        firstLookOff: undefined,
        fidelity: undefined,
      };
    case 'product-changed':
      // A different product is a different try-on: everything but the shopper's consent starts over.
      return {
        ...initialSession(),
        consented: state.consented,
        status: state.status === 'idle' ? 'idle' : state.consented ? 'photo' : 'consent',
      };
  }
}
