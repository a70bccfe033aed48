// The Shopify theme app block rendered with liquidjs (Shopify's Liquid, minus its platform tags),
// its schema and translations, and the App Proxy signature middleware in front of a Hono app.
// The built extension under Theme Check and in Chromium: shopify-extension.test.ts.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { Hono } from 'hono';
import {
  appProxyMessage,
  checkAppProxySignature,
  signAppProxyParams,
  verifyShopifyAppProxy,
} from '../../proxy/middleware/shopify-app-proxy.js';
import { assertNoBreakout, countOpenings, findElements, hostile } from './markup.js';
import { extensionSource, loadBlock, product, renderBlock } from './shopify-block.js';

const defaults = {
  label: 'Try it on',
  accent: '#8a1c4a',
  views: '',
  video: false,
  prefetch: 'interaction',
  analytics: true,
  endpoint: '/apps/tryon',
};

const readLocale = async (name: string) =>
  JSON.parse(await readFile(new URL(`locales/${name}`, extensionSource), 'utf8')) as Record<string, unknown>;

describe('Shopify theme block', () => {
  test('an enabled product gets the tag with its handle, the settings and the module script', async () => {
    const html = await renderBlock({
      product: product('saree-banarasi-red', { tryon_enabled: { value: true } }),
      settings: { ...defaults, views: 'front,back', video: true, privacy_url: 'https://shop.example/privacy' },
      locale: 'hi',
    });
    const [tag, ...others] = findElements(html, 'tryon-button');
    assert.ok(tag, `a <tryon-button> in:\n${html}`);
    assert.equal(others.length, 0);
    assert.deepEqual(tag.attributes, {
      product: 'saree-banarasi-red',
      endpoint: '/apps/tryon',
      views: 'front,back',
      video: '',
      'privacy-url': 'https://shop.example/privacy',
      prefetch: 'interaction',
      analytics: 'shopify',
      lang: 'hi',
      accent: '#8a1c4a',
    });
    assert.equal(tag.text, 'Try it on');
    const scripts = findElements(html, 'script');
    assert.equal(scripts.length, 1);
    assert.deepEqual(scripts[0]!.attributes, {
      type: 'module',
      src: 'https://cdn.shopify.example/extensions/abc/assets/tryon-button.js?v=1732345678',
    });
    assert.match(html, /data-shopify-editor-block/, 'theme editor attributes kept so the block is selectable');
  });

  test("the store's language is passed as lang, and an unset label leaves the button's own, translated one", async () => {
    for (const locale of ['bn', 'ar', 'ur', 'pt-BR']) {
      const html = await renderBlock({
        product: product('saree-banarasi-red', { tryon_enabled: { value: true } }),
        settings: { ...defaults, label: '' },
        locale,
      });
      const tag = findElements(html, 'tryon-button')[0];
      assert.equal(tag?.attributes.lang, locale);
      assert.equal(tag?.text, '', 'no English label forced into the slot');
    }
  });

  test('the app-owned metafield tryon_product overrides the handle as the catalog key', async () => {
    const html = await renderBlock({
      product: product('red-saree-2', {
        tryon_enabled: { value: true },
        tryon_product: { value: 'saree-banarasi-red' },
      }),
      settings: defaults,
    });
    assert.equal(findElements(html, 'tryon-button')[0]?.attributes.product, 'saree-banarasi-red');
  });

  test('hostile product data and settings come out escaped and round-trip exactly', async () => {
    const html = await renderBlock({
      product: product(hostile.product, { tryon_enabled: { value: true } }),
      settings: { ...defaults, label: hostile.label, views: hostile.views, accent: hostile.accent },
    });
    assertNoBreakout(html);
    assert.equal(countOpenings(html, 'tryon-button'), 1);
    assert.equal(countOpenings(html, 'script'), 1, 'no script but the module one');
    const tag = findElements(html, 'tryon-button')[0];
    assert.ok(tag, `the tag parses with quoted attributes only:\n${html}`);
    assert.equal(tag.attributes.product, hostile.product);
    assert.equal(tag.attributes.views, hostile.views);
    assert.equal(tag.attributes.accent, hostile.accent);
    assert.equal(tag.text, hostile.label);
    assert.equal(
      Object.keys(tag.attributes).some((name) => name.startsWith('on')),
      false,
      'no event handler attribute',
    );
  });

  for (const [name, metafields] of [
    ['metafield false', { tryon_enabled: { value: false } }],
    ['no metafield', {}],
    ['metafield the string "true" rather than a boolean', { tryon_enabled: { value: 'false' } }],
  ] as const) {
    test(`a product without try-on renders nothing (${name})`, async () => {
      const html = await renderBlock({ product: product('kurta-plain', metafields), settings: defaults });
      assert.equal(countOpenings(html, 'tryon-button'), 0);
      assert.equal(countOpenings(html, 'script'), 0, 'not even the script is loaded');
      assert.equal(html.trim(), '');
    });
  }

  test('the block reads the app-owned namespace ($app) only: a merchant namespace tryon.* switches nothing on', async () => {
    const { template } = await loadBlock();
    assert.match(template, /product\.metafields\['\$app'\]\.tryon_enabled\.value/);
    assert.match(template, /product\.metafields\['\$app'\]\.tryon_product\.value/);
    assert.doesNotMatch(template, /metafields\.(tryon|app)\./, 'no merchant namespace, no literal "app" namespace');
    // The same product with its switch in the namespace the block used to read, and in another app's.
    const elsewhere = {
      ...product('saree-banarasi-red', {}),
      metafields: { tryon: { enabled: { value: true } }, app: { tryon_enabled: { value: true } } },
    };
    assert.equal((await renderBlock({ product: elsewhere, settings: defaults })).trim(), '');
  });

  for (const [name, metafields] of [
    ['no metafield', {}],
    ['metafield false', { tryon_enabled: { value: false } }],
  ] as const) {
    test(`in the theme editor, a product without try-on shows a note saying what to set (${name}); on the storefront nothing`, async () => {
      const kurta = product('kurta-plain', metafields);
      const editor = await renderBlock({ product: kurta, settings: defaults, designMode: true });
      assert.equal(countOpenings(editor, 'tryon-button'), 0);
      assert.equal(countOpenings(editor, 'script'), 0, 'no widget loaded for a note');
      const opening = /<div\b([^>]*)>/.exec(editor)?.[1] ?? '';
      assert.match(opening, /\bclass="tryon-block tryon-block--placeholder"/, editor);
      assert.match(opening, /\bdata-shopify-editor-block="\{\}"/, 'selectable in the editor');
      const note = findElements(editor, 'p')[0]?.text ?? '';
      const english = (await readLocale('en.default.json')) as { blocks: { tryon_button: { placeholder: string } } };
      assert.equal(note, english.blocks.tryon_button.placeholder);
      assert.match(note, /Virtual try-on/, 'names the metafield to set, as the app defines it');
      assert.match(note, /True/);
      const storefront = await renderBlock({ product: kurta, settings: defaults, designMode: false });
      assert.equal(storefront.trim(), '', 'shoppers see nothing');
    });
  }

  test("the editor's note is in the store's language (Hindi), English otherwise", async () => {
    const kurta = product('kurta-plain', {});
    const hindi = findElements(
      await renderBlock({ product: kurta, settings: defaults, designMode: true, locale: 'hi' }),
      'p',
    )[0];
    assert.match(hindi?.text ?? '', /[\u0900-\u097F]/);
    assert.match(hindi?.text ?? '', /Virtual try-on/, 'the metafield keeps its name, which the admin shows');
    const bengali = findElements(
      await renderBlock({ product: kurta, settings: defaults, designMode: true, locale: 'bn' }),
      'p',
    )[0];
    assert.match(bengali?.text ?? '', /^Virtual try-on is off/);
  });

  test('in the theme editor an enabled product shows the real button, as shoppers will', async () => {
    const enabled = product('saree-banarasi-red', { tryon_enabled: { value: true } });
    const editor = await renderBlock({ product: enabled, settings: defaults, designMode: true });
    assert.equal(countOpenings(editor, 'tryon-button'), 1);
    assert.doesNotMatch(editor, /placeholder/);
    assert.equal(editor, await renderBlock({ product: enabled, settings: defaults }));
  });

  test('in the theme editor without a product (no product object) it still renders nothing', async () => {
    assert.equal((await renderBlock({ settings: defaults, designMode: true })).trim(), '');
  });

  test('outside a product page (no product object) renders nothing', async () => {
    const html = await renderBlock({ settings: defaults });
    assert.equal(html.trim(), '');
  });

  test('the panel loads on interaction unless the merchant chooses idle', async () => {
    const enabled = product('saree-banarasi-red', { tryon_enabled: { value: true } });
    const prefetchFor = async (settings: Record<string, unknown>) =>
      findElements(await renderBlock({ product: enabled, settings }), 'tryon-button')[0]?.attributes.prefetch;
    assert.equal(await prefetchFor(defaults), 'interaction');
    assert.equal(await prefetchFor({ ...defaults, prefetch: 'idle' }), 'idle');
    // A block saved before the setting existed, or a value the select never offered.
    const { prefetch: _, ...older } = defaults;
    assert.equal(await prefetchFor(older), 'interaction');
    assert.equal(await prefetchFor({ ...defaults, prefetch: '" onmouseover="x' }), 'interaction');
    const { schema } = await loadBlock();
    const setting = (schema.settings as { id: string; default?: unknown; options?: { value: string }[] }[]).find(
      (s) => s.id === 'prefetch',
    );
    assert.equal(setting?.default, 'interaction', "Shopify's import-on-interaction guidance is the default");
    assert.deepEqual(
      setting?.options?.map((o) => o.value),
      ['interaction', 'idle'],
    );
  });

  test('customer events are sent when the setting is on (its default), not when off', async () => {
    const enabled = product('saree-banarasi-red', { tryon_enabled: { value: true } });
    const on = findElements(await renderBlock({ product: enabled, settings: defaults }), 'tryon-button')[0];
    assert.equal(on?.attributes.analytics, 'shopify');
    const off = findElements(
      await renderBlock({ product: enabled, settings: { ...defaults, analytics: false } }),
      'tryon-button',
    )[0];
    assert.ok(off && !('analytics' in off.attributes), 'no analytics attribute when the merchant turns it off');
    const { schema } = await loadBlock();
    const setting = (schema.settings as { id: string; type: string; default?: unknown }[]).find(
      (s) => s.id === 'analytics',
    );
    assert.deepEqual([setting?.type, setting?.default], ['checkbox', true]);
  });

  test('a product with variants passes the selected one, lists its own for the follower, and loads the follower', async () => {
    const variants = [44871234567890, 44871234567891, 44871234567892];
    const html = await renderBlock({
      product: {
        ...product('saree-banarasi', { tryon_enabled: { value: true } }, variants),
        selected_or_first_available_variant: { id: variants[1] },
      },
      settings: defaults,
    });
    const tag = findElements(html, 'tryon-button')[0];
    assert.equal(
      tag?.attributes.variant,
      '44871234567891',
      'the variant the page was opened with (?variant= or the first available)',
    );
    assert.equal(tag?.attributes['data-variant-ids'], variants.join(' '));
    assert.deepEqual(
      findElements(html, 'script').map((s) => s.attributes.src),
      [
        'https://cdn.shopify.example/extensions/abc/assets/tryon-button.js?v=1732345678',
        'https://cdn.shopify.example/extensions/abc/assets/tryon-variant.js?v=1732345678',
      ],
    );
  });

  test("a product with only Shopify's default variant sends none (its catalog entry needs no variants)", async () => {
    const html = await renderBlock({
      product: product('saree-banarasi-red', { tryon_enabled: { value: true } }),
      settings: defaults,
    });
    const tag = findElements(html, 'tryon-button')[0];
    assert.ok(tag);
    assert.ok(
      !('variant' in tag.attributes) && !('data-variant-ids' in tag.attributes),
      JSON.stringify(tag.attributes),
    );
    assert.equal(countOpenings(html, 'script'), 1, 'no follower for a product without variants');
  });

  test('the schema offers label, accent, views and video and targets product pages', async () => {
    const { schema } = await loadBlock();
    const settings = schema.settings as { id: string; type: string }[];
    const types = Object.fromEntries(settings.map((s) => [s.id, s.type]));
    assert.equal(types.label, 'text');
    assert.equal(types.accent, 'color');
    assert.equal(types.views, 'text');
    assert.equal(types.video, 'checkbox');
    assert.equal(types.endpoint, 'text');
    assert.equal(types.prefetch, 'select');
    assert.equal(types.analytics, 'checkbox');
    assert.deepEqual(schema.enabled_on, { templates: ['product'] });
    assert.equal(schema.target, 'section');
  });
});

describe('Shopify block translations', () => {
  /** Every key path to a string, and the strings themselves. */
  function leaves(value: unknown, path = ''): Map<string, string> {
    const found = new Map<string, string>();
    if (typeof value === 'string') found.set(path, value);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        for (const [p, v] of leaves(child, path ? `${path}.${key}` : key)) found.set(p, v);
      }
    }
    return found;
  }

  for (const [english, hindi] of [
    ['en.default.schema.json', 'hi.schema.json'],
    ['en.default.json', 'hi.json'],
  ] as const) {
    test(`English and Hindi have the same keys, every one filled, the Hindi ones translated (${hindi})`, async () => {
      await compareHindi(english, hindi);
    });
  }

  async function compareHindi(englishFile: string, hindiFile: string): Promise<void> {
    const english = leaves(await readLocale(englishFile));
    const hindi = leaves(await readLocale(hindiFile));
    assert.ok(english.size > 0, `${englishFile} has texts`);
    assert.deepEqual([...hindi.keys()].sort(), [...english.keys()].sort());
    for (const [key, text] of hindi) {
      assert.ok(text.trim().length > 0, `${key} is filled`);
      assert.match(text, /[\u0900-\u097F]/, `${key} is in Devanagari`);
      assert.notEqual(text, english.get(key), `${key} is translated`);
    }
  }

  test("the block's name, labels, infos and option labels are all translation keys that exist", async () => {
    const { schema } = await loadBlock();
    const english = leaves(await readLocale('en.default.schema.json'));
    const texts = [...leaves(schema)].filter(([path]) => /(^name|\.label|\.info)$/.test(path));
    assert.ok(texts.length >= 16, `names, labels and infos found: ${texts.length}`);
    for (const [path, text] of texts) {
      assert.match(text, /^t:/, `${path} is translated, not English in the schema`);
      assert.ok(english.has(text.slice(2)), `${text} is in en.default.schema.json`);
    }
  });
});

describe('Shopify App Proxy signature', () => {
  // The example from Shopify's documentation on App Proxy signatures (secret "hush").
  const documented =
    'extra=1&extra=2&shop=shop-name.myshopify.com&path_prefix=%2Fapps%2Fawesome_reviews' +
    '&timestamp=1317327555&signature=a9718877bea71c2484f91608a7eaea1532bdf71f5c56825065fa4ccabe549ef3';

  test("matches Shopify's documented example", async () => {
    const params = new URLSearchParams(documented);
    assert.equal(
      appProxyMessage(params),
      'extra=1,2path_prefix=/apps/awesome_reviewsshop=shop-name.myshopify.comtimestamp=1317327555',
    );
    assert.equal(await signAppProxyParams(params, 'hush'), params.get('signature'));
    assert.notEqual(await signAppProxyParams(params, 'hush!'), params.get('signature'));
    // The example predates logged_in_customer_id, which Shopify has added to every forwarded
    // request since 2022 (empty for a guest): a query without it is refused.
    assert.equal(await checkAppProxySignature(params, { secret: 'hush', maxAgeSeconds: 0 }), 'malformed');
    params.set('logged_in_customer_id', '');
    params.set('signature', await signAppProxyParams(params, 'hush'));
    assert.equal(await checkAppProxySignature(params, { secret: 'hush', maxAgeSeconds: 0 }), 'valid');
    assert.equal(await checkAppProxySignature(params, { secret: 'hush!', maxAgeSeconds: 0 }), 'mismatch');
    assert.equal(await checkAppProxySignature(params, { secret: 'hush' }), 'stale', 'a 2011 timestamp is too old');
  });

  const secret = 'shpss_test_secret';
  const now = Date.UTC(2026, 10, 21, 12, 0, 0);

  async function signedQuery(extra: Record<string, string> = {}, at = now): Promise<URLSearchParams> {
    const params = new URLSearchParams({
      shop: 'saree-house.myshopify.com',
      logged_in_customer_id: '',
      path_prefix: '/apps/tryon',
      timestamp: String(Math.floor(at / 1000)),
      ...extra,
    });
    params.set('signature', await signAppProxyParams(params, secret));
    return params;
  }

  function guardedApp(): { app: Hono; reached: string[] } {
    const reached: string[] = [];
    const app = new Hono();
    app.use('*', verifyShopifyAppProxy({ secret, now: () => now }));
    app.get('/products/:id', (c) => {
      reached.push(c.req.path);
      return c.json({ product: c.req.param('id') });
    });
    app.post('/webhooks', (c) => {
      reached.push(c.req.path);
      return c.body(null, 204);
    });
    return { app, reached };
  }

  test('a signed request reaches the route', async () => {
    const { app, reached } = guardedApp();
    const response = await app.request(`/products/saree-banarasi-red?${await signedQuery()}`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { product: 'saree-banarasi-red' });
    assert.deepEqual(reached, ['/products/saree-banarasi-red']);
  });

  test("the browser's own query parameters are covered by the signature", async () => {
    const { app } = guardedApp();
    const params = await signedQuery({ lang: 'hi' });
    assert.equal((await app.request(`/products/x?${params}`)).status, 200);
    params.set('lang', 'en');
    assert.equal((await app.request(`/products/x?${params}`)).status, 401);
  });

  const refusals: [string, () => Promise<string>][] = [
    ['no signature', async () => 'shop=saree-house.myshopify.com&timestamp=1'],
    [
      'a tampered shop',
      async () => {
        const p = await signedQuery();
        p.set('shop', 'evil.myshopify.com');
        return p.toString();
      },
    ],
    [
      'a forged signature',
      async () => {
        const p = await signedQuery();
        p.set('signature', 'a'.repeat(64));
        return p.toString();
      },
    ],
    [
      'a signature made with another secret',
      async () => {
        const p = await signedQuery();
        p.delete('signature');
        p.set('signature', await signAppProxyParams(p, 'other'));
        return p.toString();
      },
    ],
    ['a stale timestamp', async () => (await signedQuery({}, now - 10 * 60_000)).toString()],
    [
      'two signatures',
      async () => {
        const p = await signedQuery();
        p.append('signature', p.get('signature')!);
        return p.toString();
      },
    ],
  ];
  for (const [name, query] of refusals) {
    test(`${name} → 401 in the proxy's error shape, route not reached`, async () => {
      const { app, reached } = guardedApp();
      const response = await app.request(`/products/saree-banarasi-red?${await query()}`);
      assert.equal(response.status, 401);
      const body = (await response.json()) as { error: { code: string; message: string; retryable: boolean } };
      assert.equal(body.error.code, 'invalid_signature');
      assert.equal(typeof body.error.message, 'string');
      assert.equal(typeof body.error.retryable, 'boolean');
      assert.doesNotMatch(JSON.stringify(body), new RegExp(secret));
      assert.deepEqual(reached, []);
    });
  }

  // Shopify signs a repeated key as its values joined by commas, so a shopper's own
  // `?logged_in_customer_id=…` beside Shopify's would still be signed: its first value must never
  // name the shopper. Each of Shopify's parameters, given twice, is refused wherever the second
  // one stands in the query (before, between or after Shopify's own), with the same value or another.
  const shopifys = (at = now): [string, string][] => [
    ['shop', 'saree-house.myshopify.com'],
    ['logged_in_customer_id', ''],
    ['path_prefix', '/apps/tryon'],
    ['timestamp', String(Math.floor(at / 1000))],
  ];
  const others: Record<string, string[]> = {
    shop: ['saree-house.myshopify.com', 'another-shop.myshopify.com'],
    logged_in_customer_id: ['', '4242'],
    path_prefix: ['/apps/tryon', '/apps/other'],
    timestamp: [String(Math.floor(now / 1000)), String(Math.floor(now / 1000) - 5)],
  };
  /** The query Shopify would send with `extra` at position `at` among its own, signed as Shopify signs. */
  async function signedWith(extra: [string, string], at: number): Promise<URLSearchParams> {
    const pairs = shopifys();
    pairs.splice(at, 0, extra);
    const params = new URLSearchParams(pairs);
    params.append('signature', await signAppProxyParams(params, secret));
    return params;
  }

  for (const [name, values] of Object.entries(others)) {
    test(`${name} given twice, in every position and with either value → 401, route not reached`, async () => {
      let tried = 0;
      for (const value of values) {
        for (let at = 0; at <= shopifys().length; at++) {
          const params = await signedWith([name, value], at);
          assert.equal(params.getAll(name).length, 2);
          // Signed as Shopify signs a repeated key: both values, joined by a comma.
          assert.ok(appProxyMessage(params).includes(`${name}=${params.getAll(name).join(',')}`));
          const { app, reached } = guardedApp();
          const response = await app.request(`/products/saree-banarasi-red?${params}`);
          assert.equal(response.status, 401, `${params}`);
          const body = (await response.json()) as { error: { code: string; message: string } };
          assert.equal(body.error.code, 'invalid_signature');
          assert.match(body.error.message, /exactly once/);
          assert.deepEqual(reached, []);
          tried++;
        }
      }
      assert.equal(tried, values.length * (shopifys().length + 1));
    });
  }

  test('signature given twice, before or after the real one → 401', async () => {
    const params = await signedQuery();
    const real = params.get('signature')!;
    for (const [first, second] of [
      [real, real],
      ['a'.repeat(64), real],
      [real, 'a'.repeat(64)],
    ] as const) {
      const twice = new URLSearchParams([...params].filter(([key]) => key !== 'signature'));
      twice.append('signature', first);
      twice.append('signature', second);
      const { app, reached } = guardedApp();
      assert.equal((await app.request(`/products/x?${twice}`)).status, 401, `${twice}`);
      assert.deepEqual(reached, []);
    }
  });

  for (const name of [...Object.keys(others), 'signature']) {
    test(`a query without ${name} → 401`, async () => {
      const params = await signedQuery();
      params.delete(name);
      if (name !== 'signature') params.set('signature', await signAppProxyParams(params, secret));
      const { app, reached } = guardedApp();
      assert.equal((await app.request(`/products/x?${params}`)).status, 401, `${params}`);
      assert.deepEqual(reached, []);
    });
  }

  test('the upstream webhooks route is exempt (it has its own signature)', async () => {
    const { app, reached } = guardedApp();
    const response = await app.request('/webhooks', { method: 'POST', body: '{}' });
    assert.equal(response.status, 204);
    assert.deepEqual(reached, ['/webhooks']);
  });

  test('refuses to be set up without a secret', () => {
    assert.throws(() => verifyShopifyAppProxy({ secret: '' }), /secret/);
  });
});
