// What the shopper's try-on is (SessionState) and what can happen to it (SessionEvent): the types
// the reducer (session.ts) works on, apart from it so that the reducer and its status rules
// (session-status.ts) both build on them without a cycle. What the proxy answers about a try-on
// (ProxyStatus) is the proxy client's word (api/proxy-answers.ts).
import type { TryonFidelity, TryonOutput, TryonStatus } from '../core/events.js';
import type { ProxyStatus } from '../api/proxy-client.js';

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
  firstLook?: TryonOutput;
  /** Set when the try-on under way was asked for without a first look (sent as `preview: "off"`). */
  firstLookOff?: boolean;
  /** The proxy's check of this try-on against the product, as its last status said (absent: nothing claimed). */
  fidelity?: TryonFidelity | undefined;
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
  /** `recheck`: the answer asked for once more after a success without outputs, not a step of the watch the page hears of. */
  | { type: 'status'; answer: ProxyStatus; recheck?: boolean }
  /** `forget`: what of this try-on the tab's storage no longer keeps (the error policy's, or the render's end). */
  | { type: 'failed'; stage: FailedStage; error: SessionError; forget?: { tryon?: boolean; photo?: boolean } }
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

/** True when the session holds an output of the kind it is making (an image, or the video). */
export const hasOutput = (state: SessionState): boolean => state.outputs.some((o) => o.type === state.output);

/**
 * What every new logical try-on starts from: its requestId and variant, an image to make, nothing
 * made yet, no error, no first look. The cases of the reducer that begin a try-on spread it and
 * then say what is their own (a video keeps the image on screen, a colour's draft is its first look).
 */
export function newTryon(requestId: string | undefined, variant: string | undefined) {
  return {
    requestId,
    variant,
    output: 'image' as const,
    outputs: [] as TryonOutput[],
    complete: false,
    error: undefined,
    failedStage: undefined,
    firstLook: undefined,
    firstLookOff: undefined,
    fidelity: undefined,
  };
}
