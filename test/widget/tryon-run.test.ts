// The run controller on its own (run/tryon-run.ts), against the fake proxy in a real
// browser: the states one try-on goes through and the events each change reports, the awaitable
// end of a run (`complete`), "Try again" after a refused submit without a second charge (the same
// requestId, no second upload), cancel, and a first look painted after the full render not one to tell.
import { expect } from '@open-wc/testing';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { TryonRun } from '../../widget/run/tryon-run.js';
import type { RunChange } from '../../widget/run/tryon-run.js';
import { currentTryon } from '../../widget/core/storage.js';
import { firstLookToTell } from '../../widget/run/session.js';
import { drawnPhoto, fakeProxy, until } from './helpers.js';
import type { Fake, Scenario } from './helpers.js';

/** A host with nothing but what a controller needs: it counts the updates asked for. */
class Host implements ReactiveControllerHost {
  updates = 0;
  readonly controllers: ReactiveController[] = [];
  addController(controller: ReactiveController): void {
    this.controllers.push(controller);
  }
  removeController(): void {}
  requestUpdate(): void {
    this.updates += 1;
  }
  readonly updateComplete = Promise.resolve(true);
}

interface Started {
  run: TryonRun;
  /** The photo the shopper chose, prepared. */
  photo: Blob;
  fake: Fake;
  changes: RunChange[];
  /** The statuses the session went through, each once in a row. */
  statuses(): string[];
  /** The public events reported, by name, in order. */
  reported(): string[];
}

async function started(scenario: Scenario = {}): Promise<Started> {
  const fake = await fakeProxy(scenario);
  const photo = await drawnPhoto(400, 500);
  const run = new TryonRun({
    panel: new Host(),
    host: { endpoint: fake.endpoint, product: 'saree-red', views: '', variant: '', pollInterval: 50 },
    texts: { errorMessage: (code) => `words for ${code}` },
  });
  const changes: RunChange[] = [];
  run.subscribe((change) => changes.push(change));
  run.enter();
  await run.consent('I agree', 'en');
  return {
    run,
    photo,
    fake,
    changes,
    statuses: () => changes.map((c) => c.after.status).filter((status, i, all) => i === 0 || all[i - 1] !== status),
    reported: () => changes.flatMap((c) => c.reports.map(([name]) => name)),
  };
}

describe('the try-on run', () => {
  beforeEach(() => sessionStorage.clear());

  it('goes consent → photo → uploading → queued → rendering → result, reporting each step once, in order', async () => {
    const { run, photo, fake, statuses, reported, changes } = await started();
    void run.sendPhoto(photo);
    const session = await run.complete;
    expect(session.status).to.equal('result');
    expect(session.complete).to.equal(true);
    expect(statuses()).to.deep.equal(['consent', 'photo', 'uploading', 'queued', 'rendering', 'result']);
    const names = reported().filter((name, i, all) => i === 0 || all[i - 1] !== name);
    expect(names).to.deep.equal(['tryon-progress', 'tryon-submit', 'tryon-progress', 'tryon-result']);
    // The result is reported by the change that brought it, after that change's progress.
    const last = changes.find((c) => c.reports.some(([name]) => name === 'tryon-result'))!;
    expect(last.reports.map(([name]) => name)).to.deep.equal(['tryon-progress', 'tryon-result']);
    expect(last.after.outputs.map((o) => o.view)).to.deep.equal(['front']);
    // A result in is not resumed after a reload: storage forgot the try-on.
    expect(currentTryon(fake.endpoint, 'saree-red')).to.equal(undefined);
  });

  it('complete settles only once the run under way has (and at once when none is)', async () => {
    const { run, photo, fake } = await started({
      steps: [{ status: 'queued' }, { hold: true }, { status: 'succeeded', outputs: ['front'] }],
    });
    expect((await run.complete).status).to.equal('photo');
    let settled = false;
    void run.sendPhoto(photo);
    const complete = run.complete.then((session) => {
      settled = true;
      return session;
    });
    await until(async () => (await fake.log()).some((r) => r.held), 'the watch held');
    expect(settled).to.equal(false);
    expect(run.session.status).to.equal('queued');
    await fake.release();
    expect((await complete).status).to.equal('result');
  });

  it('"Try again" after a refused submit sends the same requestId again, without a second upload', async () => {
    const { run, photo, fake, reported } = await started({
      tryonErrors: [{ status: 503, code: 'upstream_unavailable', retryable: true }],
    });
    void run.sendPhoto(photo);
    const failed = await run.complete;
    expect(failed).to.deep.include({ status: 'error', failedStage: 'submit' });
    expect(failed.error).to.deep.equal({
      code: 'upstream_unavailable',
      message: 'words for upstream_unavailable',
      retryable: true,
    });
    expect(reported()).to.include('tryon-error');
    run.retry();
    expect((await run.complete).status).to.equal('result');
    const log = await fake.log();
    const submits = log.filter((r) => r.method === 'POST' && r.path === '/tryons');
    expect(submits).to.have.length(2);
    expect(submits[1]!.body!['requestId']).to.equal(submits[0]!.body!['requestId']);
    expect(log.filter((r) => r.method === 'POST' && r.path === '/photos')).to.have.length(1);
  });

  it('cancel stops the watch: back to the photo step, no result reported, nothing kept for a reload', async () => {
    const { run, photo, fake, reported } = await started({
      steps: [{ status: 'queued' }, { hold: true }, { status: 'succeeded', outputs: ['front'] }],
      sse: false,
      holdPolls: true,
    });
    void run.sendPhoto(photo);
    await until(() => run.session.tryon, 'the try-on submitted');
    expect(currentTryon(fake.endpoint, 'saree-red')?.tryon).to.equal(run.session.tryon);
    const complete = run.complete;
    run.cancel();
    const session = await complete;
    expect(session.status).to.equal('photo');
    expect(session.tryon).to.equal(undefined);
    expect(currentTryon(fake.endpoint, 'saree-red')).to.equal(undefined);
    await fake.release();
    expect(reported()).to.not.include('tryon-result');
    expect(run.session.status).to.equal('photo');
  });

  it('a first look is one to tell while the full render is made, and not once that came in', async () => {
    const { run, photo, changes } = await started({
      steps: [
        { status: 'queued' },
        { status: 'processing', preview: 'succeeded' },
        { status: 'succeeded', outputs: ['front'], preview: 'succeeded' },
      ],
    });
    void run.sendPhoto(photo);
    expect((await run.complete).status).to.equal('result');
    expect(
      changes.some((c) => c.after.firstLook && firstLookToTell(c.after)),
      'while rendering',
    ).to.equal(true);
    // Its image finished loading only now (it had been replaced by the result): nothing to tell.
    expect(firstLookToTell(run.session)).to.equal(false);
  });

  it('a first look that arrives with the full render is not taken', async () => {
    const { run, photo, changes } = await started({
      steps: [{ status: 'queued' }, { status: 'succeeded', outputs: ['front'], preview: 'succeeded' }],
    });
    void run.sendPhoto(photo);
    const session = await run.complete;
    expect(session.status).to.equal('result');
    expect(session.firstLook).to.equal(undefined);
    expect(changes.some((c) => c.after.firstLook)).to.equal(false);
  });
});
