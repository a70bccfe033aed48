// A press whose code cannot be loaded says so, in the element's language (role=alert), instead of
// doing nothing: the button whose dialog did not load, and "See it on a model" / "Use your phone"
// whose screens did not. The CDN build served with one chunk answering 404
// (test/widget/cdn-build.js), in a frame of its own, in each engine the suite runs.
import { expect } from '@open-wc/testing';
import { fakeProxy, until } from './helpers.js';

type Frame = Window & typeof globalThis & { refused: string[] };

async function pageFrom(folder: string, lang: string): Promise<{ win: Frame; remove(): void }> {
  const iframe = document.createElement('iframe');
  // A computer's width: "Use your phone" is offered only there.
  iframe.style.cssText = 'width: 1000px; height: 800px';
  const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  iframe.srcdoc = `<!doctype html><html lang="${lang}"><head>
<script>window.refused = []; addEventListener('unhandledrejection', (event) => refused.push(String(event.reason)));</script>
<script type="module" src="${folder}tryon-button.js"></script></head><body></body></html>`;
  document.body.append(iframe);
  await loaded;
  return { win: iframe.contentWindow as Frame, remove: () => iframe.remove() };
}

async function pressedButton(lang: string): Promise<{ el: HTMLElement; remove(): void }> {
  const { win, remove } = await pageFrom(`${location.origin}/cdn-build-missing/tryon-panel/`, lang);
  const fake = await fakeProxy();
  const el = win.document.createElement('tryon-button');
  el.setAttribute('product', 'saree-red');
  el.setAttribute('endpoint', new URL(fake.endpoint, location.href).href);
  el.setAttribute('prefetch', 'interaction');
  win.document.body.append(el);
  await until(() => win.customElements.get('tryon-button'), 'the element registered', 20_000);
  const button = await until(() => el.shadowRoot?.querySelector<HTMLButtonElement>('[part="button"]'), 'the button');
  await until(() => !el.hasAttribute('checking'), 'the availability answer', 20_000);
  // Complete once the label is in the element's language (its dictionary is a chunk of its own).
  await (el as HTMLElement & { updateComplete: Promise<boolean> }).updateComplete;
  button.click();
  return { el, remove };
}

const notOpened = (el: HTMLElement) => el.shadowRoot?.querySelector<HTMLElement>('[part="not-opened"]');

describe('a dialog that cannot be loaded', () => {
  it('is said beside the button, as an alert, and the press does not open anything', async () => {
    const { el, remove } = await pressedButton('en');
    try {
      const note = await until(
        () => (notOpened(el)?.textContent?.trim() ? notOpened(el) : undefined),
        'the words beside the button',
        20_000,
      );
      expect(note!.getAttribute('role')).to.equal('alert');
      expect(note!.hidden).to.equal(false);
      expect(note!.textContent!.trim()).to.equal('Try-on could not open. Please check your connection and try again.');
      expect(el.shadowRoot!.querySelector('tryon-panel'), 'no dialog').to.equal(null);
    } finally {
      remove();
    }
  });

  it("is said in the element's language", async () => {
    const { el, remove } = await pressedButton('hi');
    try {
      const note = await until(
        () => (notOpened(el)?.textContent?.trim() ? notOpened(el) : undefined),
        'the words beside the button',
        20_000,
      );
      expect(note!.textContent!.trim()).to.equal('ट्राई-ऑन नहीं खुल सका। कृपया अपना कनेक्शन जाँचें, फिर बटन दोबारा दबाएँ।');
    } finally {
      remove();
    }
  });
});

describe('screens of "See it on a model" and "Use your phone" that cannot be loaded', () => {
  it('are said beside the buttons, with no promise left unhandled, and nothing is asked of the proxy', async () => {
    const { win, remove } = await pageFrom(`${location.origin}/cdn-build-missing/alternatives/`, 'en');
    try {
      const models = ['asha', 'meera'].map((id) => ({
        id,
        name: id,
        image: new URL(`/fake/models/tryon/products/saree-red/models/${id}`, location.href).href,
      }));
      const fake = await fakeProxy({
        product: { views: ['front'], video: false, tier: 'draft', name: 'Red saree', models },
      });
      const el = win.document.createElement('tryon-button') as HTMLElement & { open(): Promise<void> };
      el.setAttribute('product', 'saree-red');
      el.setAttribute('endpoint', new URL(fake.endpoint, location.href).href);
      win.document.body.append(el);
      await until(() => win.customElements.get('tryon-button'), 'the element registered', 20_000);
      await el.open();
      const root = await until(() => el.shadowRoot?.querySelector('tryon-panel')?.shadowRoot, 'the dialog');
      const buttons = await until(() => {
        const found = [...root.querySelectorAll<HTMLButtonElement>('[part~="alternatives"] button')];
        return found.length === 2 ? found : undefined;
      }, 'both alternatives');
      const alert = () => root.querySelector<HTMLElement>('[part~="error"][role="alert"]');
      for (const name of ['No photo? See it on a model', 'Use your phone']) {
        buttons.find((b) => b.textContent?.trim() === name)!.click();
        const note = await until(alert, `the words after "${name}"`, 20_000);
        expect(note.textContent!.trim()).to.equal(
          'This could not be loaded. Please check your connection and try again.',
        );
        expect(
          root.querySelector('[part~="model-grid"], [part~="handoff"]'),
          'no blank screen in their place',
        ).to.equal(null);
        expect(root.querySelector('[part~="consent"]'), 'the step stays').to.not.equal(null);
      }
      expect(win.refused, 'no unhandled rejection').to.deep.equal([]);
      expect((await fake.log()).filter((r) => r.method === 'POST' && r.path === '/handoffs')).to.have.length(0);
    } finally {
      remove();
    }
  });
});
