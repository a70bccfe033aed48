// The WooCommerce plugin's "Add to cart" in a real WordPress (Debian's, on MariaDB and php -S),
// with a real proxy and sandbox behind the button and the built widget in Chromium. WooCommerce
// itself cannot be downloaded where the tests run, so its cart is the stand-in's
// (wordpress/woocommerce-stand-in.php): WooCommerce's AJAX add-to-cart endpoint (?wc-ajax=add_to_cart,
// taking a variation's own id as product_id), its form post, a mini-cart fragment, and what its
// add-to-cart script does on added_to_cart. A variable product's variation, picked in the
// variations form, is tried on and reaches the cart both ways.
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { programPath } from '../../scripts/prerequisites.js';
import { CHROMIUM_ARGS } from '../../scripts/chromium.js';
import { startStack, type Stack } from '../proxy/stack.js';
import { PLUGIN_FILE, startWordPress, type WordPress } from './wordpress/site.js';
import { catalogWithSaree, openShopPage, tryOnToResult } from './cart-dialog.js';

let wp: WordPress;
let stack: Stack;
let browser: Browser;
let product: { id: number; url: string };

interface CartLine {
  product_id: number;
  variation_id: number;
  quantity: number;
}
const cartLines = async (): Promise<CartLine[]> =>
  JSON.parse(await wp.php(`echo wp_json_encode( stand_in_cart() );`)) as CartLine[];

describe(
  "WooCommerce: a variable product's variation, tried on, reaches the cart (real WordPress; WooCommerce's cart as a stand-in)",
  { timeout: 240_000 },
  () => {
    before(async () => {
      wp = await startWordPress();
      stack = await startStack({
        proxy: {
          allowedOrigins: [wp.url],
          catalog: catalogWithSaree(41, 42),
        },
      });
      await wp.php(`
      require_once ABSPATH . 'wp-admin/includes/plugin.php';
      $activated = activate_plugin( '${PLUGIN_FILE}' );
      if ( is_wp_error( $activated ) ) { echo $activated->get_error_message(); }
      update_option( 'tryon_button_options', array_merge( tryon_button_options(), array( 'endpoint' => ${JSON.stringify(stack.url)} ) ) );
    `);
      product = JSON.parse(
        await wp.php(`
      $id = wp_insert_post( array( 'post_type' => 'product', 'post_status' => 'publish', 'post_title' => 'Banarasi saree', 'post_content' => '<p>Two colours.</p>' ) );
      foreach ( array( '_tryon_enabled' => 'yes', '_tryon_product' => 'saree-banarasi', '_stand_in_type' => 'variable',
        '_stand_in_variations' => wp_json_encode( array( array( 'id' => 41, 'name' => 'Ivory' ), array( 'id' => 42, 'name' => 'Sindoor red' ) ) ) ) as $key => $value ) {
        update_post_meta( $id, $key, wp_slash( $value ) );
      }
      echo wp_json_encode( array( 'id' => $id, 'url' => get_permalink( $id ) ) );
    `),
      ) as { id: number; url: string };
      browser = await chromium.launch({ executablePath: programPath('chromium'), args: CHROMIUM_ARGS, headless: true });
    });

    after(async () => {
      await browser?.close();
      await Promise.all([wp?.close(), stack?.close()]);
    });

    /** The product page with Sindoor red picked in WooCommerce's variations form, tried on to the result. */
    async function tryOnVariation(t: TestContext): Promise<{ page: Page; dialog: Locator; errors: string[] }> {
      const { page, errors } = await openShopPage(t, browser, product.url);
      const tag = page.locator('tryon-button');
      assert.equal(await tag.getAttribute('add-to-cart'), 'woocommerce');
      assert.equal(await tag.getAttribute('cart-id'), String(product.id));
      // What WooCommerce's add-to-cart-variation.js triggers when the shopper picks a colour.
      await page.evaluate(() => {
        const $ = (window as unknown as { jQuery: (s: string) => { trigger(n: string, d?: unknown[]): void } }).jQuery;
        $('form.variations_form').trigger('found_variation', [{ variation_id: 42 }]);
      });
      assert.equal(await tag.getAttribute('variant'), '42');
      return { page, dialog: await tryOnToResult(page), errors };
    }

    test("with WooCommerce's AJAX add-to-cart on the page: ?wc-ajax=add_to_cart, then added_to_cart refreshes the mini-cart", async (t) => {
      await wp.php(`update_option( 'woocommerce_enable_ajax_add_to_cart', 'yes' ); delete_option( '_stand_in_cart' );`);
      const { page, dialog, errors } = await tryOnVariation(t);
      const posted = page.waitForRequest((request) => request.url().includes('wc-ajax=add_to_cart'));
      await dialog.getByRole('button', { name: 'Add to cart', exact: true }).press('Enter');
      assert.equal((await posted).postData(), 'product_id=42&quantity=1');
      await dialog.getByRole('button', { name: 'Added to cart', exact: true }).waitFor();
      await dialog.getByRole('status').filter({ hasText: 'Banarasi saree is in your cart.' }).waitFor();
      assert.deepEqual(await cartLines(), [{ product_id: product.id, variation_id: 42, quantity: 1 }]);
      assert.equal(await page.locator('.stand-in-cart-count').innerText(), '1', 'the mini-cart fragment was refreshed');
      assert.deepEqual(errors, []);
    });

    test("without it: the product form's post (the page reloads with the variation in the cart)", async (t) => {
      await wp.php(`update_option( 'woocommerce_enable_ajax_add_to_cart', 'no' ); delete_option( '_stand_in_cart' );`);
      const { page, dialog, errors } = await tryOnVariation(t);
      const reloaded = page.waitForNavigation({ waitUntil: 'load' });
      await dialog.getByRole('button', { name: 'Add to cart', exact: true }).click();
      await reloaded;
      assert.deepEqual(await cartLines(), [{ product_id: product.id, variation_id: 42, quantity: 1 }]);
      assert.equal(await page.locator('.stand-in-cart-count').innerText(), '1');
      assert.deepEqual(errors, []);
    });

    test('Settings → Virtual try-on turns it off: no add-to-cart attribute', async () => {
      await wp.php(
        `$o = tryon_button_options(); $o['add_to_cart'] = 'no'; update_option( 'tryon_button_options', $o );`,
      );
      const html = await (await fetch(product.url)).text();
      assert.match(html, /<tryon-button [^>]*product="saree-banarasi"/);
      assert.doesNotMatch(html, /add-to-cart=|cart-id=/);
      const admin = await wp.admin();
      const { text } = await admin.follow('/wp-admin/options-general.php?page=tryon-button');
      assert.match(
        text,
        /<input type="hidden" name="tryon_button_options\[add_to_cart\]" value="no"><label><input type="checkbox" id="tryon-button-add-to-cart" name="tryon_button_options\[add_to_cart\]" value="yes">/,
      );
      await wp.php(
        `$o = tryon_button_options(); $o['add_to_cart'] = 'yes'; update_option( 'tryon_button_options', $o );`,
      );
      assert.match(await (await fetch(product.url)).text(), / add-to-cart="woocommerce" cart-id="\d+"/);
    });
  },
);
