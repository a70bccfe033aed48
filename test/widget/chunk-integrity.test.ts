// Every chunk of the CDN build pinned by the build's import map, in each engine the suite runs:
// a page (an iframe of its own, so the map comes before any module of it) carries
// dist/cdn/importmap.json with its jsDelivr prefix replaced by the folder the files come from, as
// docs/integrations/script-tag.md says, and loads the entry from there. The folder serves the build
// as it is, or with the core or the panel chunk's bytes altered (test/widget/cdn-build.js). Whether
// an engine checks import-map integrity is what this finds out: the altered chunk must be refused
// and none of it run; without the map the same altered core runs.
import { expect } from '@open-wc/testing';
import { fakeProxy, until } from './helpers.js';

type Frame = Window &
  typeof globalThis & {
    __tampered?: boolean;
    /** Unhandled rejections in the frame: the entry's `import()` of a refused core is one. */
    refused: string[];
  };

interface ButtonInFrame extends HTMLElement {
  open(): Promise<void>;
}

/** The build's import map with its jsDelivr prefix replaced by `folder` (a URL ending in `/`). */
async function mapFor(folder: string): Promise<string> {
  const written = await (await fetch('/cdn-build/importmap.json')).text();
  const keys = Object.keys((JSON.parse(written) as { integrity: Record<string, string> }).integrity);
  const entryKey = keys.find((key) => key.endsWith('/tryon-button.js'));
  expect(entryKey, 'the map pins the entry').to.be.a('string');
  const prefix = entryKey!.slice(0, -'tryon-button.js'.length);
  expect(prefix).to.match(/^https:\/\/cdn\.jsdelivr\.net\/npm\/tryon-button@[\w.-]+\/dist\/cdn\/$/);
  expect(
    keys.every((key) => key.startsWith(prefix)),
    'every key under the one folder',
  ).to.equal(true);
  return written.split(prefix).join(folder);
}

/** A page loading the entry from `folder`, with the map when `map` is given. */
async function pageWith(folder: string, map?: string): Promise<{ win: Frame; remove(): void }> {
  const iframe = document.createElement('iframe');
  const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  iframe.srcdoc = `<!doctype html><html><head>
<script>window.refused = []; addEventListener('unhandledrejection', (event) => refused.push(String(event.reason)));</script>
${map ? `<script type="importmap">${map}</script>` : ''}
<script type="module" src="${folder}tryon-button.js"></script></head><body></body></html>`;
  document.body.append(iframe);
  await loaded;
  return { win: iframe.contentWindow as Frame, remove: () => iframe.remove() };
}

async function buttonIn(win: Frame): Promise<ButtonInFrame> {
  const fake = await fakeProxy();
  const el = win.document.createElement('tryon-button') as ButtonInFrame;
  el.setAttribute('product', 'saree-red');
  // Absolute: the frame's own address is about:srcdoc.
  el.setAttribute('endpoint', new URL(fake.endpoint, location.href).href);
  win.document.body.append(el);
  return el;
}

describe('every chunk pinned by the import map', () => {
  it('untampered: the element registers and the panel opens under the map', async () => {
    const folder = `${location.origin}/cdn-build/`;
    const { win, remove } = await pageWith(folder, await mapFor(folder));
    try {
      const el = await buttonIn(win);
      await until(() => win.customElements.get('tryon-button'), 'the element registered', 20_000);
      await el.open();
      expect(win.customElements.get('tryon-panel'), 'the panel registered').to.not.equal(undefined);
      expect(win.refused).to.deep.equal([]);
    } finally {
      remove();
    }
  });

  it('a core chunk with altered bytes is refused: none of it runs, the element is never defined', async () => {
    const folder = `${location.origin}/cdn-build-altered/tryon-core/`;
    const { win, remove } = await pageWith(folder, await mapFor(folder));
    try {
      await buttonIn(win);
      await until(() => win.refused.length > 0, "the entry's import of the core refused", 20_000);
      expect(win.__tampered, 'the altered core did not run').to.equal(undefined);
      expect(win.customElements.get('tryon-button')).to.equal(undefined);
    } finally {
      remove();
    }
  });

  it('a panel chunk with altered bytes is refused: none of it runs, the dialog never opens', async () => {
    const folder = `${location.origin}/cdn-build-altered/tryon-panel/`;
    const { win, remove } = await pageWith(folder, await mapFor(folder));
    try {
      const el = await buttonIn(win);
      await until(
        () => win.customElements.get('tryon-button'),
        'the element registered (the core is untouched)',
        20_000,
      );
      let failed: unknown;
      await el.open().catch((error: unknown) => {
        failed = error;
      });
      expect(failed, 'opening failed: the panel did not load').to.not.equal(undefined);
      expect(win.__tampered, 'the altered panel did not run').to.equal(undefined);
      expect(win.customElements.get('tryon-panel')).to.equal(undefined);
    } finally {
      remove();
    }
  });

  it('control: without the map, the same altered core runs', async () => {
    const { win, remove } = await pageWith(`${location.origin}/cdn-build-altered/tryon-core~control/`);
    try {
      await buttonIn(win);
      await until(() => win.customElements.get('tryon-button'), 'the element registered', 20_000);
      expect(win.__tampered, 'the altered core ran').to.equal(true);
    } finally {
      remove();
    }
  });
});
