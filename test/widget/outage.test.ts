// The shop's try-on service stops answering mid-render: the shopper is told within seconds that
// the service (not their connection) is not answering and that it keeps trying; no clock counts
// towards "usually about 25 seconds"; when the service answers again the run carries on by itself.
// A try-on the service no longer knows is said to be lost, with one button that says what it does.
import { expect } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import { actionLabel } from '../../widget/run/error-policy.js';
import {
  button,
  drawnPhoto,
  fakeProxy,
  mount,
  openAndConsent,
  panelRoot,
  pickPhoto,
  reach,
  recordEvents,
  statusText,
  until,
  submitTryon,
} from './helpers.js';
import type { FakeError, FakeRequest } from './helpers.js';

/** Every text the dialog's live region was given, in order. */
function recordAnnouncements(el: TryonButton): string[] {
  const said: string[] = [];
  const dialog = panelRoot(el).querySelector('dialog')!;
  new MutationObserver(() => {
    const text = statusText(el);
    if (text && text !== said.at(-1)) said.push(text);
  }).observe(dialog, { childList: true, characterData: true, subtree: true });
  return said;
}

const polls = (log: FakeRequest[]) => log.filter((r) => r.method === 'GET' && /^\/tryons\/[^/]+$/.test(r.path));

describe("when the shop's try-on service stops answering", () => {
  beforeEach(() => sessionStorage.clear());

  const outages: [string, FakeError][] = [
    ['connections refused', { status: 0, code: '', refused: true }],
    ["a gateway's 502 page in front of a stopped proxy", { status: 502, code: '', raw: '<html>Bad gateway</html>' }],
  ];
  for (const [what, error] of outages) {
    it(`says so within seconds, stops the clock, and resumes by itself (${what})`, async () => {
      // The stream is refused too (no SSE), so watching falls back to polls, which fail four times.
      const fake = await fakeProxy({
        sse: false,
        statusErrors: [error, error, error, error],
        steps: [{ status: 'processing' }, { status: 'succeeded', outputs: ['front'] }],
      });
      const el = await mount(fake);
      const events = recordEvents(el);
      await openAndConsent(el);
      // Listening before the try-on is sent: the first failed poll may come at once.
      const said = recordAnnouncements(el);
      await pickPhoto(el, await drawnPhoto(500, 700));
      button(el, 'Try it on').click();
      await until(() => statusText(el) === en.notAnswering, 'the words "not answering"', 10_000);
      const toldAt = Date.now();
      const firstFailed = polls(await fake.log())[0]!;
      expect(toldAt - firstFailed.at, 'told within 5 s of the first failed poll').to.be.below(5000);
      // The clock stops pretending: no elapsed time, no spinner, while the service is silent.
      const progress = panelRoot(el).querySelector('[part="progress"]')!;
      expect(progress.querySelector('.spinner')).to.equal(null);
      expect(progress.textContent).to.not.contain('usually about');
      expect(panelRoot(el).querySelector('[role="status"]')!.getAttribute('role')).to.equal('status');
      await expect(el).to.be.accessible();

      // The service answers again: the run carries on to the result with no press.
      await reach(el, 'result', 15_000);
      expect(said.filter((text) => text === en.notAnswering)).to.have.length(1);
      expect(events.filter((e) => e.type === 'tryon-error')).to.deep.equal([]);
      const log = await fake.log();
      expect(polls(log).length).to.equal(6);
      expect(log.filter((r) => r.path === '/tryons')).to.have.length(1);
    });
  }

  it('a proxy that has hung (a poll unanswered for 8 s) is not answering too, and the run resumes when it answers', async () => {
    const fake = await fakeProxy({
      sse: false,
      holdPolls: true,
      steps: [{ status: 'processing' }, { hold: true }, { status: 'succeeded', outputs: ['front'] }],
    });
    const el = await mount(fake);
    await openAndConsent(el);
    const said = recordAnnouncements(el);
    await pickPhoto(el, await drawnPhoto(500, 700));
    button(el, 'Try it on').click();
    const held = await until(async () => (await fake.log()).find((r) => r.held), 'a poll held by the hung proxy');
    await until(() => statusText(el) === en.notAnswering, 'the words "not answering"', 15_000);
    const after = Date.now() - held.at;
    expect(after, `told ${after} ms after the poll hung`).to.be.within(7000, 13_000);
    // The page gives the poll up as it says so; the fake server hears the connection close a moment later.
    await until(
      async () => (await fake.log()).find((r) => r.held)?.closedByClient === true,
      'the hung poll was given up',
      5000,
    );
    await fake.release();
    await reach(el, 'result', 15_000);
    expect(said.filter((text) => text === en.notAnswering)).to.have.length(1);
  });

  it('a first look whose picture fails while the service is down is that outage, not a broken try-on, and loads when it is back', async () => {
    const fake = await fakeProxy({
      sse: false,
      outageAfterPreview: true,
      steps: [
        { status: 'processing', preview: 'succeeded' },
        { hold: true },
        { status: 'succeeded', outputs: ['front'] },
      ],
    });
    const el = await mount(fake);
    const events = recordEvents(el);
    await openAndConsent(el);
    await pickPhoto(el, await drawnPhoto(500, 700));
    button(el, 'Try it on').click();
    await until(() => statusText(el) === en.notAnswering, 'the words "not answering"', 10_000);
    const firstLook = () => panelRoot(el).querySelector<HTMLImageElement>('[part="first-look"] img[part="image"]');
    const failed = (await fake.log()).filter((r) => r.path === '/files/preview-front.png');
    expect(failed.length, 'the first look was asked for during the outage').to.be.greaterThan(0);
    expect(failed.every((r) => r.outage)).to.equal(true);
    expect(firstLook()?.naturalWidth ?? 0, 'not drawn').to.equal(0);
    expect(panelRoot(el).querySelector('[role="alert"]'), 'no error step').to.equal(null);
    expect(el.status).to.equal('rendering');

    await fake.endOutage();
    await until(() => firstLook()?.complete && firstLook()!.naturalWidth > 0, 'the first look drawn', 10_000);
    expect(statusText(el)).to.not.equal(en.notAnswering);
    const served = (await fake.log()).filter((r) => r.path === '/files/preview-front.png' && !r.outage);
    expect(new URL(firstLook()!.src).searchParams.get('again'), 'under a new URL').to.equal('1');
    expect(served, 'asked for again once the service answered').to.have.length(1);
    await fake.release();
    await reach(el, 'result', 15_000);
    expect(events.filter((e) => e.type === 'tryon-error')).to.deep.equal([]);
  });

  it('tells an offline device it is offline, and a silent service that it is not answering, before anything was sent', async () => {
    const refused = await fakeProxy({ tryonErrors: [{ status: 0, code: '', refused: true }] });
    const el = await mount(refused);
    const seen = recordEvents(el);
    await submitTryon(el);
    await reach(el, 'error');
    expect(panelRoot(el).querySelector('[role="alert"]')!.textContent!.trim()).to.equal(en.error_not_answering);
    expect(seen.find((e) => e.type === 'tryon-error')!.detail.code).to.equal('not_answering');
    button(el, 'Try again').click();
    await reach(el, 'result');

    const descriptor = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')!;
    Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => false });
    try {
      const offline = await fakeProxy({ tryonErrors: [{ status: 0, code: '', refused: true }] });
      const other = await mount(offline);
      const said = recordEvents(other);
      await submitTryon(other);
      await reach(other, 'error');
      expect(panelRoot(other).querySelector('[role="alert"]')!.textContent!.trim()).to.equal(en.error_offline);
      expect(said.find((e) => e.type === 'tryon-error')!.detail.code).to.equal('offline');
    } finally {
      Object.defineProperty(Navigator.prototype, 'onLine', descriptor);
    }
  });

  it('a try-on the service no longer knows is said to be lost, and one press of "Start again with your photo" reaches the photo step', async () => {
    const fake = await fakeProxy({
      sse: false,
      statusErrors: [{ status: 404, code: 'invalid_handle', retryable: false }],
      steps: [{ status: 'succeeded', outputs: ['front'] }],
    });
    const el = await mount(fake);
    const seen = recordEvents(el);
    await submitTryon(el);
    await reach(el, 'error');
    const alert = panelRoot(el).querySelector('[role="alert"]')!.textContent!.trim();
    expect(alert).to.equal(en.error_tryon_lost);
    expect(seen.find((e) => e.type === 'tryon-error')!.detail).to.deep.include({
      code: 'invalid_handle',
      message: en.error_tryon_lost,
    });
    // The button says what the words say, and there is no "Try again" beside it.
    const primary = panelRoot(el).querySelector<HTMLButtonElement>('[part="primary-button"]')!;
    expect(primary.textContent!.trim()).to.equal(en.startAgain);
    expect(alert.toLowerCase()).to.contain(en.startAgain.toLowerCase());
    expect([...panelRoot(el).querySelectorAll('button')].map((b) => b.textContent!.trim())).to.not.include(en.tryAgain);
    await expect(el).to.be.accessible();
    // Every handle of the old secret is dead: "Use my last photo" is not offered with one of them.
    expect(sessionStorage.length).to.equal(0);

    primary.click();
    await reach(el, 'photo');
    // The photo chosen on this page is kept, and sent afresh.
    expect(panelRoot(el).querySelector('img[part="preview"]')).to.exist;
    button(el, 'Try it on').click();
    await reach(el, 'result');
    const log = await fake.log();
    expect(log.filter((r) => r.path === '/photos')).to.have.length(2);
  });

  it("names the error step's way on as its words do", () => {
    for (const code of ['expired_handle', 'invalid_handle']) {
      expect(en[`error_${code}` as 'error_invalid_handle'].toLowerCase()).to.contain(
        en[actionLabel(code)!].toLowerCase(),
      );
    }
    // not_found's words end "…Please try again.", so its button says "Try again".
    for (const code of ['not_found', 'render_failed', 'not_answering', 'rate_limited', undefined])
      expect(actionLabel(code)).to.equal('tryAgain');
  });
});
