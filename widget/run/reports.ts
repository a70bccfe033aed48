// What each change of a run tells the world outside the dialog, worked out in this one place: the
// public event it reports (tryon-submit, -progress, -result, -fidelity, -error, -close) and what the
// tab's storage keeps or forgets for a reload. Both follow from the change alone (the session
// before and after, and what happened), so the run (tryon-run.ts) has a single channel back to the
// panel: the changes it publishes.
import { hasOutput } from './session.js';
import type { SessionEvent, SessionState } from './session.js';
import type { Unavailable } from '../core/availability.js';
import { forgetPhoto, forgetTryon, rememberPhoto, rememberTryon } from '../core/storage.js';
import { tryonSubject } from '../core/events.js';
import type { TryonEventDetail, TryonEventName, TryonSubject } from '../core/events.js';

/** What a run says that changes nothing in the session: it is published all the same. */
export type RunNotice =
  /** The try-on is being sent to the proxy: `views` and `variant` as they are sent. */
  | { type: 'submitting'; views: string[]; variant: string | undefined }
  /** What the proxy said of the product on opening: it can be tried on now (''), or why not. */
  | { type: 'availability'; reason: Unavailable };

/** One change of a run: the session before and after `event` (the same session for a notice). */
export interface RunChange {
  before: SessionState;
  after: SessionState;
  event: SessionEvent | RunNotice;
  /** The public events this change reports, in order (from reportsOf). */
  reports: Report[];
}

/** A public event to report: its name and its detail (a pair, kept small: it is in the panel's chunk). */
export type Report = { [K in TryonEventName]: [name: K, detail: TryonEventDetail<K>] }[TryonEventName];

/** What the reports need besides the change: read from the element at the moment of the change. */
export interface ReportFacts {
  endpoint: string;
  product: string;
  /** The variant chosen on the page now, as it would be tried on. */
  chosenVariant: string | undefined;
  /** Expected time of the current try-on, from the product's tier. */
  expectedMs: number;
}

/** The try-on's result is in: complete, with an output of the kind it was making. */
const resultIn = (before: SessionState, after: SessionState): boolean =>
  after.complete && hasOutput(after) && !(before.complete && hasOutput(before));

/** What an event is about: the product, and the variant of the try-on under way (before one, the page's). */
function subjectOf(session: SessionState, facts: ReportFacts): TryonSubject {
  return tryonSubject(facts.product, session.requestId ? session.variant : facts.chosenVariant);
}

/** The public events a change reports, in the order the page hears them. */
export function reportsOf(before: SessionState, after: SessionState, event: RunChange['event'], facts: ReportFacts) {
  const reports: Report[] = [];
  const subject = subjectOf(after, facts);
  const elapsedMs = () => (after.submittedAt ? Math.max(0, Date.now() - after.submittedAt) : 0);
  switch (event.type) {
    case 'close':
      // Of the variant chosen on the page: the dialog closes, whatever try-on was under way.
      reports.push(['tryon-close', { ...subjectOf({ ...after, requestId: undefined }, facts), status: before.status }]);
      break;
    case 'upload-progress':
      reports.push(['tryon-progress', { ...subject, status: 'uploading', percent: after.percent }]);
      break;
    case 'submitting': {
      const { variant, views } = event;
      const detail = tryonSubject(facts.product, variant);
      reports.push(['tryon-submit', { ...detail, requestId: after.requestId ?? '', views, output: after.output }]);
      break;
    }
    case 'submitted':
      reports.push([
        'tryon-progress',
        { ...subject, status: 'queued', tryon: event.tryon, elapsedMs: 0, expectedMs: facts.expectedMs },
      ]);
      break;
    case 'status':
      if (!event.recheck) {
        const detail = { ...subject, status: after.status, tryon: after.tryon ?? '', elapsedMs: elapsedMs() };
        reports.push(['tryon-progress', { ...detail, expectedMs: facts.expectedMs }]);
      }
      if (resultIn(before, after)) {
        const { tryon = '', requestId = '', outputs } = after;
        reports.push(['tryon-result', { ...subject, tryon, requestId, outputs }]);
        // What the proxy's check found, when the proxy checks (it says `unchecked` when it could not).
        if (after.fidelity) reports.push(['tryon-fidelity', { ...subject, tryon, ...after.fidelity }]);
      }
      break;
    case 'failed':
      reports.push(['tryon-error', { ...subject, ...event.error }]);
      break;
  }
  return reports;
}

/** What the tab keeps for a reload after a change: the last photo, the try-on under way, or neither. */
export function keepForReload(change: RunChange, facts: ReportFacts): void {
  const { before, after, event } = change;
  const { endpoint, product } = facts;
  switch (event.type) {
    case 'uploaded':
      rememberPhoto(endpoint, { photo: event.photo.handle, expiresAt: event.photo.expiresAt });
      break;
    case 'submitted': {
      const { requestId = '', output, photo } = after;
      rememberTryon(endpoint, product, {
        tryon: event.tryon,
        requestId,
        // Kept as JSON, which leaves out a variant that is undefined (the product's own garment).
        variant: event.variant,
        views: event.views,
        output,
        submittedAt: event.at,
        ...(photo ? { photo: { photo: photo.handle, expiresAt: photo.expiresAt } } : {}),
      });
      break;
    }
    case 'status':
      // A result in needs no resuming.
      if (resultIn(before, after)) forgetTryon(endpoint, product);
      break;
    case 'failed':
      if (event.forget?.tryon) forgetTryon(endpoint, product);
      if (event.forget?.photo) forgetPhoto(endpoint);
      break;
    case 'cancel':
    case 'another-photo':
      forgetTryon(endpoint, product);
      break;
    case 'close':
      // Closed on a finished result: a reload starts afresh.
      if (before.complete) forgetTryon(endpoint, product);
      break;
  }
}
