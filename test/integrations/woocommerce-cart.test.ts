// The WooCommerce plugin's "Add to cart" in a real WordPress (Debian's, on MariaDB and php -S),
// with a real proxy and sandbox behind the button and the built widget in Chromium. WooCommerce
// itself cannot be downloaded where the tests run, so its cart is the stand-in's
// (wordpress/woocommerce-stand-in.php): WooCommerce's AJAX add-to-cart endpoint (?wc-ajax=add_to_cart,
// taking a variation's own id as product_id), its form post, a mini-cart fragment, and what its
// add-to-cart script does on added_to_cart. A variable product's variation, picked in the
// variations form, is tried on and reaches the cart both ways.
//
// With the plugin's holdout on, the cart and the order carry the try-on's marks, and the paid
// order and its refund are posted to the admin listener, signed (Standard Webhooks), retried
// through WP-Cron while it is down (the stand-in has no Action Scheduler): first to a recording
// listener that checks the signature as the proxy does and answers as the seam says (503 to see
// the retry, 401, a report given to it), then to the proxy's own admin listener, which counts the
// exposure the widget reported and the order, and whose report the settings page shows.
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { programPath } from '../../scripts/prerequisites.js';
import { CHROMIUM_ARGS } from '../../scripts/chromium.js';
import { closeAfter, startStack, type Stack } from '../proxy/stack.js';
import { PLUGIN_FILE, startWordPress, type WordPress } from './wordpress/site.js';
import { catalogWithSaree, openShopPage, tryOnToResult, WAIT } from './cart-dialog.js';

let wp: WordPress;
let stack: Stack;
let browser: Browser;
let product: { id: number; url: string };
/** The proxy's TRYON_ORDERS_SECRET and TRYON_ADMIN_TOKEN, which the plugin is given too. */
const ordersSecret = `whsec_${randomBytes(24).toString('base64')}`;
const adminToken = 'wordpress-orders-admin-token-0123';

interface CartLine {
  product_id: number;
  variation_id: number;
  quantity: number;
  tryon?: string;
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
          adminToken,
          ordersSecret,
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
      assert.equal((await posted).postData(), 'product_id=42&quantity=1&tryon=saree-banarasi');
      await dialog.getByRole('button', { name: 'Added to cart', exact: true }).waitFor();
      await dialog.getByRole('status').filter({ hasText: 'Banarasi saree is in your cart.' }).waitFor();
      assert.deepEqual(await cartLines(), [
        { tryon: 'saree-banarasi', product_id: product.id, variation_id: 42, quantity: 1 },
      ]);
      assert.equal(await page.locator('.stand-in-cart-count').innerText(), '1', 'the mini-cart fragment was refreshed');
      assert.deepEqual(errors, []);
    });

    test("without it: the product form's post (the page reloads with the variation in the cart)", async (t) => {
      await wp.php(`update_option( 'woocommerce_enable_ajax_add_to_cart', 'no' ); delete_option( '_stand_in_cart' );`);
      const { page, dialog, errors } = await tryOnVariation(t);
      const reloaded = page.waitForNavigation({ waitUntil: 'load' });
      await dialog.getByRole('button', { name: 'Add to cart', exact: true }).click();
      await reloaded;
      assert.deepEqual(await cartLines(), [
        { tryon: 'saree-banarasi', product_id: product.id, variation_id: 42, quantity: 1 },
      ]);
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

    /** What the recording listener received: each request, and whether its signature was Standard Webhooks' own. */
    interface Received {
      path: string;
      headers: Record<string, string | string[] | undefined>;
      body: string;
      signed: boolean;
    }

    /**
     * A stand-in of the admin listener's `POST /orders` (the seam: Standard Webhooks' signature over
     * "id.timestamp.body" with the whsec_ secret's bytes; 401 for a bad one, 204 counted, 503 while
     * the store is down) and `GET /usage?window=30` (the answer given to it).
     */
    async function ordersListener(secret: string): Promise<{
      port: number;
      received: Received[];
      down: boolean;
      usage: unknown;
      next(): Promise<Received>;
      close(): Promise<void>;
    }> {
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
      const waiting: ((r: Received) => void)[] = [];
      const state = {
        received: [] as Received[],
        down: false,
        usage: {} as unknown,
        port: 0,
        next: () => new Promise<Received>((resolve) => waiting.push(resolve)),
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
      const server: Server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (request.method === 'GET' && request.url === '/usage?window=30') {
            response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state.usage));
            return;
          }
          const id = String(request.headers['webhook-id'] ?? '');
          const timestamp = String(request.headers['webhook-timestamp'] ?? '');
          const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
          const signed =
            String(request.headers['webhook-signature'] ?? '')
              .split(' ')
              .includes(`v1,${expected}`) && Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
          const entry = { path: request.url!, headers: request.headers, body, signed };
          state.received.push(entry);
          if (!signed) response.writeHead(401).end('{"error":{"code":"unauthorized"}}');
          else if (state.down) response.writeHead(503).end('{"error":{"code":"store_unavailable"}}');
          else response.writeHead(204).end();
          waiting.shift()?.(entry);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      state.port = (server.address() as { port: number }).port;
      return state;
    }

    describe(
      'WooCommerce: the try-on measured (holdout on): marks on the cart and the order, orders posted signed, the report',
      { timeout: 240_000 },
      () => {
        const secret = ordersSecret;
        const token = adminToken;
        let listener: Awaited<ReturnType<typeof ordersListener>>;

        before(async () => {
          listener = await ordersListener(secret);
          await wp.php(`
      $o = tryon_button_options(); $o['holdout'] = '0.1'; $o['add_to_cart'] = 'yes'; update_option( 'tryon_button_options', $o );
      update_option( 'woocommerce_enable_ajax_add_to_cart', 'yes' ); delete_option( '_stand_in_cart' ); delete_option( '_stand_in_session' );
      update_option( 'tryon_button_usage', array( 'url' => 'http://127.0.0.1:${listener.port}', 'loopback' => 'yes',
        'token' => tryon_button_seal_token( '${token}' ), 'orders_secret' => tryon_button_seal_token( '${secret}' ) ) );
    `);
        });
        after(async () => {
          await listener?.close();
        });

        /** The plugin's due WP-Cron events, run as wp-cron.php runs them (the test site has DISABLE_WP_CRON). */
        const runDueOrders = () =>
          wp.php(`
      foreach ( _get_cron_array() as $time => $hooks ) {
        foreach ( $hooks['tryon_button_send_order'] ?? array() as $event ) {
          if ( $time <= time() ) { wp_unschedule_event( $time, 'tryon_button_send_order', $event['args'] ); do_action_ref_array( 'tryon_button_send_order', $event['args'] ); }
        }
      }
    `);
        /** The plugin's scheduled sends: when, and which attempt. */
        const scheduled = async () =>
          JSON.parse(
            await wp.php(`
        $out = array();
        foreach ( _get_cron_array() as $time => $hooks ) {
          foreach ( $hooks['tryon_button_send_order'] ?? array() as $event ) { $out[] = array( 'in' => $time - time(), 'job' => $event['args'][0] ); }
        }
        echo wp_json_encode( $out );
      `),
          ) as { in: number; job: { kind: string; attempt: number } }[];

        test('an order placed after Add to cart reaches the proxy with its group, browser id and tried-on line; retried while the proxy is down', async (t) => {
          const page = closeAfter(t, await browser.newPage());
          page.setDefaultTimeout(WAIT);
          const errors: string[] = [];
          page.on('pageerror', (error) => errors.push(error.message));
          // This browser's draw: treatment under holdout="0.1".
          await page.addInitScript(() => localStorage.setItem('tryon-holdout', '0.5'));
          const firstMarks = page.waitForResponse((r) => r.url().includes('wc-ajax=tryon_cart_marks'));
          await page.goto(product.url, { waitUntil: 'load' });
          const tag = page.locator('tryon-button');
          assert.equal(await tag.getAttribute('holdout'), '0.1');
          assert.equal((await firstMarks).status(), 204);
          assert.equal(await page.evaluate(() => localStorage.getItem('tryon-browser')), null, 'no id before consent');
          // The shop's consent banner: the visitor allows measurement.
          const consented = page.waitForResponse(
            (r) =>
              r.url().includes('wc-ajax=tryon_cart_marks') && /browser=[\w-]{22}/.test(r.request().postData() ?? ''),
          );
          await tag.evaluate((el) => el.setAttribute('measurement', 'allowed'));
          assert.equal((await consented).status(), 204);
          const browserId = await page.evaluate(() => localStorage.getItem('tryon-browser'));
          assert.match(browserId ?? '', /^[\w-]{22}$/);
          assert.deepEqual(
            JSON.parse(await wp.php(`echo wp_json_encode( get_option( '_stand_in_session' ) );`)),
            { tryon_group: 'treatment', tryon_browser: browserId },
            "the shopper's session holds the marks",
          );

          await page.evaluate(() => {
            const $ = (window as unknown as { jQuery: (s: string) => { trigger(n: string, d?: unknown[]): void } })
              .jQuery;
            $('form.variations_form').trigger('found_variation', [{ variation_id: 42 }]);
          });
          const dialog = await tryOnToResult(page);
          await dialog.getByRole('button', { name: 'Add to cart', exact: true }).click();
          await dialog.getByRole('button', { name: 'Added to cart', exact: true }).waitFor();

          // The proxy is down when the order is paid.
          listener.down = true;
          const orderId = await page.evaluate(
            async () =>
              ((await (await fetch('/?stand_in_checkout=1', { method: 'POST' })).json()) as { order: number }).order,
          );
          const order = JSON.parse(
            await wp.php(
              `$o = wc_get_order( ${orderId} ); echo wp_json_encode( array( 'group' => $o->get_meta( '_tryon_group' ), 'browser' => $o->get_meta( '_tryon_browser' ), 'lines' => array_values( array_map( function ( $i ) { return $i->get_meta( '_tryon' ); }, $o->get_items() ) ), 'key' => $o->get_order_key() ) );`,
            ),
          ) as { group: string; browser: string; lines: string[]; key: string };
          assert.deepEqual([order.group, order.browser, order.lines], ['treatment', browserId, ['saree-banarasi']]);
          assert.deepEqual(
            (await scheduled()).map((e) => [e.job.kind, e.job.attempt, e.in <= 0]),
            [['paid', 1, true]],
            'not sent in the checkout request: queued at once',
          );

          const first = listener.next();
          await runDueOrders();
          const refused = await first;
          assert.equal(refused.signed, true, 'signed as Standard Webhooks signs');
          const retry = await scheduled();
          assert.deepEqual(
            retry.map((e) => [e.job.kind, e.job.attempt]),
            [['paid', 2]],
            'a 503: asked again later',
          );
          assert.ok(
            retry[0]!.in > 30 && retry[0]!.in <= 60,
            `back-off: the second attempt a minute later (${retry[0]!.in} s)`,
          );

          // Up again; the retry is due (moved to now rather than waiting a minute).
          listener.down = false;
          await wp.php(`
      foreach ( _get_cron_array() as $time => $hooks ) {
        foreach ( $hooks['tryon_button_send_order'] ?? array() as $event ) { wp_unschedule_event( $time, 'tryon_button_send_order', $event['args'] ); wp_schedule_single_event( time() - 1, 'tryon_button_send_order', $event['args'] ); }
      }
    `);
          const second = listener.next();
          await runDueOrders();
          const counted = await second;
          assert.equal(counted.signed, true);
          assert.equal(counted.path, '/orders');
          assert.equal(
            counted.headers['webhook-id'],
            refused.headers['webhook-id'],
            'the same event: the proxy counts it once',
          );
          assert.equal(counted.headers['authorization'], `Bearer ${token}`);
          const event = JSON.parse(counted.body) as {
            type: string;
            timestamp: string;
            data: { order: string; currency: string; total: string; group: string; browser: string; lines: unknown[] };
          };
          assert.equal(event.type, 'order.paid');
          assert.match(event.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
          assert.match(event.data.order, /^[0-9a-f]{64}$/, 'the order as an opaque key');
          assert.deepEqual(
            {
              ...event.data,
              order: undefined,
              lines: event.data.lines.map((l) => ({ ...(l as object), line: undefined })),
            },
            {
              order: undefined,
              currency: 'INR',
              total: '1000.00',
              group: 'treatment',
              browser: browserId,
              lines: [
                { line: undefined, product: 'saree-banarasi', quantity: 1, total: '1000.00', tryon: 'saree-banarasi' },
              ],
            },
          );
          for (const secretOfTheShop of [order.key, String(orderId), 'admin@', 'Banarasi'])
            assert.ok(!counted.body.includes(secretOfTheShop), `nothing but the seam's fields (${secretOfTheShop})`);
          assert.deepEqual(await scheduled(), [], 'sent: nothing left to retry');
          // Completed later: not sent twice.
          await wp.php(`wc_get_order( ${orderId} )->update_status( 'completed' );`);
          assert.deepEqual(await scheduled(), []);

          // A refund of the tried-on line.
          const refunded = listener.next();
          await wp.php(`
      $o = wc_get_order( ${orderId} ); $line = array_keys( $o->get_items() )[0];
      wc_create_refund( array( 'order_id' => ${orderId}, 'line_items' => array( $line => array( 'qty' => 1 ) ) ) );
    `);
          await runDueOrders();
          const refund = JSON.parse((await refunded).body) as {
            type: string;
            data: { order: string; refund: string; lines: unknown[] };
          };
          assert.equal(refund.type, 'order.refunded');
          assert.equal(refund.data.order, event.data.order, 'the same opaque order');
          assert.deepEqual(
            refund.data.lines.map((l) => ({ ...(l as object), line: undefined })),
            [{ line: undefined, product: 'saree-banarasi', quantity: 1, tryon: 'saree-banarasi' }],
          );
          assert.deepEqual(errors, []);
        });

        test('a 4xx is not retried: a wrong secret is said on the settings page', async () => {
          await wp.php(`
      $u = get_option( 'tryon_button_usage' ); $saved = $u['orders_secret'];
      $u['orders_secret'] = tryon_button_seal_token( 'whsec_' . base64_encode( str_repeat( 'x', 24 ) ) ); update_option( 'tryon_button_usage', $u );
      delete_option( '_stand_in_cart' ); stand_in_add_to_cart( ${product.id}, 41, 1 );
      stand_in_checkout()->update_status( 'processing' );
    `);
          const refused = listener.next();
          await runDueOrders();
          assert.equal((await refused).signed, false);
          assert.deepEqual(await scheduled(), [], 'a 401 is not asked again');
          const admin = await wp.admin();
          const { text } = await admin.follow('/wp-admin/options-general.php?page=tryon-button');
          assert.match(text, /The admin listener refused the last order(?:&#039;|')s signature or token/);
          assert.match(text, /<input type="password"[^>]*name="tryon_button_usage\[orders_secret\]"[^>]*value=""/);
          assert.ok(!text.includes(secret), 'the secret is never printed back');
          await wp.php(
            `$u = get_option( 'tryon_button_usage' ); $u['orders_secret'] = tryon_button_seal_token( '${secret}' ); update_option( 'tryon_button_usage', $u );`,
          );
        });

        test('the settings page shows the report in words and as a table, and says plainly when there is not yet enough data', async () => {
          const admin = await wp.admin();
          const usage = (lift: unknown) => ({
            days: [{ date: new Date().toISOString().slice(0, 10), tryons: 3, credits: 3 }],
            budget: {},
            lift,
          });
          const figures = (enough: boolean) => ({
            treatment: { exposed: 10_000, ordering: 310, conversion: 0.031, revenuePerExposed: 41.5 },
            holdout: { exposed: 10_000, ordering: 260, conversion: 0.026, revenuePerExposed: 35.25 },
            difference: { points: 0.5, low: 0.1, high: 0.9, level: 0.95 },
            enough,
            returns: { triedOn: { lines: 200, refunded: 12 }, other: { lines: 400, refunded: 40 } },
          });
          const shown = async () => {
            await wp.php(`delete_transient( 'tryon_button_usage_cache' );`);
            const { text: page } = await admin.follow('/wp-admin/options-general.php?page=tryon-button');
            const nonce = /"usageNonce":"(\w+)"/.exec(page)![1]!;
            const { text } = await admin.follow('/wp-admin/admin-ajax.php', {
              form: { action: 'tryon_button_usage', _ajax_nonce: nonce },
            });
            return (JSON.parse(text) as { html: string }).html;
          };
          listener.usage = usage(figures(true));
          const html = await shown();
          assert.match(
            html,
            /With the try-on, 3\.1 % of shoppers ordered; without, 2\.6 %; the difference is between \+0\.1 and \+0\.9 points, 95 % sure\. The try-on sells more\./,
          );
          assert.match(
            html,
            /<tr><th scope="row">With the try-on<\/th><td>10,000<\/td><td>310<\/td><td>3\.1 %<\/td><td>41\.50<\/td><\/tr>/,
          );
          assert.match(
            html,
            /Refunded: 6\.0 % of 200 tried-on lines, 10\.0 % of 400 other lines of the same products\./,
          );

          listener.usage = usage(figures(false));
          const early = await shown();
          assert.match(
            early,
            /Not yet enough data to say whether the try-on sells more \(last 30 days: 10,000 shoppers with the try-on, 10,000 without\)\./,
          );
          assert.doesNotMatch(early, /sure\./, 'no interval is put in words without enough data');

          // An answer from the network is escaped, whatever it holds.
          listener.usage = usage({
            ...figures(true),
            treatment: { exposed: '<img src=x onerror=alert(1)>', ordering: 1 },
          });
          assert.match(await shown(), /The proxy(?:&#039;|')s lift report could not be read\./);
        });

        test("against the proxy's own admin listener: the widget's exposure and the order are counted, and the page says it is too early", async (t) => {
          await wp.php(`
      $u = get_option( 'tryon_button_usage' ); $u['url'] = '${stack.adminUrl}'; $u['token'] = tryon_button_seal_token( '${token}' );
      update_option( 'tryon_button_usage', $u ); delete_option( 'tryon_button_orders_status' );
      delete_option( '_stand_in_cart' ); $_POST['tryon'] = 'saree-banarasi'; stand_in_add_to_cart( ${product.id}, 42, 1 );
      stand_in_checkout()->update_status( 'processing' );
    `);
          await runDueOrders();
          assert.deepEqual(await scheduled(), [], 'counted: nothing to retry');
          const status = JSON.parse(
            await wp.php(`echo wp_json_encode( get_option( 'tryon_button_orders_status' ) );`),
          ) as {
            sent: number;
            problem: string;
          };
          assert.deepEqual([status.sent, status.problem], [1, '']);
          const usage = (await (
            await fetch(`${stack.adminUrl}/usage?window=30`, { headers: { authorization: `Bearer ${token}` } })
          ).json()) as {
            lift: {
              treatment: { exposed: number; ordering: number };
              enough: boolean;
              returns: { triedOn: { lines: number } };
              orders: { treatment: number };
            };
          };
          t.diagnostic(JSON.stringify(usage.lift));
          assert.ok(usage.lift.treatment.exposed >= 1, "the widget's exposure report, counted");
          assert.equal(usage.lift.orders.treatment, 1, 'the order, in its group');
          assert.equal(usage.lift.treatment.ordering, 1);
          assert.equal(usage.lift.returns.triedOn.lines, 1, 'its tried-on line');
          assert.equal(usage.lift.enough, false);
          await wp.php(`delete_transient( 'tryon_button_usage_cache' );`);
          const html = await wp.php(`echo tryon_button_usage_html( tryon_button_refresh_usage() );`);
          assert.match(
            html,
            /Not yet enough data to say whether the try-on sells more \(last 30 days: \d+ shoppers with the try-on, 0 without\)\./,
          );
        });
      },
    );
  },
);
