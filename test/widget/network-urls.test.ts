// A hostile (or compromised) endpoint answers results whose URLs are `javascript:`, `data:`,
// `blob:`, another site's or another port's: the widget must never run, show, download, share or
// navigate to them. The shopper gets the ordinary error state; the developer one console error
// naming the URL's scheme or origin, never the whole URL. A same-origin result still works.
import { expect } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import { button, fakeProxy, mount, panelRoot, reach, recordEvents, statusText, until, submitTryon } from './helpers.js';
import type { Scenario } from './helpers.js';

interface Pwned {
  __pwned?: number;
}

/** What the page saw happen: navigations, new windows, links clicked, shares, copies and console errors. */
interface Watch {
  navigations: { url: string; download: string | null }[];
  opened: unknown[];
  clicked: string[];
  shared: unknown[];
  copied: string[];
  errors: string[];
  stop(): void;
}

/**
 * Watches the page without changing what the widget's actions do: links are really clicked (a
 * `javascript:` one would really run), only navigations and downloads are stopped, through the
 * Navigation API, so the test page stays where it is.
 */
function watchPage(): Watch {
  const watch: Watch = { navigations: [], opened: [], clicked: [], shared: [], copied: [], errors: [], stop: () => {} };
  const navigation = (window as unknown as { navigation?: EventTarget }).navigation;
  const onNavigate = (event: Event) => {
    const navigate = event as Event & {
      destination: { url: string };
      downloadRequest: string | null;
      cancelable: boolean;
    };
    watch.navigations.push({ url: navigate.destination.url, download: navigate.downloadRequest });
    if (navigate.cancelable) navigate.preventDefault();
  };
  // WebKit has no Navigation API: there a link's activation (the only way the widget navigates)
  // is caught on its way up, through the shadow roots, and stopped before the browser follows it.
  const onLinkClick = (event: Event) => {
    const link = event
      .composedPath()
      .find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement && node.hasAttribute('href'));
    if (!link) return;
    watch.navigations.push({ url: link.href, download: link.hasAttribute('download') ? link.download : null });
    event.preventDefault();
  };
  if (navigation) navigation.addEventListener('navigate', onNavigate);
  else window.addEventListener('click', onLinkClick, { capture: true });
  const open = window.open;
  window.open = (...args: unknown[]) => {
    watch.opened.push(args);
    return null;
  };
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    watch.clicked.push(this.href);
    click.call(this);
  };
  Object.defineProperty(navigator, 'share', {
    configurable: true,
    value: async (data: ShareData) => {
      watch.shared.push(data);
    },
  });
  // No file share here: what is shared is checked without the picture (share.test.ts checks the picture).
  Object.defineProperty(navigator, 'canShare', { configurable: true, value: undefined });
  const clipboard = navigator.clipboard;
  const error = console.error;
  console.error = (...args: unknown[]) => {
    watch.errors.push(args.map(String).join(' '));
  };
  watch.stop = () => {
    if (navigation) navigation.removeEventListener('navigate', onNavigate);
    else window.removeEventListener('click', onLinkClick, { capture: true });
    window.open = open;
    HTMLAnchorElement.prototype.click = click;
    delete (navigator as { share?: unknown }).share;
    delete (navigator as { canShare?: unknown }).canShare;
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: clipboard });
    console.error = error;
  };
  return watch;
}

/** Every URL an element of the button's or the panel's shadow DOM points at, resolved as the browser does. */
function urlsInShadowDom(el: TryonButton): string[] {
  const roots = [el.shadowRoot!, panelRoot(el)];
  return roots
    .flatMap((root) => [...root.querySelectorAll<HTMLElement>('[src], [href], [poster], [srcset]')])
    .flatMap((node) => {
      const n = node as HTMLElement & { src?: string; href?: string; poster?: string };
      return [
        n.src,
        n.href,
        n.poster,
        node.getAttribute('src'),
        node.getAttribute('href'),
        node.getAttribute('poster'),
        node.getAttribute('srcset'),
      ].filter((value): value is string => typeof value === 'string' && value !== '');
    });
}

/** A product with two views and a video, so every kind of output URL is on screen at once. */
const product = { views: ['front', 'back'], video: true, tier: 'draft', name: 'Red Banarasi saree' };
const answering = (url: string): Scenario => ({
  product,
  steps: [{ status: 'processing' }, { status: 'succeeded', outputs: ['front', 'back'], video: true, url }],
});

/** The buttons that act on a result (everything but closing, starting over and forgetting). */
const resultActions = (el: TryonButton) =>
  [...panelRoot(el).querySelectorAll<HTMLButtonElement>('button')].filter(
    (b) =>
      !b.disabled &&
      !['×', 'Close', 'Try another photo', 'Forget my photo', 'Try again'].includes(b.textContent!.trim()),
  );

describe('URLs from the network', () => {
  let watch: Watch;
  const startedAt = location.href;

  /** Nothing of `url` ran, navigated, opened, downloaded, was shared or copied, is in the DOM or reached the page in an event. */
  function expectNothingUsed(
    el: TryonButton,
    events: { type: string; detail: unknown }[],
    url: string,
    resolved: string,
    secret: string,
  ): void {
    expect((window as Pwned).__pwned, 'the URL ran as script').to.equal(undefined);
    expect(location.href).to.equal(startedAt);
    expect(watch.navigations, 'navigations').to.deep.equal([]);
    expect(watch.opened, 'window.open').to.deep.equal([]);
    expect(watch.clicked, 'links clicked').to.deep.equal([]);
    expect(watch.shared, 'shared').to.deep.equal([]);
    expect(watch.copied, 'copied').to.deep.equal([]);
    const urls = urlsInShadowDom(el);
    expect(
      urls.filter(
        (u) => u === url || u === resolved || u.includes('evil.example') || /^(javascript|data|file):/i.test(u.trim()),
      ),
      'URLs in the shadow DOM',
    ).to.deep.equal([]);
    expect(
      events.some((e) => e.type === 'tryon-result'),
      'a tryon-result reached the page',
    ).to.equal(false);
    expect(JSON.stringify(events), 'the events').to.not.contain(secret);
  }

  beforeEach(() => {
    sessionStorage.clear();
    delete (window as Pwned).__pwned;
    watch = watchPage();
  });
  afterEach(() => watch.stop());

  // `shown` is what the console may say of the URL; `secret` what it must not (a path, a token, a script).
  const hostile: { url: string; shown: string; secret: string }[] = [
    { url: 'javascript:window.__pwned=1', shown: 'javascript:', secret: '__pwned' },
    { url: '\tJaVaScRiPt:window.__pwned=1', shown: 'javascript:', secret: '__pwned' },
    { url: 'data:text/html,<script>window.__pwned=1</script>', shown: 'data:', secret: 'script' },
    {
      url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      shown: 'data:',
      secret: 'iVBOR',
    },
    { url: '//evil.example/x?token=s3cret', shown: 'http://evil.example', secret: 's3cret' },
    { url: 'https://evil.example/x?token=s3cret', shown: 'https://evil.example', secret: 's3cret' },
    { url: `blob:${location.origin}/0b7d2d4e-7a54-4a4e-9f2b-8d6c1f0e2a11`, shown: 'blob:', secret: '0b7d2d4e' },
    {
      url: `${location.protocol}//${location.hostname}:1/fake/files/front.png?token=s3cret`,
      shown: `${location.protocol}//${location.hostname}:1`,
      secret: 's3cret',
    },
    {
      url: `${location.protocol === 'https:' ? 'http:' : 'https:'}//${location.host}/fake/files/front.png?token=s3cret`,
      shown: `${location.protocol === 'https:' ? 'http:' : 'https:'}//${location.host}`,
      secret: 's3cret',
    },
    { url: 'file:///etc/passwd', shown: 'file:', secret: 'passwd' },
  ];

  for (const { url, shown, secret } of hostile) {
    it(`refuses a result whose every URL is ${JSON.stringify(url.slice(0, 40))}`, async () => {
      const fake = await fakeProxy(answering(url));
      const el = await mount(fake);
      const events = recordEvents(el);
      const resolved = new URL(url, new URL(`${fake.endpoint}/`, location.href)).href;
      await submitTryon(el);
      await until(() => el.status === 'result' || el.status === 'error', 'the answer to be shown or refused');
      await el.updateComplete;

      // Press whatever the dialog offers; a download is awaited until its link is clicked.
      for (const action of resultActions(el)) {
        const clicks = watch.clicked.length;
        action.click();
        if (action.textContent!.trim() === 'Download')
          await until(() => watch.clicked.length > clicks, 'the download link');
      }
      panelRoot(el)
        .querySelector<HTMLElement>('[role="slider"]')
        ?.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
      expectNothingUsed(el, events, url, resolved, secret);

      // The shopper: the ordinary error state, with "Try again"; the developer: one console error
      // per refused answer, naming the scheme or origin only.
      expect(el.status).to.equal('error');
      expect(panelRoot(el).querySelector('[role="alert"]')!.textContent!.trim()).to.equal(
        'Something went wrong. Please try again.',
      );
      expect(watch.errors).to.have.length(1);
      expect(watch.errors[0]).to.contain('<tryon-button>').and.contain(shown).and.not.contain(secret);

      // "Try again" asks the same endpoint again, and is refused again.
      button(el, 'Try again').click();
      await until(() => events.filter((e) => e.type === 'tryon-error').length === 2, 'the retry to be refused too');
      await reach(el, 'error');
      expectNothingUsed(el, events, url, resolved, secret);
      expect(events.filter((e) => e.type === 'tryon-error').map((e) => e.detail.code)).to.deep.equal([
        'refused_url',
        'refused_url',
      ]);
      expect(watch.errors).to.have.length(2);
      expect(watch.errors[1]).to.contain(shown).and.not.contain(secret);
    });
  }

  it('refuses a later answer of a result shown view by view', async () => {
    const fake = await fakeProxy({
      product,
      steps: [
        { status: 'processing', outputs: ['front'] },
        { hold: true },
        { status: 'succeeded', outputs: ['front', 'back'], url: 'javascript:window.__pwned=1' },
      ],
    });
    const el = await mount(fake);
    const events = recordEvents(el);
    await submitTryon(el);
    await reach(el, 'result');
    expect(panelRoot(el).querySelector<HTMLImageElement>('img[part="image"]')!.src).to.contain('/files/front.png');
    await fake.release();
    await reach(el, 'error');
    button(el, 'Try again').click();
    await until(() => events.filter((e) => e.type === 'tryon-error').length === 2, 'the retry to be refused too');
    await reach(el, 'error');
    expect((window as Pwned).__pwned).to.equal(undefined);
    expect(urlsInShadowDom(el).filter((u) => u.startsWith('javascript:'))).to.deep.equal([]);
    expect(events.some((e) => e.type === 'tryon-result')).to.equal(false);
    expect(watch.errors).to.have.length(2);
  });

  it("uses a result on the endpoint's own origin, path-absolute or absolute: shown, downloaded, shared", async () => {
    const fake = await fakeProxy(answering(`${location.origin}{file}`));
    const el = await mount(fake);
    const events = recordEvents(el);
    await submitTryon(el);
    await reach(el, 'result');
    const file = (name: string) => new URL(`${fake.endpoint}/files/${name}`, location.href).href;
    expect(panelRoot(el).querySelector<HTMLImageElement>('img[part="image"]')!.src).to.equal(file('front.png'));
    expect(panelRoot(el).querySelector<HTMLVideoElement>('video[part="video"]')!.src).to.equal(file('video.mp4'));

    button(el, 'Download').click();
    await until(() => watch.navigations.length === 1, 'the download');
    // The link is to the fetched blob, under our name; the browser's download was stopped by the watch.
    expect(watch.clicked).to.have.length(1);
    expect(watch.clicked[0]).to.match(/^blob:/);
    expect(watch.navigations[0]).to.deep.include({ download: 'saree-red-front.png' });
    expect(watch.navigations[0]!.url).to.match(/^blob:/);

    button(el, 'Share').click();
    await until(() => watch.shared.length === 1, 'the share sheet');
    // The product page is shared, not the file: its URL is in no field.
    expect(watch.shared[0]).to.deep.equal({
      title: 'Red Banarasi saree',
      text: 'I tried on Red Banarasi saree.',
      url: location.href.replace(/#.*$/, ''),
    });
    const result = events.find((e) => e.type === 'tryon-result')!;
    expect(result.detail.outputs.map((o: { url: string }) => o.url)).to.deep.equal([
      file('front.png'),
      file('back.png'),
      file('video.mp4'),
    ]);
    expect(watch.errors).to.deep.equal([]);
    expect(location.href).to.equal(startedAt);
  });

  it("says so when the download fails, and never falls back to opening the file's URL", async () => {
    // The picture loads (the first request), the download's own request is refused.
    const fake = await fakeProxy({ fileStatus: 404, fileFailsAfter: 1 });
    const el = await mount(fake);
    await submitTryon(el);
    await reach(el, 'result');
    const shown = await until(
      () => panelRoot(el).querySelector<HTMLImageElement>('img[part="image"]'),
      'the result image',
    );
    await until(() => shown.complete && shown.naturalWidth > 0, 'the result image decoded');
    button(el, 'Download').click();
    await until(() => statusText(el) === 'Something went wrong. Please try again.', 'the failure to be announced');
    expect(el.status).to.equal('result');
    expect(watch.clicked).to.deep.equal([]);
    expect(watch.navigations).to.deep.equal([]);
    expect((await fake.log()).filter((r) => r.path === '/files/front.png').length).to.be.greaterThan(0);
  });
});
