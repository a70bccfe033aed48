// `npm start`'s contract without a browser: one origin for shop, widget and proxy; strict CSP on
// pages; images served safely; and with TRYON_API_KEY + TRYON_BASE_URL set, no sandbox of its
// own and the proxy talking to the given service (here a separate sandbox standing in for it).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { after, before, describe, test } from 'node:test';
import { startSandbox } from '../../sandbox/server.js';
import { startDemo } from '../../demo/start.js';
import type { Demo } from '../../demo/start.js';
import { colourImage, products } from '../../demo/shop/products.js';
import { SHOPPER_PHOTO } from './shop.js';

describe('the demo with its own sandbox', () => {
  let demo: Demo;
  before(async () => {
    demo = await startDemo({ port: 0, sandboxPort: 0, speed: 0, quiet: true });
  });
  after(async () => {
    await demo?.close();
  });

  test('pages carry the CSP, load only same-origin external scripts and the widget tag', async () => {
    const response = await fetch(`${demo.url}/products/saree-nivi-ruby`);
    assert.equal(response.status, 200);
    const csp = response.headers.get('content-security-policy') ?? '';
    // Scripts from the shop's own origin only; wasm (not JavaScript eval) for the HEIC decoder.
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    const html = await response.text();
    // The product's own colour is the try-on's variant until the shopper picks another.
    assert.match(
      html,
      /<tryon-button product="saree-nivi-ruby" endpoint="\/tryon" variant="ruby" privacy-url="\/privacy" add-to-cart="event">/,
    );
    assert.match(html, /<script type="module" src="\/widget\/tryon-button.js"><\/script>/);
    assert.equal(/<script(?![^>]*\bsrc=)[^>]*>/.test(html), false, 'no inline script');
    const widget = await fetch(`${demo.url}/widget/tryon-button.js`);
    assert.equal(widget.status, 200);
    assert.match(widget.headers.get('content-type') ?? '', /javascript/);
    // The entry imports the core (the element) once the page has loaded (docs/performance.md).
    const core = /\.\/(tryon-core-[\w-]+\.js)/.exec(await widget.text())?.[1];
    assert.ok(core, 'the entry imports the built core');
    const element = await fetch(`${demo.url}/widget/${core}`);
    assert.equal(element.status, 200);
    assert.ok((await element.text()).includes('tryon-button'), 'the built widget, not a stand-in');
  });

  test('every product of the catalog has a page, and the proxy offers what the catalog says', async () => {
    const catalog = JSON.parse(await readFile(new URL('../../demo/shop/catalog.json', import.meta.url), 'utf8')) as {
      products: Record<string, { views?: string[]; video?: boolean; tier?: string; pairsWith?: string[] }>;
    };
    const ids = Object.keys(catalog.products);
    assert.equal(ids.length, 12);
    for (const id of ids) {
      assert.equal((await fetch(`${demo.url}/products/${id}`)).status, 200, id);
      const offer = (await (await fetch(`${demo.url}/tryon/products/${id}`)).json()) as {
        views: string[];
        video: boolean;
        tier: string;
      };
      assert.deepEqual(offer.views, catalog.products[id]?.views ?? ['front'], id);
      assert.equal(offer.video, catalog.products[id]?.video ?? false, id);
      // The pieces that complete its look: offered by the proxy, and linked from its page.
      const pairs = catalog.products[id]?.pairsWith ?? [];
      assert.deepEqual(
        (offer as unknown as { pairs: { product: string }[] }).pairs.map((pair) => pair.product),
        pairs,
        id,
      );
      const page = await (await fetch(`${demo.url}/products/${id}`)).text();
      for (const piece of pairs) assert.ok(page.includes(`href="/products/${piece}"`), `${id} links ${piece}`);
    }
    // The bridal lehenga, the sherwani and the A-line dress each have their piece.
    assert.deepEqual(catalog.products['lehenga-emerald']?.pairsWith, ['dupatta-gota']);
    assert.deepEqual(catalog.products['sherwani-ivory']?.pairsWith, ['stole-zari']);
    assert.deepEqual(catalog.products['dress-aline-indigo']?.pairsWith, ['jacket-cropped-mustard']);
    const home = await (await fetch(`${demo.url}/`)).text();
    for (const id of ids) assert.ok(home.includes(`/products/${id}"`), `the home page links ${id}`);
  });

  test('every colour the shop shows is a variant the proxy knows, with its own picture on the page and upstream', async () => {
    const pictures = new Set<string>();
    for (const product of products) {
      const offer = (await (await fetch(`${demo.url}/tryon/products/${product.id}`)).json()) as {
        variants: { id: string; name: string; swatch: string }[];
      };
      assert.deepEqual(
        offer.variants,
        product.colours.map((colour) => ({
          id: colour.id,
          name: colour.name,
          swatch: `/tryon/products/${product.id}/image?variant=${colour.id}`,
        })),
        product.id,
      );
      for (const colour of product.colours) {
        const html = await (await fetch(`${demo.url}/products/${product.id}?variant=${colour.id}`)).text();
        const image = colourImage(product, colour);
        // Opened on that colour: its radio checked, its picture shown, the button's variant set.
        assert.match(
          html,
          new RegExp(`<input type="radio" name="colour" value="${colour.id}"[^>]* checked>`),
          `${product.id} ${colour.id}`,
        );
        assert.ok(html.includes(`<img src="/images/${image}"`), `${product.id} ${colour.id} shows ${image}`);
        assert.match(
          html,
          new RegExp(`<tryon-button product="${product.id}" endpoint="/tryon" variant="${colour.id}"`),
        );
        const response = await fetch(`${demo.url}/images/${image}`);
        assert.equal(response.status, 200, image);
        pictures.add(Buffer.from(await response.arrayBuffer()).toString('base64'));
      }
    }
    assert.equal(
      pictures.size,
      products.reduce((n, p) => n + p.colours.length, 0),
      'every colour has a picture of its own',
    );
    // An unknown ?variant= opens the product's own colour.
    const html = await (await fetch(`${demo.url}/products/saree-nivi-ruby?variant=nope`)).text();
    assert.match(html, /value="ruby"[^>]* checked>/);
  });

  test("the demo's proxy tries on the chosen colour: Sindoor red comes back red, Ivory light", async () => {
    const form = new FormData();
    form.append('photo', new Blob([await readFile(SHOPPER_PHOTO)], { type: 'image/jpeg' }), 'me.jpg');
    const { photo } = (await (await fetch(`${demo.url}/tryon/photos`, { method: 'POST', body: form })).json()) as {
      photo: string;
    };
    const torso = async (variant: string) => {
      const started = await fetch(`${demo.url}/tryon/tryons`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          product: 'saree-bengali-haveli',
          variant,
          photo,
          consent: true,
          requestId: `demo-colour-${variant}`,
          views: ['front'],
        }),
      });
      assert.equal(started.status, 202, variant);
      const { tryon } = (await started.json()) as { tryon: string };
      // Server-sent events: the stream closes once the try-on is final, with its last status.
      const events = await (await fetch(`${demo.url}/tryon/tryons/${tryon}/events`)).text();
      const last = JSON.parse(
        events
          .trim()
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .at(-1)!
          .slice(5),
      ) as { status: string; outputs: { url: string }[] };
      assert.equal(last.status, 'succeeded', variant);
      const bytes = Buffer.from(await (await fetch(new URL(last.outputs[0]!.url, `${demo.url}/tryon/`))).arrayBuffer());
      const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      // Left of the middle at waist height: the saree's body, clear of the pallu and the SANDBOX mark.
      const at = (Math.round(info.height * 0.62) * info.width + Math.round(info.width * 0.4)) * 3;
      return { r: data[at]!, g: data[at + 1]!, b: data[at + 2]! };
    };
    const red = await torso('sindoor-red');
    const ivory = await torso('ivory');
    assert.ok(red.r > 1.6 * red.g && red.r > 1.6 * red.b, `Sindoor red is red: ${JSON.stringify(red)}`);
    assert.ok(ivory.g > 150 && ivory.b > 120, `Ivory is light: ${JSON.stringify(ivory)}`);
  });

  test('?widget=off gives the same page without the widget (a baseline for page-impact measurements)', async () => {
    const html = await (await fetch(`${demo.url}/products/saree-nivi-ruby?widget=off`)).text();
    assert.equal(html.includes('tryon-button'), false);
    assert.ok(html.includes('Ruby Banarasi Silk Saree'));
  });

  test('unknown pages are 404 pages, and image paths cannot leave the images folder', async () => {
    assert.equal((await fetch(`${demo.url}/products/no-such-thing`)).status, 404);
    for (const path of [
      '/images/..%2f..%2fpackage.json',
      '/images/%2e%2e/%2e%2e/package.json',
      '/widget/..%2F..%2Fpackage.json',
      '/images/shopper.jpg%00.png',
    ]) {
      const response = await fetch(`${demo.url}${path}`);
      assert.equal(response.status, 404, path);
      assert.equal((await response.text()).includes('"name"'), false, path);
    }
    const photo = await fetch(`${demo.url}/images/shopper.jpg`);
    assert.equal(photo.status, 200);
    assert.equal(photo.headers.get('content-type'), 'image/jpeg');
    const bytes = new Uint8Array(await photo.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 2)], [0xff, 0xd8], 'a JPEG');
    assert.deepEqual(new Uint8Array(await readFile(SHOPPER_PHOTO)), bytes);
  });
});

describe('the demo against a configured service', () => {
  test('TRYON_API_KEY + TRYON_BASE_URL: no sandbox started, try-ons go to that service, the key is never printed', async () => {
    const key = 'sk_test_configured_service_key';
    const service = await startSandbox({
      port: 0,
      hostname: '127.0.0.1',
      speed: 0,
      keys: { [key]: 'ws_real' },
      log: () => undefined,
    });
    const lines: string[] = [];
    let demo: Demo | undefined;
    try {
      demo = await startDemo({
        port: 0,
        sandboxPort: 0,
        log: (line) => lines.push(line),
        env: { TRYON_API_KEY: key, TRYON_BASE_URL: `${service.url}/` },
      });
      assert.equal(demo.sandboxUrl, undefined, 'no sandbox of its own');
      assert.ok(
        lines.some((line) => line.includes(service.url)),
        lines.join('\n'),
      );
      assert.ok(
        lines.some((line) => line.includes(demo?.url ?? '?')),
        'prints the shop URL',
      );
      assert.equal(lines.join('\n').includes(key), false, 'the key is never printed');

      const health = (await (await fetch(`${demo.url}/tryon/health`)).json()) as { upstream: string };
      assert.equal(health.upstream, 'test');

      const form = new FormData();
      form.append('photo', new Blob([await readFile(SHOPPER_PHOTO)], { type: 'image/jpeg' }), 'me.jpg');
      const photo = await fetch(`${demo.url}/tryon/photos`, { method: 'POST', body: form });
      assert.equal(photo.status, 201);
      const { photo: handle } = (await photo.json()) as { photo: string };
      const tryon = await fetch(`${demo.url}/tryon/tryons`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          product: 'suit-charcoal',
          photo: handle,
          consent: true,
          requestId: 'configured-service-1',
        }),
      });
      assert.equal(tryon.status, 202);
      const state = (await (await fetch(`${service.url}/sandbox/state`)).json()) as {
        workspaces: Record<string, { jobs: { type: string; tier: string }[] }>;
      };
      // The suit is standard tier: its first look (a draft) is submitted beside it.
      assert.deepEqual(
        state.workspaces.ws_real?.jobs.map((job) => job.tier),
        ['standard', 'draft'],
        'the job and its first look landed at the configured service',
      );
      assert.ok(
        lines.some((line) => line.includes('"event":"consent"')),
        "the proxy's log lines reach the log option",
      );
      assert.equal(lines.join('\n').includes(key), false, 'the key is in no log line');
    } finally {
      await demo?.close();
      await service.close();
    }
  });
});
