// The WooCommerce plugin: every PHP file linted with `php -l`, then the plugin run by php-cli
// against stand-ins of the WordPress functions it calls (test/integrations/woocommerce/), with
// ordinary and hostile product data and settings. What a real WordPress can show (activation,
// the settings page and its saving, the proxy check, pages, variations, uninstall) is tested in
// one, by wordpress.test.ts; these stand-ins keep what it cannot: WordPress 6.5's script modules,
// the site's locale as lang, and the product editor's fields (WooCommerce's own admin).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { listFiles } from '../../scripts/build.js';
import { assertNoBreakout, countOpenings, findElements, hostile } from './markup.js';
import { php, pluginDir, render, runner, standIns } from './woocommerce/plugin.js';

const options = (values: Record<string, string>) => ({ tryon_button_options: values });

async function phpFiles(dir: string): Promise<string[]> {
  return (await listFiles(dir)).filter((path) => path.endsWith('.php'));
}

describe('WooCommerce plugin', () => {
  before(async () => {
    await php(['-v']);
  });

  test('every PHP file passes php -l', async () => {
    const files = [...(await phpFiles(pluginDir)), standIns, runner];
    assert.ok(files.length >= 6, `found ${files.length} PHP files`);
    for (const file of files) {
      const { code, stdout } = await php(['-l', file]);
      assert.equal(code, 0, `${file}: ${stdout}`);
      assert.match(stdout, /No syntax errors detected/);
    }
  });

  test('an enabled product gets the tag right after the add-to-cart button; others get nothing', async () => {
    const out = await render({
      options: options({ endpoint: '/tryon', label: 'See it on you', accent: '#8a1c4a' }),
      meta: {
        12: { _tryon_enabled: 'yes', _tryon_views: 'front,back', _tryon_video: 'yes' },
        13: { _tryon_enabled: 'no' },
      },
      locale: 'hi_IN',
      products: [
        { id: 12, slug: 'saree-banarasi-red' },
        { id: 13, slug: 'kurta-plain' },
        { id: 14, slug: 'no-meta' },
      ],
    });
    const [enabled, disabled, noMeta] = out.products;
    assert.match(
      enabled!,
      /Add to cart<\/button><div class="tryon-button-wrap"><tryon-button /,
      'after the add-to-cart button',
    );
    assert.deepEqual(findElements(enabled!, 'tryon-button'), [
      {
        attributes: {
          product: 'saree-banarasi-red',
          endpoint: '/tryon',
          views: 'front,back',
          video: '',
          lang: 'hi',
          'add-to-cart': 'woocommerce',
          'cart-id': '12',
          accent: '#8a1c4a',
        },
        text: 'See it on you',
      },
    ]);
    assert.equal(countOpenings(disabled!, 'tryon-button'), 0);
    assert.equal(countOpenings(noMeta!, 'tryon-button'), 0);
  });

  test("the site's language is passed as lang, and an unset label leaves the button's own, translated one", async () => {
    for (const [locale, lang] of [
      ['bn_BD', 'bn'],
      ['ar', 'ar'],
      ['ur_PK', 'ur'],
      ['ta_IN', 'ta'],
    ] as const) {
      const out = await render({
        meta: { 7: { _tryon_enabled: 'yes' } },
        locale,
        products: [{ id: 7, slug: 'saree-banarasi-red' }],
      });
      const tag = findElements(out.products[0]!, 'tryon-button')[0];
      assert.equal(tag?.attributes.lang, lang, locale);
      assert.equal(tag?.text, '', 'no English label forced into the slot');
    }
  });

  test('the script is enqueued as a module: the bundled copy, or the configured CDN URL', async () => {
    const bundled = await render({ meta: { 1: { _tryon_enabled: 'yes' } }, products: [{ id: 1, slug: 'a' }] });
    assert.deepEqual(
      findElements(bundled.footer, 'script').map((s) => s.attributes),
      [
        {
          type: 'module',
          src: 'https://shop.example/wp-content/plugins/tryon-button/assets/tryon-button.js?ver=0.1.0',
          id: 'tryon-button-js-module',
        },
      ],
    );
    const cdn = await render({
      options: options({ script_url: 'https://cdn.example/tryon-button/0.1.0/tryon-button.js' }),
      shortcodes: [{ atts: { product: 'a' } }],
    });
    assert.equal(
      findElements(cdn.footer, 'script')[0]?.attributes.src,
      'https://cdn.example/tryon-button/0.1.0/tryon-button.js?ver=0.1.0',
    );
    const none = await render({ products: [{ id: 2, slug: 'b' }] });
    assert.equal(none.footer, '', 'no script on pages without a button');
  });

  test('before WordPress 6.5 (classic scripts) only our script tag becomes type="module"', async () => {
    const out = await render({});
    assert.match(out.classicTag, /^<script type="module" src='https:\/\/shop\.example\/x\.js'/);
    assert.doesNotMatch(out.otherTag, /module/);
  });

  test('hostile product data comes out escaped on the product page and round-trips exactly', async () => {
    const out = await render({
      meta: {
        20: { _tryon_enabled: 'yes', _tryon_views: hostile.views },
        21: { _tryon_enabled: 'yes', _tryon_product: hostile.product },
      },
      products: [
        { id: 20, slug: hostile.product },
        { id: 21, slug: 'plain' },
      ],
    });
    for (const page of out.products) {
      assertNoBreakout(page);
      assert.equal(countOpenings(page, 'tryon-button'), 1);
      assert.equal(countOpenings(page, 'script'), 0);
      const tag = findElements(page, 'tryon-button')[0];
      assert.ok(tag, `tag parses with quoted attributes only:\n${page}`);
      assert.equal(tag.attributes.product, hostile.product);
      assert.equal(
        Object.keys(tag.attributes).some((name) => name.startsWith('on')),
        false,
      );
    }
    assert.equal(findElements(out.products[0]!, 'tryon-button')[0]?.attributes.views, hostile.views);
  });

  test('hostile settings left in the database are escaped or refused where printed', async () => {
    const out = await render({
      options: options({
        label: hostile.label,
        accent: hostile.accent,
        endpoint: 'javascript:alert(5)',
        privacy_url: hostile.privacy,
        script_url: 'javascript:alert(6)',
      }),
      meta: { 30: { _tryon_enabled: 'yes' } },
      products: [{ id: 30, slug: 'saree' }],
    });
    const page = out.products[0]!;
    assertNoBreakout(page);
    assert.doesNotMatch(page + out.footer, /javascript:/i);
    const tag = findElements(page, 'tryon-button')[0];
    assert.ok(tag);
    assert.equal(tag.text, hostile.label);
    assert.equal(tag.attributes.endpoint, '/tryon', 'a bad endpoint falls back to the default');
    assert.equal(tag.attributes.style, undefined, 'an accent that is not a colour is dropped');
    assert.equal(tag.attributes['privacy-url'], undefined);
    assert.match(
      out.footer,
      /plugins\/tryon-button\/assets\/tryon-button\.js/,
      'a bad script URL falls back to the bundled copy',
    );
  });

  test('[tryon_button] shortcode: explicit product anywhere, the current product only if enabled; never its own endpoint', async () => {
    const out = await render({
      options: options({ label: 'Try it on' }),
      meta: { 40: { _tryon_enabled: 'yes', _tryon_product: 'lehenga-emerald' }, 41: { _tryon_enabled: 'no' } },
      shortcodes: [
        {
          atts: {
            product: 'saree-banarasi-red',
            label: 'See it on you',
            views: 'front,side',
            video: 'yes',
            endpoint: '/apps/tryon',
          },
        },
        { atts: '', current: { id: 40, slug: 'lehenga' } },
        { atts: '', current: { id: 41, slug: 'off' } },
        { atts: '' },
        {
          atts: {
            product: hostile.product,
            label: hostile.label,
            views: hostile.views,
            endpoint: '//evil.example/tryon',
          },
        },
      ],
    });
    const [explicit, current, disabled, nowhere, evil] = out.shortcodes;
    assert.deepEqual(
      findElements(explicit!, 'tryon-button')[0],
      {
        attributes: { product: 'saree-banarasi-red', endpoint: '/tryon', views: 'front,side', video: '', lang: 'en' },
        text: 'See it on you',
      },
      'the endpoint is the setting (here the default), whatever the post says',
    );
    assert.equal(out.doingItWrong.length, 1, 'said once per page, however many shortcodes');
    assert.match(
      out.doingItWrong[0]!,
      /^tryon_button_shortcode: The \[tryon_button\] shortcode ignores its endpoint attribute/,
    );
    assert.equal(findElements(current!, 'tryon-button')[0]?.attributes.product, 'lehenga-emerald');
    assert.equal(disabled, '');
    assert.equal(nowhere, '');
    assertNoBreakout(evil!);
    const tag = findElements(evil!, 'tryon-button')[0];
    assert.ok(tag, evil);
    assert.equal(tag.attributes.product, hostile.product);
    assert.equal(tag.attributes.views, hostile.views);
    assert.equal(tag.attributes.endpoint, '/tryon');
    assert.equal(tag.text, hostile.label);
  });

  test('product editor fields save the switches and a cleaned views list', async () => {
    const out = await render({
      save: {
        id: 50,
        post: { _tryon_enabled: 'on', _tryon_product: ' <b>saree</b> ', _tryon_views: 'Front, back"><x' },
      },
    });
    assert.match(out.productFields, /id="_tryon_enabled"/);
    assert.deepEqual(out.savedMeta, {
      _tryon_enabled: 'yes',
      _tryon_video: 'no',
      _tryon_product: 'saree',
      _tryon_views: 'front,back',
    });
  });

  test('suggests privacy policy text on admin_init: the photo, where it goes, how long it is kept, consent', async () => {
    const out = await render({ options: options({ endpoint: 'https://tryon.shop.example/tryon' }) });
    assert.equal(out.privacyPolicy.length, 1, 'registered once');
    const [{ plugin, text }] = out.privacyPolicy as [{ plugin: string; text: string }];
    assert.equal(plugin, 'Virtual Try-On Button');
    // WordPress's Privacy Policy Guide shows the tutorial to the administrator, not in the copied text.
    assert.match(
      text,
      /^<p class="privacy-policy-tutorial">[^<]+<\/p><strong class="privacy-policy-tutorial">Suggested text: <\/strong>(<p>[^<]+<\/p>){5}$/,
    );
    const suggested = text.slice(text.indexOf('</strong>'));
    assert.match(suggested, /a photo of yourself/, 'what the photo is');
    assert.match(suggested, /Nothing is uploaded until you tick the consent box/, 'consent');
    assert.match(suggested, /removes its location and camera data \(EXIF, GPS, XMP\)/);
    assert.match(
      suggested,
      /our try-on server at https:\/\/tryon\.shop\.example\/tryon/,
      'where it goes: the endpoint saved',
    );
    assert.match(suggested, /virtual try-on provider, \[name of the provider\]/, 'and the service behind it');
    assert.match(suggested, /after \[1 hour\].*after \[1 day\]/, "how long: the proxy's defaults, to be checked");
    assert.match(suggested, /Forget my photo/);
    const tutorial = text.slice(0, text.indexOf('</p>'));
    assert.match(tutorial, /TRYON_BASE_URL/);
    assert.match(tutorial, /TRYON_PHOTO_TTL_SECONDS, TRYON_RESULT_TTL_SECONDS/);
    // A hostile endpoint left in the database is escaped where printed.
    const hostileOut = await render({ options: options({ endpoint: '/tryon"><script>alert(7)</script>' }) });
    assertNoBreakout(hostileOut.privacyPolicy[0]!.text);
    assert.equal(countOpenings(hostileOut.privacyPolicy[0]!.text, 'script'), 0);
  });
});
