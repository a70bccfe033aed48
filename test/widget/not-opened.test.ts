// A press on the button whose dialog cannot be loaded says so beside the button, in the element's
// language (role=alert), instead of doing nothing: the CDN build served with its panel chunk
// answering 404 (test/widget/cdn-build.js), in a frame of its own, in each engine the suite runs.
import { expect } from '@open-wc/testing';
import { fakeProxy, until } from './helpers.js';

type Frame = Window & typeof globalThis;

async function pageFrom(folder: string, lang: string): Promise<{ win: Frame; remove(): void }> {
  const iframe = document.createElement('iframe');
  const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  iframe.srcdoc = `<!doctype html><html lang="${lang}"><head>
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
      expect(note!.textContent!.trim()).to.equal(
        'Try-on could not open. Please check your connection, then press the button again.',
      );
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
