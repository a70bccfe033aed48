import { expect } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import {
  button,
  control,
  fakeProxy,
  mount,
  panelRoot,
  reach,
  recordEvents,
  statusText,
  until,
  submitTryon,
} from './helpers.js';

const catalog = {
  views: ['back', 'front', 'three_quarter_left', 'side'],
  video: true,
  tier: 'premium',
  name: 'Red Banarasi saree',
};

const tabs = (el: TryonButton) => [...panelRoot(el).querySelectorAll<HTMLButtonElement>('[role="tab"]')];

describe('the result', () => {
  beforeEach(() => sessionStorage.clear());

  it('shows a catalog view by view as they arrive, front first, with a view switcher', async () => {
    const fake = await fakeProxy({
      product: catalog,
      steps: [
        { status: 'processing' },
        { status: 'processing', outputs: ['front'] },
        { hold: true },
        { status: 'processing', outputs: ['front', 'three_quarter_left'] },
        { hold: true },
        { status: 'succeeded', outputs: ['front', 'three_quarter_left', 'side', 'back'] },
      ],
    });
    const el = await mount(fake);
    const seen = recordEvents(el);
    await submitTryon(el);
    await reach(el, 'result');
    const body = (await fake.log()).find((r) => r.path === '/tryons')!.body!;
    expect(body['views']).to.deep.equal(['front', 'back', 'three_quarter_left', 'side']);

    expect(tabs(el).map((t) => t.textContent!.trim())).to.deep.equal(['Front', 'Back', 'Three-quarter', 'Side']);
    expect(tabs(el)[0]!.getAttribute('aria-selected')).to.equal('true');
    expect(panelRoot(el).querySelector<HTMLImageElement>('[role="tabpanel"] img')!.src).to.contain('/files/front.png');
    expect(statusText(el)).to.equal('Front view is ready.');
    // Premium tier: about 60 s expected.
    expect(seen.some((e) => e.type === 'tryon-progress' && e.detail.expectedMs === 60000)).to.equal(true);
    expect(panelRoot(el).textContent).to.not.contain('so far');
    expect(seen.some((e) => e.type === 'tryon-result')).to.equal(false);
    await expect(el).to.be.accessible();

    tabs(el)[3]!.click();
    await el.updateComplete;
    await until(
      () => panelRoot(el).querySelector('[role="tabpanel"]')?.textContent?.includes('This view is still being made…'),
      'the pending view',
    );

    await fake.release();
    await until(
      () =>
        panelRoot(el).querySelector('[role="tabpanel"]')?.textContent?.includes('This view is still being made…') &&
        statusText(el) === 'Three-quarter view is ready.',
      'the three-quarter view',
    );
    await fake.release();
    await until(() => seen.some((e) => e.type === 'tryon-result'), 'the whole catalog');
    await until(
      () =>
        panelRoot(el)
          .querySelector<HTMLImageElement>('[role="tabpanel"] img[part="image"]')
          ?.src.includes('/files/side.png'),
      'the side view',
    );
    const outputs = seen.find((e) => e.type === 'tryon-result')!.detail.outputs as { view: string }[];
    expect(outputs.map((o) => o.view)).to.deep.equal(['front', 'three_quarter_left', 'side', 'back']);
    expect(statusText(el)).to.equal('Your try-on is ready.');
    await expect(el).to.be.accessible();
  });

  it('asks only for the views the element names', async () => {
    const fake = await fakeProxy({ product: catalog, steps: [{ status: 'succeeded', outputs: ['side', 'front'] }] });
    const el = await mount(fake, { views: 'side, front, sleeve' });
    await submitTryon(el);
    await reach(el, 'result');
    expect((await fake.log()).find((r) => r.path === '/tryons')!.body!['views']).to.deep.equal(['front', 'side']);
    expect(tabs(el).map((t) => t.textContent!.trim())).to.deep.equal(['Front', 'Side']);
  });

  it('makes a video where the product offers it, and plays it in a <video>', async () => {
    const fake = await fakeProxy({ product: { ...catalog, views: ['front'] } });
    const el = await mount(fake, { video: true });
    const seen = recordEvents(el);
    await submitTryon(el);
    await reach(el, 'result');
    await until(() => control(el, 'Make a video'), 'the video offer');
    button(el, 'Make a video').click();
    await reach(el, 'queued');
    await reach(el, 'result');
    const video = await until(() => panelRoot(el).querySelector<HTMLVideoElement>('video[part="video"]'), 'the video');
    expect(video.src).to.equal(new URL(`${fake.endpoint}/files/video.mp4`, location.href).href);
    expect(video.controls).to.equal(true);
    expect(video.getAttribute('aria-label')).to.equal('Video of you wearing Red Banarasi saree');
    expect(control(el, 'Make a video')).to.equal(undefined);
    const posts = (await fake.log()).filter((r) => r.path === '/tryons').map((r) => r.body!);
    expect(posts[1]).to.deep.include({ output: 'video', photo: posts[0]!['photo'], consent: true });
    expect(posts[1]!['requestId']).to.not.equal(posts[0]!['requestId']);
    const submits = seen.filter((e) => e.type === 'tryon-submit').map((e) => e.detail.output);
    expect(submits).to.deep.equal(['image', 'video']);
    expect(
      seen
        .filter((e) => e.type === 'tryon-result')
        .at(-1)!
        .detail.outputs.map((o: { type: string }) => o.type),
    ).to.deep.equal(['image', 'video']);
    await expect(el).to.be.accessible();
  });

  it('offers no video when the element or the product does not', async () => {
    const fake = await fakeProxy({ product: { ...catalog, views: ['front'], video: false } });
    const el = await mount(fake, { video: true });
    await submitTryon(el);
    await reach(el, 'result');
    expect(control(el, 'Make a video')).to.equal(undefined);
    const other = await mount(await fakeProxy({ product: { ...catalog, views: ['front'] } }));
    await submitTryon(other);
    await reach(other, 'result');
    expect(control(other, 'Make a video')).to.equal(undefined);
  });

  it("downloads the image under the product's name", async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    await submitTryon(el);
    await reach(el, 'result');
    const clicked: { href: string; download: string }[] = [];
    const original = HTMLAnchorElement.prototype.click;
    // Stands in for the browser's download bar, which a headless test cannot see.
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    };
    try {
      button(el, 'Download').click();
      await until(() => clicked.length === 1, 'the download');
    } finally {
      HTMLAnchorElement.prototype.click = original;
    }
    expect(clicked[0]!.download).to.equal('saree-red-front.png');
    expect(clicked[0]!.href).to.match(/^blob:/);
    expect((await fake.log()).some((r) => r.path === '/files/front.png')).to.equal(true);
  });

  it('shares with the Web Share API where present, else copies the link (the product page, never the file: share.test.ts)', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    await submitTryon(el);
    await reach(el, 'result');
    const file = new URL(`${fake.endpoint}/files/front.png`, location.href).href;
    const page = location.href.replace(/#.*$/, '');

    const shared: ShareData[] = [];
    Object.defineProperty(navigator, 'share', {
      configurable: true,
      value: async (data: ShareData) => {
        shared.push(data);
      },
    });
    Object.defineProperty(navigator, 'canShare', { configurable: true, value: undefined });
    try {
      button(el, 'Share').click();
      await until(() => shared.length === 1, 'the share sheet');
    } finally {
      delete (navigator as { share?: unknown }).share;
      delete (navigator as { canShare?: unknown }).canShare;
    }
    expect(shared[0]).to.deep.equal({ title: 'Red Banarasi saree', text: 'I tried on Red Banarasi saree.', url: page });

    const copied: string[] = [];
    const clipboard = navigator.clipboard;
    Object.defineProperty(navigator, 'share', { configurable: true, value: undefined });
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: {
        writeText: async (text: string) => {
          copied.push(text);
        },
      },
    });
    try {
      button(el, 'Share').click();
      await until(() => statusText(el) === 'Copied a link to Red Banarasi saree.', 'the copied announcement');
    } finally {
      delete (navigator as { share?: unknown }).share;
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: clipboard });
    }
    expect(copied).to.deep.equal([`I tried on Red Banarasi saree. ${page}`]);
    expect(copied[0]).to.not.contain(file);
  });
});
