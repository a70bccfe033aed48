// Share passes on the product page with the look: the page's address, the product's name and,
// where the share sheet takes files, the try-on picture as a file; without a share sheet it copies
// the product's name with the page's address. The result file's own URL is never shared or
// copied, and the live region says what was shared. The share sheet and the clipboard are stubbed
// here (they are the browser's own windows); what the widget hands them is what is checked.
import { expect } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import { button, fakeProxy, mount, statusText, until, tryOnUntil } from './helpers.js';

const product = { views: ['front'], video: false, tier: 'draft', name: 'Red Banarasi saree' };

interface Stubs {
  /** The share sheet: undefined means the browser has none. */
  share?: (data: ShareData) => Promise<void>;
  canShare?: (data: ShareData) => boolean;
  writeText?: (text: string) => Promise<void>;
}

/** Runs `use` with navigator.share, canShare and clipboard replaced (absent when not given), then puts them back. */
async function withStubs(stubs: Stubs, use: () => Promise<void>): Promise<void> {
  const clipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
  Object.defineProperty(navigator, 'share', { configurable: true, value: stubs.share });
  Object.defineProperty(navigator, 'canShare', { configurable: true, value: stubs.canShare });
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText:
        stubs.writeText ??
        (async () => {
          throw new DOMException('Not allowed', 'NotAllowedError');
        }),
    },
  });
  try {
    await use();
  } finally {
    delete (navigator as { share?: unknown }).share;
    delete (navigator as { canShare?: unknown }).canShare;
    if (clipboard) Object.defineProperty(navigator, 'clipboard', clipboard);
    else delete (navigator as { clipboard?: unknown }).clipboard;
  }
}

async function result(): Promise<{ el: TryonButton; file: string }> {
  const fake = await fakeProxy({ product });
  const el = await mount(fake);
  await tryOnUntil(el);
  return { el, file: new URL(`${fake.endpoint}/files/front.png`, location.href).href };
}

/** The page the test runs in, as the widget shares it: its address without a fragment. */
function thisPage(): string {
  const url = new URL(location.href);
  url.hash = '';
  return url.href;
}

describe('share', () => {
  beforeEach(() => sessionStorage.clear());

  it('shares the product page with the try-on picture as a file where the share sheet takes files', async () => {
    const { el, file } = await result();
    const shared: ShareData[] = [];
    const asked: ShareData[] = [];
    await withStubs(
      {
        share: async (data) => {
          shared.push(data);
        },
        canShare: (data) => {
          asked.push(data);
          return (data.files ?? []).every((f) => f.type.startsWith('image/'));
        },
      },
      async () => {
        button(el, 'Share').click();
        await until(
          () => statusText(el) === 'Shared your try-on picture with a link to Red Banarasi saree.',
          'the announcement of the shared picture',
        );
      },
    );
    expect(shared).to.have.length(1);
    const { files, ...words } = shared[0]!;
    expect(words).to.deep.equal({
      title: 'Red Banarasi saree',
      text: 'I tried on Red Banarasi saree.',
      url: thisPage(),
    });
    expect(files).to.have.length(1);
    expect(files![0]!.name).to.equal('saree-red-front.png');
    expect(files![0]!.type).to.equal('image/png');
    // The very bytes of the result shown.
    const shown = new Uint8Array(await (await fetch(file)).arrayBuffer());
    expect(new Uint8Array(await files![0]!.arrayBuffer())).to.deep.equal(shown);
    expect(asked.length).to.be.greaterThan(0);
    expect(JSON.stringify(words)).to.not.contain('/files/');
  });

  it('shares a short, titled link to the product page where the sheet takes no files, and the canonical page when the shop names one', async () => {
    const { el } = await result();
    const canonical = document.createElement('link');
    canonical.rel = 'canonical';
    canonical.href = '/products/saree-red?utm_source=none';
    document.head.append(canonical);
    const shared: ShareData[] = [];
    try {
      await withStubs(
        {
          share: async (data) => {
            shared.push(data);
          },
          canShare: () => false,
        },
        async () => {
          button(el, 'Share').click();
          await until(
            () => statusText(el) === 'Shared a link to Red Banarasi saree.',
            'the announcement of the shared link',
          );
        },
      );
      // And with no canShare at all (an older share sheet): the same short share.
      await withStubs(
        {
          share: async (data) => {
            shared.push(data);
          },
        },
        async () => {
          button(el, 'Share').click();
          await until(() => shared.length === 2, 'the second share');
        },
      );
    } finally {
      canonical.remove();
    }
    const page = new URL('/products/saree-red?utm_source=none', location.href).href;
    const expected = { title: 'Red Banarasi saree', text: 'I tried on Red Banarasi saree.', url: page };
    expect(shared).to.deep.equal([expected, expected]);
  });

  it("without a share sheet copies the product's name with the page's address, never the file's", async () => {
    const { el, file } = await result();
    const copied: string[] = [];
    await withStubs(
      {
        writeText: async (text) => {
          copied.push(text);
        },
      },
      async () => {
        button(el, 'Share').click();
        await until(() => statusText(el) === 'Copied a link to Red Banarasi saree.', 'the copied announcement');
      },
    );
    expect(copied).to.deep.equal([`I tried on Red Banarasi saree. ${thisPage()}`]);
    expect(copied[0]).to.not.contain(file);
  });

  it("when nothing can share, shows the page's address to copy by hand; a closed share sheet says nothing", async () => {
    const { el } = await result();
    await withStubs({}, async () => {
      button(el, 'Share').click();
      await until(
        () => statusText(el) === `Could not share. The link to Red Banarasi saree: ${thisPage()}`,
        'the link shown',
      );
    });
    let closed = false;
    await withStubs(
      {
        share: async () => {
          closed = true;
          throw new DOMException('Share canceled', 'AbortError');
        },
      },
      async () => {
        const before = statusText(el);
        button(el, 'Share').click();
        await until(() => closed, 'the share sheet');
        // Nothing announces "nothing happened": one frame later the live region is as it was.
        await new Promise((resolve) => requestAnimationFrame(resolve));
        expect(statusText(el)).to.equal(before);
      },
    );
  });
});
