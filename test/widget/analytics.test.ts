// Conversion events: with `analytics`, the documented names and parameters reach a stub of
// Shopify's customer events and GTM's dataLayer, exactly and nothing more (no photo, handle,
// requestId or URL); without it, nothing reaches either.
import { expect } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import {
  button,
  drawnPhoto,
  fakeProxy,
  mount,
  openAndConsent,
  pickPhoto,
  reach,
  until,
  withConsoleErrors,
  submitTryon,
} from './helpers.js';
import type { Fake, Scenario } from './helpers.js';

type Params = Record<string, unknown>;
interface Published {
  name: string;
  params: Params;
}

const published: Published[] = [];

function stubShopify(): void {
  (window as { Shopify?: unknown }).Shopify = {
    analytics: {
      publish: (name: string, params: Params) => {
        published.push({ name, params: structuredClone(params) });
      },
    },
  };
}

const dataLayer = () => (window as { dataLayer?: Params[] }).dataLayer;

/** A whole try-on: open, consent, photo, submit, the result (or an error), close. */
async function fullRun(el: TryonButton, ending: 'result' | 'error'): Promise<void> {
  await submitTryon(el);
  await reach(el, ending);
  el.close();
  await reach(el, 'idle');
}

/** The parameters without `duration_ms`, after checking it is a whole, plausible number of milliseconds. */
function withoutDuration(params: Params, what: string): Params {
  const { duration_ms: duration, ...rest } = params;
  expect(Number.isInteger(duration), `${what}: duration_ms ${String(duration)}`).to.equal(true);
  expect(duration as number, what).to.be.within(0, 60_000);
  return rest;
}

/** Nothing sent may carry a handle, a requestId or an address, whatever its key. */
async function expectNothingPrivate(fake: Fake, sent: Params[]): Promise<void> {
  const log = await fake.log();
  const secrets = log
    .flatMap((r) => [r.body?.['requestId'], r.body?.['photo']])
    .filter((v): v is string => typeof v === 'string');
  expect(secrets.length).to.be.greaterThan(0);
  const text = JSON.stringify(sent);
  for (const secret of secrets) expect(text).to.not.contain(secret);
  expect(text).to.not.match(/https?:|\/fake\/|ph_|tr_|blob:|data:/);
}

describe('conversion events', () => {
  beforeEach(() => {
    sessionStorage.clear();
    published.length = 0;
    delete (window as { Shopify?: unknown }).Shopify;
    delete (window as { dataLayer?: unknown }).dataLayer;
  });

  const scenario: Scenario = {
    product: {
      views: ['front', 'side'],
      video: false,
      tier: 'draft',
      name: 'Saree',
      variants: [{ id: 'sindoor-red', name: 'Sindoor red' }],
    },
    steps: [{ status: 'queued' }, { status: 'succeeded', outputs: ['front', 'side'] }],
  };

  it('sends a full run to Shopify and the dataLayer, with exactly the documented parameters', async () => {
    stubShopify();
    const fake = await fakeProxy(scenario);
    const el = await mount(fake, { analytics: 'shopify dataLayer', variant: 'sindoor-red' });
    await fullRun(el, 'result');

    const subject = { product: 'saree-red', variant: 'sindoor-red' };
    const expected = [
      { name: 'tryon_open', params: subject },
      { name: 'tryon_submit', params: { ...subject, views: 'front,side', output: 'image' } },
      { name: 'tryon_result', params: { ...subject, views: 'front,side', output: 'image', outcome: 'result' } },
      { name: 'tryon_close', params: { ...subject, outcome: 'result' } },
    ];
    const timed = new Set(['tryon_result', 'tryon_close']);
    const strip = ({ name, params }: Published) => ({
      name,
      params: timed.has(name) ? withoutDuration(params, name) : params,
    });
    expect(published.map(strip)).to.deep.equal(expected);
    expect(dataLayer()!.map(({ event, ...params }) => strip({ name: event as string, params }))).to.deep.equal(
      expected,
    );
    // The dataLayer holds the same parameters as Shopify got, durations included.
    expect(dataLayer()!.map(({ event, ...params }) => ({ name: event, params }))).to.deep.equal(published);
    await expectNothingPrivate(
      fake,
      published.map((p) => p.params),
    );
  });

  it('sends a failed run as tryon_error with its code, and a close that says how it ended', async () => {
    stubShopify();
    const fake = await fakeProxy({
      ...scenario,
      steps: [
        { status: 'queued' },
        { status: 'failed', error: { code: 'render_failed', message: 'm', retryable: true } },
      ],
    });
    const el = await mount(fake, { analytics: 'shopify dataLayer' });
    await fullRun(el, 'error');

    const subject = { product: 'saree-red' };
    expect(published.map((p) => p.name)).to.deep.equal(['tryon_open', 'tryon_submit', 'tryon_error', 'tryon_close']);
    expect(withoutDuration(published[2]!.params, 'error')).to.deep.equal({
      ...subject,
      outcome: 'error',
      error_code: 'render_failed',
    });
    expect(withoutDuration(published[3]!.params, 'close')).to.deep.equal({ ...subject, outcome: 'error' });
    expect(published[1]!.params).to.deep.equal({ ...subject, views: 'front,side', output: 'image' });
    expect(dataLayer()!.map(({ event, ...params }) => ({ name: event, params }))).to.deep.equal(published);
    await expectNothingPrivate(
      fake,
      published.map((p) => p.params),
    );
  });

  it('a dialog closed before any result says `closed`, and an error before any submit has no duration', async () => {
    const fake = await fakeProxy({
      ...scenario,
      photoErrors: [{ status: 413, code: 'file_too_large', retryable: false }],
    });
    const el = await mount(fake, { analytics: 'dataLayer' });
    await openAndConsent(el);
    el.close();
    await reach(el, 'idle');
    await openAndConsentAgain(el);
    await pickPhoto(el, await drawnPhoto(500, 700));
    button(el, 'Try it on').click();
    await reach(el, 'error');
    const events = dataLayer()!;
    expect(events.map((e) => e['event'])).to.deep.equal(['tryon_open', 'tryon_close', 'tryon_open', 'tryon_error']);
    const { event: _close, ...close } = events[1]!;
    expect(withoutDuration(close, 'close')).to.deep.equal({ product: 'saree-red', outcome: 'closed' });
    expect(events[3]).to.deep.equal({
      event: 'tryon_error',
      product: 'saree-red',
      outcome: 'error',
      error_code: 'file_too_large',
    });
  });

  it('sends nothing at all without the attribute', async () => {
    stubShopify();
    (window as { dataLayer?: Params[] }).dataLayer = [];
    const fake = await fakeProxy(scenario);
    const el = await mount(fake, { variant: 'sindoor-red' });
    const seen: string[] = [];
    el.addEventListener('tryon-result', () => seen.push('result'));
    await fullRun(el, 'result');
    expect(seen).to.deep.equal(['result']);
    expect(published).to.deep.equal([]);
    expect(dataLayer()).to.deep.equal([]);
  });

  it('sends only to the dataLayer with analytics="dataLayer", and stops when the attribute goes', async () => {
    stubShopify();
    const fake = await fakeProxy(scenario);
    const el = await mount(fake, { analytics: 'dataLayer' });
    await fullRun(el, 'result');
    expect(published).to.deep.equal([]);
    expect(dataLayer()!.map((e) => e['event'])).to.deep.equal([
      'tryon_open',
      'tryon_submit',
      'tryon_result',
      'tryon_close',
    ]);

    el.removeAttribute('analytics');
    await el.updateComplete;
    await el.open();
    await until(() => el.status !== 'idle', 'the dialog open');
    el.close();
    await reach(el, 'idle');
    expect(dataLayer()!.length).to.equal(4);
  });

  it("sends to Shopify only where Shopify's analytics exist, and never fails the try-on for it", async () => {
    const fake = await fakeProxy(scenario);
    const el = await mount(fake, { analytics: 'shopify' });
    await fullRun(el, 'result');
    expect(dataLayer()).to.equal(undefined);
    // Shopify's script arriving later is picked up at the next event.
    stubShopify();
    await el.open();
    await until(() => published.length === 1, 'tryon_open published');
    expect(published[0]).to.deep.equal({ name: 'tryon_open', params: { product: 'saree-red' } });
  });

  it("goes on with the try-on when the page's own analytics scripts throw, and says so once each", async () => {
    const sent: string[] = [];
    (window as { Shopify?: unknown }).Shopify = {
      analytics: {
        publish: (name: string) => {
          sent.push(`shopify:${name}`);
          throw new Error('app wrapper broke');
        },
      },
    };
    const layer: Params[] = [];
    layer.push = () => {
      throw new Error('gtm wrapper broke');
    };
    (window as { dataLayer?: unknown }).dataLayer = layer;
    await withConsoleErrors(async (said) => {
      const fake = await fakeProxy(scenario);
      const el = await mount(fake, { analytics: 'shopify dataLayer' });
      await fullRun(el, 'result');
      // Every event was still offered to Shopify after the throws before it.
      expect(sent).to.deep.equal([
        'shopify:tryon_open',
        'shopify:tryon_submit',
        'shopify:tryon_result',
        'shopify:tryon_close',
      ]);
      const told = said.filter((line) => line.includes('threw'));
      expect(told).to.have.length(2);
      expect(told.join('\n')).to.contain('Shopify.analytics.publish').and.contain('dataLayer.push');
    });
  });

  it('skips a dataLayer the page made something other than an array, says so once, and never fails the try-on', async () => {
    stubShopify();
    const theirs = { event: 'theirs', push: 'not a function' };
    (window as { dataLayer?: unknown }).dataLayer = theirs;
    await withConsoleErrors(async (said) => {
      const fake = await fakeProxy(scenario);
      const el = await mount(fake, { analytics: 'shopify dataLayer' });
      await fullRun(el, 'result');
      // Shopify still hears every event; the page's own dataLayer is left as it was.
      expect(published.map((p) => p.name)).to.deep.equal(['tryon_open', 'tryon_submit', 'tryon_result', 'tryon_close']);
      expect(dataLayer()).to.equal(theirs);
      expect(theirs).to.deep.equal({ event: 'theirs', push: 'not a function' });

      (window as { dataLayer?: unknown }).dataLayer = 'off';
      await el.open();
      await until(() => published.length === 5, 'tryon_open published');
      el.close();
      await reach(el, 'idle');
      expect(published.length).to.equal(6);
      expect(dataLayer()).to.equal('off');
      expect(said).to.have.length(1);
      expect(said[0]).to.contain('<tryon-button>').and.contain('dataLayer');

      // Made an array again, it is used again from the next event.
      (window as { dataLayer?: unknown }).dataLayer = [];
      await el.open();
      await until(() => dataLayer()!.length === 1, 'tryon_open in the dataLayer');
      expect(dataLayer()![0]).to.deep.equal({ event: 'tryon_open', product: 'saree-red' });
      el.close();
      await reach(el, 'idle');
      expect(said).to.have.length(1);
    });
  });
});

/** Reopens a dialog whose consent was given: it returns to the photo step. */
async function openAndConsentAgain(el: TryonButton): Promise<void> {
  await el.open();
  await reach(el, 'photo');
}
