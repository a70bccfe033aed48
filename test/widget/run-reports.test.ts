// What each change of a run reports and keeps (run/reports.ts), on its own: the public events a
// change brings, in order, and what the tab's storage keeps or forgets for a reload.
import { expect } from '@open-wc/testing';
import { initialSession, nextSession } from '../../widget/run/session.js';
import type { SessionEvent, SessionState } from '../../widget/run/session.js';
import { keepForReload, reportsOf } from '../../widget/run/reports.js';
import type { ReportFacts, RunNotice } from '../../widget/run/reports.js';
import { currentTryon, lastPhoto } from '../../widget/core/storage.js';

const facts: ReportFacts = {
  endpoint: '/reports-test',
  product: 'saree-red',
  chosenVariant: 'blue',
  expectedMs: 25000,
};
const photo = { handle: 'ph_1', expiresAt: new Date(Date.now() + 3600_000).toISOString() };
const front = { view: 'front', url: 'https://example.test/front.png', type: 'image' as const };

/** The session after these events, from a fresh one. */
const after = (...events: SessionEvent[]): SessionState => events.reduce(nextSession, initialSession());
const queued = after(
  { type: 'open' },
  { type: 'consent' },
  { type: 'upload-start', requestId: 'req-1', variant: 'red' },
  { type: 'uploaded', photo },
  { type: 'submitted', tryon: 'tr_1', views: ['front'], at: Date.now(), variant: 'red' },
);

/** Reports and storage of one change, as the run publishes it. */
function change(before: SessionState, event: SessionEvent | RunNotice) {
  const notice = event.type === 'submitting' || event.type === 'availability';
  const next = notice ? before : nextSession(before, event as SessionEvent);
  const reports = reportsOf(before, next, event, facts);
  keepForReload({ before, after: next, event, reports }, facts);
  return { next, names: reports.map(([name]) => name), reports };
}

describe('run reports', () => {
  beforeEach(() => sessionStorage.clear());

  it('a status answer with the result reports its progress, then the result, and forgets the try-on kept for a reload', () => {
    keepForReload(
      {
        before: queued,
        after: queued,
        event: { type: 'submitted', tryon: 'tr_1', views: ['front'], at: 1, variant: 'red' },
        reports: [],
      },
      facts,
    );
    expect(currentTryon(facts.endpoint, facts.product)?.tryon).to.equal('tr_1');
    const { names, reports } = change(queued, { type: 'status', answer: { status: 'succeeded', outputs: [front] } });
    expect(names).to.deep.equal(['tryon-progress', 'tryon-result']);
    expect(reports[1]![1]).to.deep.include({ product: 'saree-red', variant: 'red', tryon: 'tr_1', requestId: 'req-1' });
    expect(currentTryon(facts.endpoint, facts.product)).to.equal(undefined);
  });

  it('the answer asked again after a success without outputs reports no progress of its own', () => {
    const { names } = change(queued, {
      type: 'status',
      answer: { status: 'succeeded', outputs: [front] },
      recheck: true,
    });
    expect(names).to.deep.equal(['tryon-result']);
  });

  it('a failure reports tryon-error with the words shown, and forgets only what the error policy says', () => {
    rememberPhotoForTest();
    const error = { code: 'photo_expired', message: 'Choose your photo again', retryable: false };
    const { names, reports } = change(queued, { type: 'failed', stage: 'submit', error, forget: { photo: true } });
    expect(names).to.deep.equal(['tryon-error']);
    expect(reports[0]![1]).to.deep.equal({ product: 'saree-red', variant: 'red', ...error });
    expect(lastPhoto(facts.endpoint)).to.equal(undefined);
  });

  it('closing reports the step it was on, of the variant chosen on the page', () => {
    const { names, reports } = change(queued, { type: 'close' });
    expect(names).to.deep.equal(['tryon-close']);
    expect(reports[0]![1]).to.deep.equal({ product: 'saree-red', variant: 'blue', status: 'queued' });
  });

  it('a notice changes nothing in the session and reports what it says', () => {
    const submitting = change(queued, { type: 'submitting', views: ['front'], variant: 'red' });
    expect(submitting.next).to.equal(queued);
    expect(submitting.reports).to.deep.equal([
      ['tryon-submit', { product: 'saree-red', variant: 'red', requestId: 'req-1', views: ['front'], output: 'image' }],
    ]);
    expect(change(queued, { type: 'availability', reason: '' }).names).to.deep.equal([]);
  });
});

function rememberPhotoForTest(): void {
  const uploaded = after(
    { type: 'open' },
    { type: 'consent' },
    { type: 'upload-start', requestId: 'r', variant: undefined },
  );
  keepForReload({ before: uploaded, after: uploaded, event: { type: 'uploaded', photo }, reports: [] }, facts);
  expect(lastPhoto(facts.endpoint)?.photo).to.equal('ph_1');
}
