import { expect } from '@open-wc/testing';
import { initialSession, nextSession, readyInBackground, watchedInBackground } from '../../widget/run/session.js';
import type { SessionEvent, SessionState } from '../../widget/run/session.js';

function run(...events: SessionEvent[]): SessionState {
  return events.reduce(nextSession, initialSession());
}

const photo = { handle: 'ph_1', expiresAt: '2030-01-01T00:00:00Z' };
const front = { view: 'front', url: 'https://shop.example/tryon/files/a', type: 'image' as const };
const side = { view: 'side', url: 'https://shop.example/tryon/files/b', type: 'image' as const };
const consented: SessionEvent[] = [{ type: 'open' }, { type: 'consent' }];
const submitted: SessionEvent[] = [
  ...consented,
  { type: 'upload-start', requestId: 'req-1' },
  { type: 'uploaded', photo },
  { type: 'submitted', tryon: 'tr_1', views: ['front', 'side'], at: 1000, variant: undefined },
];

describe('the session state machine', () => {
  it('starts idle and asks for consent before anything else', () => {
    expect(run().status).to.equal('idle');
    expect(run({ type: 'open' }).status).to.equal('consent');
    // No upload can start without consent.
    expect(run({ type: 'open' }, { type: 'upload-start', requestId: 'r' }).status).to.equal('consent');
    expect(run({ type: 'open' }, { type: 'use-last-photo', photo, requestId: 'r' }).status).to.equal('consent');
    expect(run(...consented).status).to.equal('photo');
  });

  it('walks uploading → queued → rendering → result', () => {
    const uploading = run(
      ...consented,
      { type: 'upload-start', requestId: 'req-1' },
      { type: 'upload-progress', percent: 140 },
    );
    expect(uploading).to.deep.include({ status: 'uploading', percent: 100, requestId: 'req-1' });
    const queued = run(...submitted);
    expect(queued).to.deep.include({ status: 'queued', tryon: 'tr_1', submittedAt: 1000 });
    const rendering = nextSession(queued, { type: 'status', answer: { status: 'processing', outputs: [] } });
    expect(rendering.status).to.equal('rendering');
    const unknown = nextSession(queued, { type: 'status', answer: { status: 'upscaling', outputs: [] } });
    expect(unknown.status).to.equal('rendering');
    const partial = nextSession(rendering, { type: 'status', answer: { status: 'processing', outputs: [front] } });
    expect(partial).to.deep.include({ status: 'result', complete: false });
    const done = nextSession(partial, { type: 'status', answer: { status: 'succeeded', outputs: [front, side] } });
    expect(done).to.deep.include({ status: 'result', complete: true });
    expect(done.outputs).to.deep.equal([front, side]);
  });

  it('keeps the requestId across retries of an upload or a submit', () => {
    const failedSubmit = run(...submitted.slice(0, 4), {
      type: 'failed',
      stage: 'submit',
      error: { code: 'upstream_unavailable', message: 'm', retryable: true },
    });
    expect(failedSubmit.status).to.equal('error');
    const retried = nextSession(failedSubmit, { type: 'retry', requestId: 'req-NEW' });
    expect(retried).to.deep.include({ status: 'queued', requestId: 'req-1' });
    const failedUpload = run(
      ...consented,
      { type: 'upload-start', requestId: 'req-1' },
      { type: 'failed', stage: 'upload', error: { code: 'offline', message: 'm', retryable: true } },
    );
    expect(nextSession(failedUpload, { type: 'retry', requestId: 'req-NEW' })).to.deep.include({
      status: 'uploading',
      requestId: 'req-1',
    });
    // A second upload-start (after the retry) keeps it too.
    expect(nextSession(failedUpload, { type: 'upload-start', requestId: 'req-2' }).requestId).to.equal('req-1');
  });

  it('starts a new logical try-on after a failed render, a new photo or "try another photo"', () => {
    const failed = nextSession(run(...submitted), { type: 'status', answer: { status: 'failed', outputs: [] } });
    expect(failed).to.deep.include({ status: 'error', failedStage: 'render' });
    expect(failed.error?.code).to.equal('render_failed');
    expect(nextSession(failed, { type: 'retry', requestId: 'req-2' })).to.deep.include({
      status: 'queued',
      requestId: 'req-2',
      tryon: undefined,
    });
    expect(nextSession(run(...submitted), { type: 'photo-chosen' }).requestId).to.equal(undefined);
    const another = nextSession(run(...submitted), { type: 'another-photo' });
    expect(another).to.deep.include({ status: 'photo', requestId: undefined, tryon: undefined, complete: false });
  });

  it('sends a refused photo back to the photo step', () => {
    const refused = run(
      ...consented,
      { type: 'upload-start', requestId: 'r' },
      { type: 'failed', stage: 'photo', error: { code: 'photo_too_small', message: 'm', retryable: false } },
    );
    expect(nextSession(refused, { type: 'retry', requestId: 'x' })).to.deep.include({
      status: 'photo',
      requestId: undefined,
    });
  });

  it('cancel goes back to the photo step; closing and reopening returns to where it was', () => {
    expect(nextSession(run(...submitted), { type: 'cancel' })).to.deep.include({ status: 'photo', tryon: undefined });
    expect(nextSession(run(...consented), { type: 'cancel' }).status).to.equal('photo');
    const closed = nextSession(run(...submitted), { type: 'close' });
    expect(closed).to.deep.include({ status: 'idle', resume: 'queued' });
    expect(nextSession(closed, { type: 'open' }).status).to.equal('queued');
    const closedUploading = nextSession(run(...consented, { type: 'upload-start', requestId: 'r' }), { type: 'close' });
    expect(nextSession(closedUploading, { type: 'open' }).status).to.equal('photo');
    expect(nextSession(nextSession(run({ type: 'open' }), { type: 'close' }), { type: 'open' }).status).to.equal(
      'consent',
    );
  });

  it('makes a video only after a finished image, with a new requestId', () => {
    const done = nextSession(run(...submitted), { type: 'status', answer: { status: 'succeeded', outputs: [front] } });
    expect(nextSession(run(...submitted), { type: 'video', requestId: 'v' }).output).to.equal('image');
    const video = nextSession(done, { type: 'video', requestId: 'req-video' });
    expect(video).to.deep.include({ status: 'queued', output: 'video', requestId: 'req-video', tryon: undefined });
    const stillImage = nextSession(
      { ...video, tryon: 'tr_2' },
      { type: 'status', answer: { status: 'processing', outputs: [front] } },
    );
    // The earlier image does not count as the video's result.
    expect(stillImage.status).to.equal('rendering');
  });

  it('a changed product keeps only the consent, and returns an open dialog to the photo step', () => {
    const changed = nextSession(run(...submitted), { type: 'product-changed' });
    expect(changed).to.deep.include({ status: 'photo', consented: true, outputs: [] });
    expect([changed.tryon, changed.requestId, changed.photo]).to.deep.equal([undefined, undefined, undefined]);
    expect(nextSession(run({ type: 'open' }), { type: 'product-changed' }).status).to.equal('consent');
    const closed = nextSession(nextSession(run(...submitted), { type: 'close' }), { type: 'product-changed' });
    expect([closed.status, closed.resume]).to.deep.equal(['idle', undefined]);
  });

  it('resumes with the photo the stored try-on was made from', () => {
    const resumed = run({
      type: 'resume',
      tryon: 'tr_9',
      requestId: 'req-9',
      views: ['front'],
      output: 'image',
      at: 5,
      photo,
    });
    expect(resumed.photo).to.deep.equal(photo);
  });

  it('resumes a stored try-on straight into watching it', () => {
    const resumed = run({
      type: 'resume',
      tryon: 'tr_9',
      requestId: 'req-9',
      views: ['front'],
      output: 'image',
      at: 5,
    });
    expect(resumed).to.deep.include({
      status: 'queued',
      consented: true,
      tryon: 'tr_9',
      requestId: 'req-9',
      submittedAt: 5,
    });
  });
});

describe('the session and the variant', () => {
  const ivory: SessionEvent[] = [
    ...consented,
    { type: 'upload-start', requestId: 'req-1', variant: 'ivory' },
    { type: 'uploaded', photo },
    { type: 'submitted', tryon: 'tr_1', views: ['front'], at: 1000, variant: 'ivory' },
  ];
  const shown = [...ivory, { type: 'status', answer: { status: 'succeeded', outputs: [front] } } as SessionEvent];
  const failed = (stage: 'upload' | 'submit' | 'watch' | 'render'): SessionEvent => ({
    type: 'failed',
    stage,
    error: { code: 'upstream_unavailable', message: 'm', retryable: true },
  });

  it('fixes the variant with the requestId when a try-on starts', () => {
    expect(run(...ivory)).to.deep.include({ requestId: 'req-1', variant: 'ivory' });
    const last = run(...consented, { type: 'use-last-photo', photo, requestId: 'req-2', variant: 'sindoor-red' });
    expect(last).to.deep.include({ requestId: 'req-2', variant: 'sindoor-red' });
  });

  it("takes the variant as sent: a choice the product does not list is the product's own garment", () => {
    // Pressed before the product's list arrived, the page's raw choice started the try-on.
    const unlisted: SessionEvent[] = [
      ...consented,
      { type: 'upload-start', requestId: 'req-1', variant: '4487' },
      { type: 'uploaded', photo },
    ];
    expect(run(...unlisted).variant).to.equal('4487');
    expect(
      run(...unlisted, { type: 'submitted', tryon: 'tr_1', views: ['front'], at: 1000, variant: undefined }),
    ).to.deep.include({ requestId: 'req-1', variant: undefined, tryon: 'tr_1' });
  });

  it('a new variant is a new requestId; the same variant keeps it', () => {
    const cancelled = run(...ivory, { type: 'cancel' });
    expect(nextSession(cancelled, { type: 'upload-start', requestId: 'req-NEW', variant: 'ivory' })).to.deep.include({
      requestId: 'req-1',
      variant: 'ivory',
    });
    expect(
      nextSession(cancelled, { type: 'upload-start', requestId: 'req-NEW', variant: 'sindoor-red' }),
    ).to.deep.include({ requestId: 'req-NEW', variant: 'sindoor-red' });
    expect(nextSession(cancelled, { type: 'upload-start', requestId: 'req-NEW' })).to.deep.include({
      requestId: 'req-NEW',
      variant: undefined,
    });
  });

  it('a retry of a try-on not yet made takes the variant chosen since, as a new try-on', () => {
    const submitFailed = run(...ivory.slice(0, 4), failed('submit'));
    expect(nextSession(submitFailed, { type: 'retry', requestId: 'req-NEW', variant: 'ivory' })).to.deep.include({
      status: 'queued',
      requestId: 'req-1',
      variant: 'ivory',
    });
    expect(nextSession(submitFailed, { type: 'retry', requestId: 'req-NEW', variant: 'sindoor-red' })).to.deep.include({
      status: 'queued',
      requestId: 'req-NEW',
      variant: 'sindoor-red',
    });
    const uploadFailed = run(...ivory.slice(0, 3), failed('upload'));
    expect(nextSession(uploadFailed, { type: 'retry', requestId: 'req-NEW', variant: 'sindoor-red' })).to.deep.include({
      status: 'uploading',
      requestId: 'req-NEW',
      variant: 'sindoor-red',
    });
    // A render that failed is final upstream: the retry is a new try-on anyway, of the colour chosen now.
    const renderFailed = run(...ivory, failed('render'));
    expect(nextSession(renderFailed, { type: 'retry', requestId: 'req-NEW', variant: 'sindoor-red' })).to.deep.include({
      requestId: 'req-NEW',
      variant: 'sindoor-red',
    });
    // Watching failed: the try-on exists upstream and is watched again, its variant unchanged.
    const watchFailed = run(...ivory, failed('watch'));
    expect(nextSession(watchFailed, { type: 'retry', requestId: 'req-NEW', variant: 'sindoor-red' })).to.deep.include({
      tryon: 'tr_1',
      requestId: 'req-1',
      variant: 'ivory',
    });
  });

  it('"Try this colour" starts a new try-on with the same photo, or an upload when its handle has expired', () => {
    const next = nextSession(run(...shown), {
      type: 'variant',
      requestId: 'req-2',
      variant: 'sindoor-red',
      upload: false,
    });
    expect(next).to.deep.include({
      status: 'queued',
      requestId: 'req-2',
      variant: 'sindoor-red',
      photo,
      tryon: undefined,
      complete: false,
      output: 'image',
    });
    expect(next.outputs).to.deep.equal([]);
    const uploading = nextSession(run(...shown), {
      type: 'variant',
      requestId: 'req-2',
      variant: 'sindoor-red',
      upload: true,
    });
    expect(uploading).to.deep.include({ status: 'uploading', photo: undefined, requestId: 'req-2', percent: 0 });
    // Only from a finished result.
    const running = run(...ivory);
    expect(
      nextSession(running, { type: 'variant', requestId: 'req-2', variant: 'sindoor-red', upload: false }),
    ).to.equal(running);
  });

  it("a video of the result is of the result's variant", () => {
    expect(nextSession(run(...shown), { type: 'video', requestId: 'req-3' })).to.deep.include({
      output: 'video',
      requestId: 'req-3',
      variant: 'ivory',
    });
  });

  it('resumes a stored try-on with its variant', () => {
    expect(
      run({
        type: 'resume',
        tryon: 'tr_9',
        requestId: 'req-9',
        variant: 'ivory',
        views: ['front'],
        output: 'image',
        at: 5,
      }).variant,
    ).to.equal('ivory');
  });

  it('says the service is not answering while watching, and the next answer clears it', () => {
    const silent = run(...submitted, { type: 'not-answering' });
    expect(silent).to.deep.include({ status: 'queued', notAnswering: true });
    const back = nextSession(silent, { type: 'status', answer: { status: 'processing', outputs: [] } });
    expect(back).to.deep.include({ status: 'rendering', notAnswering: undefined });
    // Nothing is being watched before a submit or after a cancel.
    expect(run(...consented, { type: 'not-answering' }).notAnswering).to.equal(undefined);
    expect(nextSession(silent, { type: 'cancel' }).notAnswering).to.equal(undefined);
  });

  it('closed mid-render, the watch goes on in the background and reopening shows its result', () => {
    const closed = run(
      ...submitted,
      { type: 'status', answer: { status: 'processing', outputs: [] } },
      { type: 'close' },
    );
    expect(closed).to.deep.include({ status: 'idle', resume: 'rendering' });
    expect(watchedInBackground(closed)).to.equal(true);
    const done = nextSession(closed, { type: 'status', answer: { status: 'succeeded', outputs: [front, side] } });
    expect(done).to.deep.include({ status: 'idle', resume: 'result', complete: true });
    expect(done.outputs).to.deep.equal([front, side]);
    expect(readyInBackground(done)).to.equal(true);
    expect(readyInBackground(closed)).to.equal(false);
    expect(nextSession(done, { type: 'open' }).status).to.equal('result');
    // A failure in the background waits for the dialog too.
    const failed = nextSession(closed, {
      type: 'failed',
      stage: 'render',
      error: { code: 'render_failed', message: 'm', retryable: true },
    });
    expect(failed).to.deep.include({ status: 'idle', resume: 'error' });
    expect(nextSession(failed, { type: 'open' }).status).to.equal('error');
    // Closed before anything was sent, nothing is watched.
    expect(watchedInBackground(run(...consented, { type: 'close' }))).to.equal(false);
  });
  it('"See it on a model": from consent without consenting, straight to the try-on; back goes to consent', () => {
    const grid = run({ type: 'open' }, { type: 'browse-models' });
    expect([grid.status, grid.browsingModels, grid.consented]).to.deep.equal(['photo', true, false]);
    expect(run({ type: 'open' }, { type: 'browse-models' }, { type: 'models-closed' }).status).to.equal('consent');
    const picked = run(
      { type: 'open' },
      { type: 'browse-models' },
      { type: 'use-model', model: 'asha', requestId: 'req-m' },
    );
    expect([picked.status, picked.model, picked.photo, picked.consented]).to.deep.equal([
      'queued',
      'asha',
      undefined,
      false,
    ]);
    // Uploading a photo still needs consent; a chosen photo drops the model.
    expect(nextSession(picked, { type: 'upload-start', requestId: 'req-2' }).status).to.equal('queued');
    expect(nextSession(picked, { type: 'photo-chosen' }).model).to.equal(undefined);
  });

  it('a photo from a hand-off is tried on at once, with the consent given on the phone', () => {
    const state = run({ type: 'open' }, { type: 'use-handoff-photo', photo, requestId: 'req-h' });
    expect([state.status, state.consented, state.photo?.handle, state.requestId]).to.deep.equal([
      'queued',
      true,
      'ph_1',
      'req-h',
    ]);
    // Not while a try-on is under way.
    expect(run(...submitted, { type: 'use-handoff-photo', photo, requestId: 'req-x' }).requestId).to.equal('req-1');
  });
});
