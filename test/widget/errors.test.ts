import { expect } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import {
  button,
  fakeProxy,
  mount,
  panelRoot,
  reach,
  recordEvents,
  until,
  withConsoleErrors,
  submitTryon,
} from './helpers.js';
import type { FakeError, Scenario } from './helpers.js';

function alertText(el: TryonButton): string {
  return panelRoot(el).querySelector('[role="alert"]')?.textContent?.trim() ?? '';
}

const cases: { code: string; where: 'photo' | 'tryon'; error: FakeError; message: string }[] = [
  {
    code: 'rate_limited',
    where: 'tryon',
    error: { status: 429, code: 'rate_limited', retryAfter: 30 },
    message: en.error_rate_limited,
  },
  {
    code: 'file_too_large',
    where: 'photo',
    error: { status: 413, code: 'file_too_large', retryable: false },
    message: en.error_file_too_large,
  },
  {
    code: 'unsupported_media_type',
    where: 'photo',
    error: { status: 415, code: 'unsupported_media_type', retryable: false },
    message: en.error_unsupported_media_type,
  },
  {
    code: 'photo_too_small',
    where: 'photo',
    error: { status: 422, code: 'photo_too_small', retryable: false },
    message: en.error_photo_too_small.replace('{minSide}', '256'),
  },
  {
    code: 'upstream_unavailable',
    where: 'tryon',
    error: { status: 502, code: 'upstream_unavailable' },
    message: en.error_upstream_unavailable,
  },
  {
    code: 'out_of_credits',
    where: 'tryon',
    error: { status: 503, code: 'out_of_credits' },
    message: en.error_out_of_credits,
  },
  {
    code: 'upstream_timeout',
    where: 'tryon',
    error: { status: 504, code: 'upstream_timeout' },
    message: en.error_upstream_timeout,
  },
  // No answer while the device is online: the shop's service, not the shopper's connection (outage.test.ts has offline).
  {
    code: 'not_answering',
    where: 'tryon',
    error: { status: 0, code: 'offline', refused: true },
    message: en.error_not_answering,
  },
  { code: 'some_new_code', where: 'tryon', error: { status: 418, code: 'some_new_code' }, message: en.error_generic },
  {
    code: 'http_502',
    where: 'tryon',
    error: { status: 502, code: '', raw: '<html>Bad gateway</html>' },
    message: en.error_generic,
  },
];

describe('errors in plain words', () => {
  beforeEach(() => sessionStorage.clear());

  for (const { code, where, error, message } of cases) {
    it(`says "${message}" for ${code}, with a way on`, async () => {
      const scenario: Scenario = where === 'photo' ? { photoErrors: [error] } : { tryonErrors: [error] };
      const fake = await fakeProxy(scenario);
      const el = await mount(fake);
      const seen = recordEvents(el);
      await submitTryon(el);
      await reach(el, 'error');
      expect(alertText(el)).to.equal(message);
      const reported = seen.find((e) => e.type === 'tryon-error')!.detail;
      expect(reported).to.deep.include({ product: 'saree-red', code, message });
      expect(button(el, 'Try again')).to.exist;
      expect(button(el, 'Close')).to.exist;
      await expect(el).to.be.accessible();
      button(el, 'Try again').click();
      // A photo the proxy refused means choosing another; anything else goes on to a result.
      await reach(el, where === 'photo' ? 'photo' : 'result');
      if (where === 'photo') {
        // The refused photo is not offered again.
        expect(panelRoot(el).querySelector('img[part="preview"]')).to.equal(null);
        expect(button(el, 'Choose a photo')).to.exist;
      }
    });
  }

  it('says so when the render failed, and trying again makes a new try-on', async () => {
    const fake = await fakeProxy({
      steps: [
        { status: 'processing' },
        { status: 'failed', error: { code: 'render_failed', message: 'x', retryable: true } },
      ],
    });
    const el = await mount(fake);
    const seen = recordEvents(el);
    await submitTryon(el);
    await reach(el, 'error');
    expect(alertText(el)).to.equal(en.error_render_failed);
    expect(seen.find((e) => e.type === 'tryon-error')!.detail.code).to.equal('render_failed');
    button(el, 'Try again').click();
    await reach(el, 'queued');
    const tryons = await until(async () => {
      const posts = (await fake.log()).filter((r) => r.path === '/tryons');
      return posts.length === 2 ? posts : undefined;
    }, 'a second try-on');
    // The failed job is final upstream; the same requestId would only return it again.
    expect(tryons[1]!.body!.requestId).to.not.equal(tryons[0]!.body!.requestId);
    expect(tryons[1]!.body!.photo).to.equal(tryons[0]!.body!.photo);
  });

  it('retries a failed submit with the same requestId, and uploads the photo only once', async () => {
    const fake = await fakeProxy({
      tryonErrors: [
        { status: 503, code: 'upstream_unavailable' },
        { status: 0, code: 'offline', refused: true },
      ],
    });
    const el = await mount(fake);
    await submitTryon(el);
    await reach(el, 'error');
    button(el, 'Try again').click();
    await reach(el, 'error');
    expect(alertText(el)).to.equal(en.error_not_answering);
    button(el, 'Try again').click();
    await reach(el, 'result');
    const log = await fake.log();
    const ids = log.filter((r) => r.path === '/tryons').map((r) => r.body?.['requestId']);
    expect(ids).to.have.length(3);
    expect(new Set(ids).size).to.equal(1);
    expect(log.filter((r) => r.path === '/photos')).to.have.length(1);
  });

  it('retries a failed upload and keeps the requestId it started with', async () => {
    const fake = await fakeProxy({ photoErrors: [{ status: 502, code: 'upstream_unavailable' }] });
    const el = await mount(fake);
    const seen = recordEvents(el);
    await submitTryon(el);
    await reach(el, 'error');
    button(el, 'Try again').click();
    await reach(el, 'result');
    const log = await fake.log();
    expect(log.filter((r) => r.path === '/photos')).to.have.length(2);
    const submits = seen.filter((e) => e.type === 'tryon-submit');
    expect(submits).to.have.length(1);
    expect(log.find((r) => r.path === '/tryons')!.body!['requestId']).to.equal(submits[0]!.detail.requestId);
  });

  it('polls every interval without Server-Sent Events and backs off while polls fail', async () => {
    const fake = await fakeProxy({
      sse: false,
      statusErrors: [
        { status: 503, code: 'upstream_unavailable' },
        { status: 503, code: 'upstream_unavailable' },
      ],
      steps: [{ status: 'queued' }, { status: 'processing' }, { status: 'succeeded', outputs: ['front'] }],
    });
    const el = await mount(fake);
    await submitTryon(el);
    await reach(el, 'result');
    const polls = (await fake.log()).filter((r) => /^\/tryons\/[^/]+$/.test(r.path));
    expect(polls.length).to.equal(5); // two failures, then queued, processing, succeeded
    const gaps = polls.slice(1).map((p, i) => p.at - polls[i]!.at);
    // pollInterval is 50 ms: after the 1st failure 100 ms, after the 2nd 200 ms, then 50 ms again.
    expect(gaps[0]).to.be.at.least(90);
    expect(gaps[1]).to.be.at.least(190);
    expect(gaps[2]).to.be.below(gaps[1]!);
  });

  // A service that is down is waited out (outage.test.ts); a proxy that keeps refusing is not.
  it('gives up watching after repeated refusals, then "Try again" watches the same try-on', async () => {
    const failing = Array.from({ length: 6 }, () => ({ status: 429, code: 'rate_limited', retryable: true }));
    const fake = await fakeProxy({
      sse: false,
      statusErrors: failing,
      steps: [{ status: 'succeeded', outputs: ['front'] }],
    });
    const el = await mount(fake);
    el.pollInterval = 5;
    await submitTryon(el);
    await reach(el, 'error', 15000);
    expect(alertText(el)).to.equal(en.error_rate_limited);
    button(el, 'Try again').click();
    await reach(el, 'result');
    expect((await fake.log()).filter((r) => r.path === '/tryons')).to.have.length(1);
  });

  it('has no dead end when the product has no try-on', async () => {
    const fake = await fakeProxy({ product: null });
    const el = await mount(fake);
    await el.open();
    await reach(el, 'error');
    expect(alertText(el)).to.equal(en.error_unknown_product);
    await expect(el).to.be.accessible();
    button(el, 'Close').click();
    await reach(el, 'idle');
  });

  it('tells the developer, once, when no proxy answers at the endpoint', async () => {
    await withConsoleErrors(async (said) => {
      // The test server's own 404 page, as a shop's site answers where no proxy was set up.
      const fake = await fakeProxy({});
      const el = await mount(fake, { endpoint: '/no-proxy-here/tryon' });
      await el.open();
      await reach(el, 'error');
      expect(alertText(el)).to.equal(en.error_generic);
      const told = said.filter((line) => line.includes('no try-on proxy answers at'));
      expect(told).to.have.length(1);
      expect(told[0]).to.contain(`${location.origin}/no-proxy-here/tryon`).and.contain('HTTP 404');
      // A real proxy's own 404 (a product without try-on) is not that mistake.
      const other = await mount(await fakeProxy({ product: null }));
      await other.open();
      await reach(other, 'error');
      expect(said.filter((line) => line.includes('no try-on proxy answers at'))).to.have.length(1);
    });
  });

  it('asks again when a success comes without outputs, and offers Try again if none come', async () => {
    const fake = await fakeProxy({
      steps: [
        { status: 'succeeded', outputs: [] },
        { status: 'succeeded', outputs: ['front'] },
      ],
    });
    const el = await mount(fake);
    await submitTryon(el);
    await reach(el, 'result');
    await until(() => panelRoot(el).querySelector('img[part="image"]'), 'the image from the second answer');

    const empty = await fakeProxy({ steps: [{ status: 'succeeded', outputs: [] }] });
    const other = await mount(empty);
    await submitTryon(other);
    await reach(other, 'error');
    expect(alertText(other)).to.equal(en.error_generic);
    await expect(other).to.be.accessible();
  });
});
