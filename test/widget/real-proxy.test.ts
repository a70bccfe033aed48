// The widget against the real token proxy and the real sandbox (not the fake): the contract
// as the other side actually implements it.
import { expect, fixture, html } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import { button, control, panelRoot, reach, recordEvents, until, submitTryon } from './helpers.js';

const endpoint = '/real/tryon';

async function mountReal(attributes = '', product = 'saree-test-red'): Promise<TryonButton> {
  const el = await fixture<TryonButton>(
    html`<tryon-button product=${product} endpoint=${endpoint} prefetch="interaction"></tryon-button>`,
  );
  for (const name of attributes.split(' ').filter(Boolean)) el.setAttribute(name, '');
  el.pollInterval = 200;
  await el.updateComplete;
  return el;
}

async function topLevelJobs(): Promise<number> {
  const state = (await (await fetch('/real/sandbox/sandbox/state')).json()) as {
    workspaces: Record<string, { jobs: { parent: string | null }[] }>;
  };
  return Object.values(state.workspaces)
    .flatMap((ws) => ws.jobs)
    .filter((job) => job.parent === null).length;
}

describe('against the real proxy and sandbox', function () {
  this.timeout(60000);
  beforeEach(async () => {
    sessionStorage.clear();
    await fetch('/real/sandbox/sandbox/faults', { method: 'DELETE' });
  });

  it('renders a two-view catalog and a video from a real photo', async () => {
    const health = (await (await fetch(`${endpoint}/health`)).json()) as { ok: boolean };
    expect(health.ok).to.equal(true);
    const el = await mountReal('video');
    const seen = recordEvents(el);
    await submitTryon(el, { width: 600, height: 900 });
    await until(() => seen.some((e) => e.type === 'tryon-result'), 'the catalog', 30000);
    await reach(el, 'result');
    const tabs = [...panelRoot(el).querySelectorAll('[role="tab"]')].map((t) => t.textContent!.trim());
    expect(tabs).to.deep.equal(['Front', 'Side']);
    const image = panelRoot(el).querySelector<HTMLImageElement>('img[part="image"]')!;
    // The proxy checked the render against the garment before it said succeeded: the page hears its
    // verdict on both views, and the label and the image's name say what it found.
    const checked = seen.find((e) => e.type === 'tryon-fidelity')!.detail as {
      verdict: string;
      views: { view: string }[];
    };
    expect(checked.views.map((v) => v.view).sort()).to.deep.equal(['front', 'side']);
    const said: Record<string, string | undefined> = {
      true: 'Colours checked against the product',
      differs: 'Colours may differ from the product photo',
    };
    const words = said[checked.verdict];
    expect(words, `a verdict on a check that ran: ${checked.verdict}`).to.be.a('string');
    expect(image.alt).to.equal(`You wearing Test red saree — ${words}`);
    expect(panelRoot(el).querySelector('[part="fidelity"]')!.textContent!.trim()).to.equal(words);
    await until(() => image.complete && image.naturalWidth >= 256, 'the rendered image to load', 15000);
    expect(image.src).to.match(new RegExp(`^${location.origin}/real/tryon/files/`));
    await expect(el).to.be.accessible();

    await until(() => control(el, 'Make a video'), 'the video offer');
    button(el, 'Make a video').click();
    const video = await until(
      () => panelRoot(el).querySelector<HTMLVideoElement>('video[part="video"]'),
      'the video',
      45000,
    );
    expect(video.src).to.match(new RegExp(`^${location.origin}/real/tryon/files/`));
    const head = await fetch(video.src);
    expect(head.headers.get('content-type')).to.equal('video/mp4');
  });

  it('completes the look: a dupatta rendered over the lehenga by the real proxy, listed, and removed back to the lehenga', async () => {
    const el = await mountReal('', 'lehenga-test-green');
    const seen = recordEvents(el);
    const outfits: { pieces: { product: string; variant?: string }[] }[] = [];
    el.addEventListener('tryon-outfit', (event) => outfits.push(event.detail));
    const jobsBefore = await topLevelJobs();
    await submitTryon(el, { width: 600, height: 900 });
    await reach(el, 'result', 30000);
    const root = panelRoot(el);
    const picture = () => root.querySelector<HTMLImageElement>('img[part="image"]')!;
    const base = picture().src;
    // The proxy lists the pair with its picture, which it serves itself.
    const add = await until(() => control(el, 'Add Test rose dupatta'), '"Add Test rose dupatta"', 15000);
    const offered = root.querySelector<HTMLImageElement>('[part="outfit-offers"] img')!;
    await until(() => offered.complete && offered.naturalWidth > 0, "the piece's picture", 15000);
    add.click();
    await until(() => outfits.length === 1, 'the dupatta in the look', 45000);
    expect(outfits[0]!.pieces).to.deep.equal([{ product: 'lehenga-test-green' }, { product: 'dupatta-test-rose' }]);
    const layered = seen.filter((e) => e.type === 'tryon-result').at(-1)!.detail as { product: string; tryon: string };
    expect(layered.product).to.equal('dupatta-test-rose');
    // The piece's status carries the outfit, base first.
    const status = (await (await fetch(`${endpoint}/tryons/${layered.tryon}`)).json()) as { pieces: unknown };
    expect(status.pieces).to.deep.equal(outfits[0]!.pieces);
    await until(
      () => picture().src !== base && picture().complete && picture().naturalWidth >= 256,
      'the outfit drawn',
      15000,
    );
    expect(picture().alt).to.equal('You wearing Test green lehenga and Test rose dupatta');
    expect(picture().src).to.match(new RegExp(`^${location.origin}/real/tryon/files/`));
    expect(await topLevelJobs()).to.equal(jobsBefore + 2);
    await expect(el).to.be.accessible();

    button(el, 'Remove Test rose dupatta').click();
    await until(() => picture().src === base, 'the lehenga again');
    expect(outfits.at(-1)!.pieces).to.deep.equal([{ product: 'lehenga-test-green' }]);
    expect(await topLevelJobs(), 'removing renders nothing').to.equal(jobsBefore + 2);
  });

  it('retries a submit that failed upstream with the same requestId, and the proxy renders it once', async () => {
    const jobsBefore = await topLevelJobs();
    await fetch('/real/sandbox/sandbox/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: 'POST /v1/images/tryon', status: 503, times: 3 }),
    });
    const el = await mountReal();
    const seen = recordEvents(el);
    await submitTryon(el, { width: 600, height: 900 });
    await reach(el, 'error', 30000);
    const error = seen.find((e) => e.type === 'tryon-error')!.detail;
    expect(error.message).to.equal(en[`error_${error.code}` as keyof typeof en] ?? en.error_generic);
    expect(panelRoot(el).querySelector('[role="alert"]')!.textContent!.trim()).to.equal(error.message);
    await fetch('/real/sandbox/sandbox/faults', { method: 'DELETE' });
    button(el, 'Try again').click();
    await until(() => seen.some((e) => e.type === 'tryon-result'), 'the result after retrying', 30000);
    const submits = seen.filter((e) => e.type === 'tryon-submit').map((e) => e.detail.requestId);
    expect(new Set(submits).size).to.equal(1);
    expect(seen.find((e) => e.type === 'tryon-result')!.detail.requestId).to.equal(submits[0]);
    expect((await topLevelJobs()) - jobsBefore).to.equal(1);
  });

  it('reports upload progress, and a page that goes away mid-render picks the try-on up again, rendered once', async () => {
    const jobsBefore = await topLevelJobs();
    const first = await mountReal();
    const seen = recordEvents(first);
    await submitTryon(first, { width: 600, height: 900 });
    await until(() => seen.some((e) => e.type === 'tryon-submit'), 'the submit', 30000);
    // The upload's progress comes from XMLHttpRequest's upload events, engine by engine.
    const uploading = seen.filter((e) => e.type === 'tryon-progress' && e.detail.status === 'uploading');
    expect(uploading.length).to.be.above(0);
    expect(uploading.every((e) => e.detail.percent >= 0 && e.detail.percent <= 100)).to.equal(true);
    const requestId = seen.find((e) => e.type === 'tryon-submit')!.detail.requestId;
    await until(
      () => Object.keys(sessionStorage).some((key) => key.endsWith(':tryon')),
      'the try-on in sessionStorage',
    );
    // The page goes away before the render is done…
    first.remove();
    // …and the reloaded page's element carries on, watching the real proxy's event stream.
    const again = await mountReal();
    const resumed = recordEvents(again);
    await until(() => resumed.some((e) => e.type === 'tryon-result'), 'the resumed result', 30000);
    await reach(again, 'result');
    expect(resumed.find((e) => e.type === 'tryon-result')!.detail.requestId).to.equal(requestId);
    expect(resumed.some((e) => e.type === 'tryon-submit')).to.equal(false);
    expect((await topLevelJobs()) - jobsBefore).to.equal(1);
  });

  it('says plainly when a product has no try-on', async () => {
    const el = await fixture<TryonButton>(
      html`<tryon-button product="no-such-product" endpoint=${endpoint} prefetch="interaction"></tryon-button>`,
    );
    await el.open();
    await reach(el, 'error', 15000);
    expect(panelRoot(el).querySelector('[role="alert"]')!.textContent!.trim()).to.equal(en.error_unknown_product);
  });
});
