// The CDN build loaded as WordPress and Shopify load it, with a query on the entry's URL
// (`tryon-button.js?ver=1.2.3`): opening the panel must not fetch the entry a second time under
// its plain name, and one Lit runs. The page is an iframe of its own, so that nothing of the test
// runner (which brings a Lit of its own) shares its window.
import { expect } from '@open-wc/testing';
import { fakeProxy, until } from './helpers.js';

type Frame = Window & typeof globalThis & { litElementVersions?: string[] };

interface ButtonInFrame extends HTMLElement {
  status: string;
  open(): Promise<void>;
}

async function frameWith(markup: string): Promise<{ win: Frame; remove(): void }> {
  const iframe = document.createElement('iframe');
  const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  iframe.srcdoc = `<!doctype html><html><head>${markup}</head><body></body></html>`;
  document.body.append(iframe);
  await loaded;
  return { win: iframe.contentWindow as Frame, remove: () => iframe.remove() };
}

/** Fetches of files of the CDN build from inside the frame, by path (query dropped). */
function fetchesOf(win: Frame): string[] {
  return win.performance
    .getEntriesByType('resource')
    .map((entry) => new URL(entry.name).pathname)
    .filter((path) => path.startsWith('/cdn-build/'));
}

describe('the CDN build under a versioned URL', () => {
  it('opens the panel with the entry fetched once and one Lit', async () => {
    const fake = await fakeProxy();
    const { win, remove } = await frameWith(
      `<script type="module" src="/cdn-build/tryon-button.js?ver=1.2.3"></script>`,
    );
    try {
      const el = win.document.createElement('tryon-button') as ButtonInFrame;
      el.setAttribute('product', 'saree-red');
      // Absolute: the frame's own address is about:srcdoc.
      el.setAttribute('endpoint', new URL(fake.endpoint, location.href).href);
      win.document.body.append(el);
      await until(() => win.customElements.get('tryon-button'), 'the element registered in the frame', 20_000);

      (el.shadowRoot!.querySelector('button') as HTMLButtonElement).click();
      await until(() => el.status === 'consent', `the panel open at consent (now "${el.status}")`);
      expect(win.customElements.get('tryon-panel'), 'the panel registered').to.not.equal(undefined);
      const dialog = el.shadowRoot!.querySelector('tryon-panel')?.shadowRoot?.querySelector('dialog');
      expect(dialog?.open, 'the dialog is open').to.equal(true);

      const fetched = fetchesOf(win);
      expect(
        fetched.filter((path) => path === '/cdn-build/tryon-button.js'),
        fetched.join(', '),
      ).to.have.length(1);
      expect(
        fetched.filter((path) => /\/tryon-panel-[\w-]+\.js$/.test(path)),
        fetched.join(', '),
      ).to.have.length(1);
      expect(win.litElementVersions, 'one Lit in the page').to.have.length(1);
    } finally {
      remove();
    }
  });

  it('even a second copy of the entry, under its plain URL, shares the one core and the one Lit', async () => {
    const { win, remove } = await frameWith(
      `<script type="module" src="/cdn-build/tryon-button.js?ver=1.2.3"></script>
       <script type="module" src="/cdn-build/tryon-button.js"></script>`,
    );
    try {
      await until(() => win.customElements.get('tryon-button'), 'the element registered in the frame', 20_000);
      await until(
        () => fetchesOf(win).filter((path) => path === '/cdn-build/tryon-button.js').length === 2,
        'both entries fetched',
      );
      const cores = fetchesOf(win).filter((path) => /\/tryon-core-[\w-]+\.js$/.test(path));
      expect(cores, 'the core is fetched once').to.have.length(1);
      expect(win.litElementVersions, 'one Lit in the page').to.have.length(1);
    } finally {
      remove();
    }
  });
});
