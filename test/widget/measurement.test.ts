// Measuring lift on the page (`holdout`): the anonymous browser id is kept only while the visitor's
// consent allows measurement (the `measurement` attribute; Shopify's Customer Privacy API where the
// page has it) and deleted when consent is withdrawn; each product's exposure is reported to the
// proxy once a page view, with the group and (with consent) the id; the cart is marked with both
// (Shopify's cart attributes, WooCommerce's session) and the tried-on line with `_tryon`.
import { expect, fixture, html } from '@open-wc/testing';
import '../../widget/tryon-button.js';
import type { TryonButton } from '../../widget/tryon-button.js';
import { HOLDOUT_KEY } from '../../widget/analytics/holdout.js';
import { BROWSER_KEY, browserId, measurementAllowed, newBrowserId } from '../../widget/analytics/measurement.js';
import type { IdStorage } from '../../widget/analytics/measurement.js';
import { shopifyLineProperties, wooCommerceLineFields } from '../../widget/cart/cart-marks.js';

const ENDPOINT = '/measured-shop/tryon';

interface Sent {
  url: string;
  body: string;
}

/** The page's fetch, answering the proxy and the carts here, and recording what was posted. */
function recordRequests(): { sent: Sent[]; next(match: (sent: Sent) => boolean): Promise<Sent>; restore(): void } {
  const original = window.fetch;
  const sent: Sent[] = [];
  const waiting: { match: (sent: Sent) => boolean; resolve: (sent: Sent) => void }[] = [];
  window.fetch = async (input, init) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      location.href,
    );
    if (init?.method === 'POST') {
      const entry = { url: url.pathname + url.search, body: String(init.body) };
      sent.push(entry);
      for (const wait of [...waiting])
        if (wait.match(entry)) {
          waiting.splice(waiting.indexOf(wait), 1);
          wait.resolve(entry);
        }
    }
    if (url.pathname.startsWith(`${ENDPOINT}/products/`)) return Response.json({ available: true });
    if (url.pathname === `${ENDPOINT}/exposures`) return new Response(null, { status: 204 });
    if (url.pathname.endsWith('/cart/update.js')) return Response.json({ attributes: {} });
    if (url.searchParams.get('wc-ajax') === 'tryon_cart_marks') return new Response(null, { status: 204 });
    return original(input, init);
  };
  return {
    sent,
    next: (match) => {
      const found = sent.find(match);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiting.push({ match, resolve }));
    },
    restore: () => {
      window.fetch = original;
    },
  };
}

function memoryStorage(): IdStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

describe('the anonymous browser id', () => {
  it('is 128 random bits in base64url (22 characters), a new one for each browser', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newBrowserId()));
    expect(ids.size).to.equal(1000);
    for (const id of ids) expect(id).to.match(/^[A-Za-z0-9_-]{22}$/);
  });

  it('is kept only with consent: stored once and kept, deleted when consent is withdrawn, none without', () => {
    const storage = memoryStorage();
    expect(browserId(false, () => storage)).to.equal(undefined);
    expect(storage.map.has(BROWSER_KEY)).to.equal(false);
    const id = browserId(true, () => storage);
    expect(id).to.match(/^[A-Za-z0-9_-]{22}$/);
    expect(storage.map.get(BROWSER_KEY)).to.equal(id);
    expect(browserId(true, () => storage)).to.equal(id, 'the same id on every later page');
    expect(browserId(false, () => storage)).to.equal(undefined);
    expect(storage.map.has(BROWSER_KEY)).to.equal(false, 'withdrawn: deleted');
    const again = browserId(true, () => storage);
    expect(again).to.not.equal(id, 'consent given again: a new id, nothing links it to the old one');
    // Something else under the key is not an id: replaced.
    storage.map.set(BROWSER_KEY, 'not an id');
    expect(browserId(true, () => storage)).to.match(/^[A-Za-z0-9_-]{22}$/);
    expect(
      browserId(true, () => {
        throw new DOMException('denied', 'SecurityError');
      }),
    ).to.equal(undefined);
  });

  it("consent: the measurement attribute off Shopify; Shopify's Customer Privacy API where the page has it", () => {
    expect(measurementAllowed('allowed')).to.equal(true);
    expect(measurementAllowed(' Allowed ')).to.equal(true);
    for (const no of ['', 'denied', 'yes', null, undefined]) expect(measurementAllowed(no), String(no)).to.equal(false);
    const page = window as { Shopify?: unknown };
    try {
      page.Shopify = { customerPrivacy: { analyticsProcessingAllowed: () => false } };
      expect(measurementAllowed('allowed')).to.equal(false, "Shopify's answer decides");
      page.Shopify = { customerPrivacy: { analyticsProcessingAllowed: () => true } };
      expect(measurementAllowed('')).to.equal(true);
    } finally {
      delete page.Shopify;
    }
  });

  it('the line marks: _tryon on Shopify, tryon on WooCommerce; nothing for a line not tried on', () => {
    expect(shopifyLineProperties('saree-red')).to.deep.equal({ properties: { _tryon: 'saree-red' } });
    expect(shopifyLineProperties(undefined)).to.deep.equal({});
    expect(wooCommerceLineFields('saree-red')).to.deep.equal({ tryon: 'saree-red' });
    expect(wooCommerceLineFields('')).to.deep.equal({});
  });
});

describe('measuring on the page', () => {
  let requests: ReturnType<typeof recordRequests>;
  beforeEach(() => {
    localStorage.removeItem(BROWSER_KEY);
    requests = recordRequests();
  });
  afterEach(() => {
    requests.restore();
    localStorage.removeItem(HOLDOUT_KEY);
    localStorage.removeItem(BROWSER_KEY);
  });

  it('with consent: each product reported once a page view with group and id, the WooCommerce cart marked; withdrawn, the id goes', async () => {
    localStorage.setItem(HOLDOUT_KEY, '0.5');
    const el = await fixture<TryonButton>(
      html`<div>
        <tryon-button product="saree-amber" endpoint=${ENDPOINT} prefetch="interaction" holdout="0.1" measurement="allowed"
          add-to-cart="woocommerce" cart-id="12"></tryon-button>
        <tryon-button product="saree-amber" endpoint=${ENDPOINT} prefetch="interaction" holdout="0.1" measurement="allowed"
          add-to-cart="woocommerce" cart-id="12"></tryon-button>
      </div>`,
    );
    const exposure = await requests.next((s) => s.url === `${ENDPOINT}/exposures`);
    const id = localStorage.getItem(BROWSER_KEY);
    expect(id).to.match(/^[A-Za-z0-9_-]{22}$/);
    expect(JSON.parse(exposure.body)).to.deep.equal({ product: 'saree-amber', group: 'treatment', browser: id });
    const marks = await requests.next((s) => s.url === '/?wc-ajax=tryon_cart_marks');
    expect(Object.fromEntries(new URLSearchParams(marks.body))).to.deep.equal({ group: 'treatment', browser: id });

    // A re-render, a variant change: no second report of the same product on this page view.
    const first = el.querySelector('tryon-button')!;
    first.setAttribute('variant', 'red');
    await first.updateComplete;
    // Another product on the same page is its own exposure.
    const other = document.createElement('tryon-button');
    Object.assign(other, { product: 'lehenga-teal', endpoint: ENDPOINT, prefetch: 'interaction', holdout: '0.1' });
    other.setAttribute('measurement', 'allowed');
    el.append(other);
    const second = await requests.next((s) => s.url === `${ENDPOINT}/exposures` && s.body.includes('lehenga-teal'));
    expect(JSON.parse(second.body)).to.deep.equal({ product: 'lehenga-teal', group: 'treatment', browser: id });
    expect(requests.sent.filter((s) => s.url === `${ENDPOINT}/exposures`)).to.have.length(2);

    // The consent banner withdraws consent: the id is deleted and the cart marked without it.
    for (const button of el.querySelectorAll('tryon-button')) button.setAttribute('measurement', 'denied');
    const unmarked = await requests.next(
      (s) => s.url === '/?wc-ajax=tryon_cart_marks' && new URLSearchParams(s.body).get('browser') === '',
    );
    expect(Object.fromEntries(new URLSearchParams(unmarked.body))).to.deep.equal({ group: 'treatment', browser: '' });
    expect(localStorage.getItem(BROWSER_KEY)).to.equal(null);
  });

  it("without consent: no id is stored, the exposure and Shopify's cart carry the group alone", async () => {
    localStorage.setItem(HOLDOUT_KEY, '0.01');
    (window as { Shopify?: unknown }).Shopify = {
      routes: { root: '/en-in/' },
      customerPrivacy: { analyticsProcessingAllowed: () => false },
    };
    try {
      const el = await fixture<TryonButton>(
        html`<tryon-button product="kurta-plum" endpoint=${ENDPOINT} prefetch="interaction" holdout="0.1" measurement="allowed"></tryon-button>`,
      );
      const exposure = await requests.next((s) => s.url === `${ENDPOINT}/exposures`);
      expect(JSON.parse(exposure.body)).to.deep.equal({ product: 'kurta-plum', group: 'holdout' });
      const marks = await requests.next((s) => s.url === '/en-in/cart/update.js');
      expect(JSON.parse(marks.body)).to.deep.equal({ attributes: { _tryon_group: 'holdout', _tryon_browser: '' } });
      expect(localStorage.getItem(BROWSER_KEY)).to.equal(null);
      expect(el.shadowRoot!.querySelector('button')).to.equal(null, 'the holdout sees no button');
    } finally {
      delete (window as { Shopify?: unknown }).Shopify;
    }
  });

  it('no holdout, no measuring: nothing is reported, stored or marked', async () => {
    const el = await fixture<TryonButton>(
      html`<tryon-button product="dupatta-rose" endpoint=${ENDPOINT} prefetch="interaction" measurement="allowed" add-to-cart="woocommerce" cart-id="3"></tryon-button>`,
    );
    await el.updateComplete;
    // The availability check is the element's one request; it has answered once the button shows.
    await new Promise<void>((resolve) => {
      const check = () => (el.hasAttribute('checking') ? requestAnimationFrame(check) : resolve());
      check();
    });
    expect(requests.sent).to.deep.equal([]);
    expect(localStorage.getItem(BROWSER_KEY)).to.equal(null);
  });
});
