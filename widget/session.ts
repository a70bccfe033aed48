// The shopper's try-on as a pure state machine: no DOM, no network, no clock. The panel feeds it
// what happened (an event) and renders what it returns, so every transition can be tested alone.
import type { TryonOutput, TryonStatus } from './events.js';

/** The part of the flow that failed, which decides what "Try again" does. */
export type FailedStage = 'product' | 'photo' | 'upload' | 'submit' | 'watch' | 'render';

export interface SessionError {
  code: string;
  message: string;
  retryable: boolean;
}

export interface SessionState {
  status: TryonStatus;
  consented: boolean;
  /** Once per logical try-on; kept across retries so the proxy never charges twice. */
  requestId?: string;
  /**
   * The variant (colour) of that try-on, fixed with its requestId: a variant chosen on the page
   * later applies to the next try-on and never to the one under way.
   */
  variant?: string;
  photo?: { handle: string; expiresAt: string };
  /** The shop's model this try-on is of ("See it on a model"), instead of a photo: no consent asked. */
  model?: string;
  /** The photo step shows the product's models to pick from. */
  browsingModels?: boolean;
  tryon?: string;
  output: 'image' | 'video';
  views: string[];
  outputs: TryonOutput[];
  /** True once the try-on succeeded (a catalog may show `result` before every view is in). */
  complete: boolean;
  percent: number;
  submittedAt?: number;
  error?: SessionError;
  failedStage?: FailedStage;
  /** Where reopening the dialog returns to after it was closed mid-flow. */
  resume?: TryonStatus;
  /**
   * The shop's try-on service stopped answering while this try-on was watched: the progress step
   * says so instead of counting time. Cleared by the next answer.
   */
  notAnswering?: boolean;
  /**
   * The first look: a quick draft image of this try-on, shown while the full render is made (and
   * kept when the full render fails after it). Never downloaded or shared: the full render replaces it.
   */
  preview?: TryonOutput;
  /** Set when the try-on under way was asked for without a first look (`preview: "off"`). */
  previewOff?: boolean;
}

/** The proxy's try-on status answer (docs/proxy.md). */
export interface ProxyStatus {
  status: 'queued' | 'processing' | 'succeeded' | 'failed' | string;
  outputs: TryonOutput[];
  error?: SessionError;
  /** The first look's own job, when the product has one: `status`/`outputs` above stay the full render's. */
  preview?: { status: string; outputs: TryonOutput[] };
}

export type SessionEvent =
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'consent' }
  | { type: 'photo-chosen' }
  | { type: 'upload-start'; requestId: string; variant?: string }
  | { type: 'upload-progress'; percent: number }
  | { type: 'uploaded'; photo: { handle: string; expiresAt: string } }
  | { type: 'use-last-photo'; photo: { handle: string; expiresAt: string }; requestId: string; variant?: string }
  /** "No photo? See it on a model": the grid of models, from the consent or the photo step (no consent needed). */
  | { type: 'browse-models' }
  /** Back from the grid: to the photo step, or to consent when it was never given. */
  | { type: 'models-closed' }
  /** A photo the shopper's phone gave by a hand-off: consent was given there; straight to the try-on. */
  | { type: 'use-handoff-photo'; photo: { handle: string; expiresAt: string }; requestId: string; variant?: string }
  /** A model picked: straight to the try-on. */
  | { type: 'use-model'; model: string; requestId: string; variant?: string }
  /** `variant` as sent: the page's choice checked against the product's list, undefined for the product's own garment. */
  | { type: 'submitted'; tryon: string; views: string[]; at: number; variant: string | undefined }
  | { type: 'status'; answer: ProxyStatus }
  | { type: 'failed'; stage: FailedStage; error: SessionError }
  | { type: 'retry'; requestId: string; variant?: string }
  | { type: 'cancel' }
  | { type: 'another-photo' }
  | { type: 'video'; requestId: string }
  /** "Try this colour": the same photo, another variant; `upload` when the photo's handle has expired. */
  /** With `draft` ("Make this one in full quality"): that colour's draft is the first look while its full render is made. */
  | { type: 'variant'; requestId: string; variant?: string; upload: boolean; draft?: TryonOutput }
  | {
      type: 'resume';
      tryon: string;
      requestId: string;
      variant?: string;
      views: string[];
      output: 'image' | 'video';
      at: number;
      photo?: { handle: string; expiresAt: string };
    }
  | { type: 'product-changed' }
  | { type: 'forgotten' }
  /** Watching got no answer from the shop's try-on service; watching goes on. */
  | { type: 'not-answering' };

export function initialSession(): SessionState {
  return { status: 'idle', consented: false, output: 'image', views: [], outputs: [], complete: false, percent: 0 };
}

const resumable: TryonStatus[] = ['queued', 'rendering', 'result', 'error'];

/** True when the session holds an output of the kind it is making (an image, or the video). */
export const hasOutput = (state: SessionState): boolean => state.outputs.some((o) => o.type === state.output);

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

function mergeOutputs(known: TryonOutput[], incoming: TryonOutput[]): TryonOutput[] {
  const merged = [...known];
  for (const output of incoming) {
    const at = merged.findIndex((o) => o.view === output.view && o.type === output.type);
    if (at >= 0) merged[at] = output;
    else merged.push(output);
  }
  return merged;
}

/** The first look's image once its job succeeded; a failed or unfinished preview shows nothing. */
function previewOf(answer: ProxyStatus): TryonOutput | undefined {
  const preview = answer.preview;
  if (!preview || preview.status !== 'succeeded' || !Array.isArray(preview.outputs)) return undefined;
  return preview.outputs.find((o) => o.type === 'image');
}

function statusAfter(state: SessionState, answer: ProxyStatus): SessionState {
  const outputs = mergeOutputs(state.outputs, answer.outputs);
  const preview = previewOf(answer) ?? state.preview;
  state = preview ? { ...state, preview } : state;
  const ofThisJob = answer.outputs.some((o) => o.type === state.output);
  switch (answer.status) {
    case 'succeeded':
      return { ...state, status: 'result', outputs, complete: true, error: undefined, failedStage: undefined };
    case 'failed':
      return {
        ...state,
        status: 'error',
        outputs,
        error: answer.error ?? { code: 'render_failed', message: '', retryable: true },
        failedStage: 'render',
      };
    case 'queued':
      return { ...state, status: ofThisJob ? 'result' : 'queued', outputs, complete: false };
    default:
      // Unknown non-terminal states are treated as rendering, as the proxy does upstream.
      return { ...state, status: ofThisJob ? 'result' : 'rendering', outputs, complete: false };
  }
}

/**
 * Closed while the try-on is being made, it is still watched (tryon-run.ts): what the watch
 * reports lands in `resume`, so reopening shows where it got to, the result included.
 */
export const watchedInBackground = (state: SessionState): boolean =>
  state.status === 'idle' &&
  (state.resume === 'queued' || state.resume === 'rendering' || (state.resume === 'result' && !state.complete));

const backgroundEvents = new Set<SessionEvent['type']>(['submitted', 'status', 'failed', 'not-answering']);

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
        consented: true,
        status: 'queued',
        photo: event.photo,
        model: undefined,
        browsingModels: undefined,
        tryon: undefined,
        requestId: event.requestId,
        variant: event.variant,
        output: 'image',
        outputs: [],
        complete: false,
        error: undefined,
        failedStage: undefined,
        preview: undefined,
        previewOff: undefined,
      };
    case 'use-model':
      if (state.status !== 'photo') return state;
      return {
        ...state,
        status: 'queued',
        model: event.model,
        photo: undefined,
        browsingModels: undefined,
        tryon: undefined,
        requestId: event.requestId,
        variant: event.variant,
        output: 'image',
        outputs: [],
        complete: false,
        error: undefined,
        failedStage: undefined,
        preview: undefined,
        previewOff: undefined,
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
        preview: undefined,
        previewOff: undefined,
      };
    case 'upload-start':
      if (!state.consented) return state;
      return {
        ...state,
        model: undefined,
        status: 'uploading',
        percent: 0,
        output: 'image',
        outputs: [],
        complete: false,
        ...sameTryonOr(state, event),
        error: undefined,
        failedStage: undefined,
        preview: undefined,
        previewOff: undefined,
      };
    case 'upload-progress':
      return state.status === 'uploading' ? { ...state, percent: Math.max(0, Math.min(100, event.percent)) } : state;
    case 'uploaded':
      return { ...state, photo: event.photo, percent: 100 };
    case 'use-last-photo':
      if (!state.consented) return state;
      return {
        ...state,
        status: 'queued',
        photo: event.photo,
        model: undefined,
        ...sameTryonOr(state, event),
        output: 'image',
        outputs: [],
        complete: false,
        error: undefined,
        failedStage: undefined,
        preview: undefined,
        previewOff: undefined,
      };
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
      if (state.status !== 'queued' && state.status !== 'rendering' && state.status !== 'result') return state;
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
        preview: undefined,
        previewOff: undefined,
      };
    case 'forgotten':
      // "Forget my photo": nothing of it is left in the session; the shopper may pick another.
      return { ...initialSession(), consented: state.consented, status: 'photo' };
    case 'another-photo':
      return {
        ...state,
        status: state.consented ? 'photo' : 'consent',
        requestId: undefined,
        photo: undefined,
        model: undefined,
        tryon: undefined,
        outputs: [],
        complete: false,
        error: undefined,
        failedStage: undefined,
        output: 'image',
        preview: undefined,
        previewOff: undefined,
      };
    case 'video':
      if (!state.complete || (!state.photo && !state.model)) return state;
      return {
        ...state,
        status: 'queued',
        output: 'video',
        requestId: event.requestId,
        tryon: undefined,
        complete: false,
        error: undefined,
        failedStage: undefined,
        preview: undefined,
        previewOff: undefined,
      };
    case 'variant':
      if (!state.complete || state.status !== 'result') return state;
      return {
        ...state,
        status: event.upload ? 'uploading' : 'queued',
        photo: event.upload ? undefined : state.photo,
        output: 'image',
        requestId: event.requestId,
        variant: event.variant,
        tryon: undefined,
        outputs: [],
        complete: false,
        percent: 0,
        submittedAt: undefined,
        error: undefined,
        failedStage: undefined,
        preview: event.draft,
        previewOff: event.draft ? true : undefined,
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
        preview: undefined,
        previewOff: undefined,
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
