// The plugin in a real WordPress: Debian's WordPress 6.1 on a private MariaDB, served by php -S,
// driven over HTTP as its administrator (log-in, nonces read from the pages, the Plugins screen's
// own links) and, for what a page cannot show, by PHP run with WordPress loaded
// (test/integrations/wordpress/site.ts). WooCommerce cannot be downloaded here: its product
// post type, add-to-cart form, variations form and FeaturesUtil are stand-ins loaded inside that
// WordPress as a must-use plugin (wordpress/woocommerce-stand-in.php).
//
// The tests run in order on one site: activation first, uninstall last.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { programPath } from '../../scripts/prerequisites.js';
import { CHROMIUM_ARGS } from '../../scripts/chromium.js';
import { photoHandle, startStack, startTryon, waitForStatus, type Stack } from '../proxy/stack.js';
import { assertNoBreakout, countOpenings, decodeEntities, findElements, hostile } from './markup.js';
import { PLUGIN_FILE, startWordPress, type Session, type WordPress } from './wordpress/site.js';

const SETTINGS_PAGE = '/wp-admin/options-general.php?page=tryon-button';

let wp: WordPress;
let admin: Session;
let stack: Stack;
let browser: Browser | undefined;

/** Chromium, launched once, on first use. */
async function chromiumBrowser(): Promise<Browser> {
  browser ??= await chromium.launch({ executablePath: programPath('chromium'), args: CHROMIUM_ARGS, headless: true });
  return browser;
}

/** The page in Chromium, with the errors it throws. */
async function openInChromium(url: string): Promise<{ tab: Page; errors: string[] }> {
  const tab = await (await chromiumBrowser()).newPage();
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(error.message));
  await tab.goto(url, { waitUntil: 'load' });
  return { tab, errors };
}

/** The plugin's settings page as the administrator sees it: Chromium, with the admin's cookies. */
async function settingsAsAdmin(): Promise<{ tab: Page; close: () => Promise<void> }> {
  const context = await (await chromiumBrowser()).newContext();
  await context.addCookies(admin.cookieList().map((cookie) => ({ ...cookie, url: wp.url })));
  const tab = await context.newPage();
  await tab.goto(`${wp.url}${SETTINGS_PAGE}`);
  return { tab, close: () => context.close() };
}

/** Whether each <tryon-button> on the page became the widget: defined, rendered, with its button. */
function upgradedButtons(tab: Page): Promise<boolean[]> {
  return tab.evaluate(async () => {
    // Bounded: a script that never runs (not loaded as a module, a missing chunk) never defines it.
    await Promise.race([
      customElements.whenDefined('tryon-button'),
      new Promise((_, reject) => setTimeout(() => reject(new Error('<tryon-button> was never defined')), 15_000)),
    ]);
    return Promise.all(
      [...document.querySelectorAll('tryon-button')].map(async (element) => {
        await (element as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
        return element.shadowRoot?.querySelector('button') != null;
      }),
    );
  });
}

/** An address where nothing listens: a port the system gave out, then closed. */
async function deadAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/tryon`;
}

/**
 * A loopback server that records the paths asked of it and the Authorization header each came with:
 * it answers every one with a page that is no proxy's (a service inside the site's network), or,
 * held, answers none (a proxy that hangs).
 */
async function recorder(mode: 'answer' | 'hold' = 'answer'): Promise<{
  port: number;
  paths: string[];
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}> {
  const paths: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const held: ServerResponse[] = [];
  const server = createHttpServer((request, response) => {
    paths.push(request.url!);
    authorizations.push(request.headers.authorization);
    if (mode === 'hold') held.push(response);
    else response.writeHead(200, { 'content-type': 'text/plain' }).end('internal: the database password is hunter2');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    paths,
    authorizations,
    close: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The value of `name` in the first form field that has it (hidden inputs WordPress prints). */
function fieldValue(html: string, name: string): string {
  const input = [...html.matchAll(/<input\b[^>]*>/g)]
    .map((m) => m[0])
    .find((tag) => tag.includes(`name="${name}"`) || tag.includes(`name='${name}'`));
  const value = input?.match(/value=["']([^"']*)["']/)?.[1];
  if (value === undefined) throw new Error(`no ${name} field in:\n${html.slice(0, 3000)}`);
  return decodeEntities(value);
}

function linkHref(html: string, pattern: RegExp): string {
  const link = [...html.matchAll(/<a\b[^>]*href=["']([^"']*)["'][^>]*>([\s\S]*?)<\/a>/g)].find((m) =>
    pattern.test(m[0]),
  );
  if (!link) throw new Error(`no link matching ${pattern}`);
  return decodeEntities(link[1]!);
}

async function savedOptions(): Promise<Record<string, string>> {
  return JSON.parse(await wp.php(`echo wp_json_encode( get_option( 'tryon_button_options' ) );`)) as Record<
    string,
    string
  >;
}

/** Submits the settings form as the administrator; resolves with the page WordPress shows after. */
async function saveSettings(fields: Record<string, string | string[]>): Promise<string> {
  const { text: form } = await admin.follow(SETTINGS_PAGE);
  const posted: Record<string, string | string[]> = {
    option_page: 'tryon_button',
    action: 'update',
    _wpnonce: fieldValue(form, '_wpnonce'),
    _wp_http_referer: fieldValue(form, '_wp_http_referer'),
  };
  for (const [key, value] of Object.entries(fields))
    posted[`tryon_button_options[${key}]${Array.isArray(value) ? '[]' : ''}`] = value;
  const { response, url, text } = await admin.follow('/wp-admin/options.php', { form: posted });
  assert.equal(response.status, 200, text.slice(0, 2000));
  assert.match(url, /page=tryon-button&settings-updated=true/);
  return text;
}

/** Submits the usage fields of the settings form as `session`; resolves with the page shown after. */
async function saveUsage(session: Session, fields: Record<string, string>): Promise<string> {
  const { text: form } = await session.follow(SETTINGS_PAGE);
  const posted: Record<string, string> = {
    option_page: 'tryon_button',
    action: 'update',
    _wpnonce: fieldValue(form, '_wpnonce'),
    _wp_http_referer: fieldValue(form, '_wp_http_referer'),
  };
  for (const [key, value] of Object.entries(fields)) posted[`tryon_button_usage[${key}]`] = value;
  const { response, text } = await session.follow('/wp-admin/options.php', { form: posted });
  assert.equal(response.status, 200, text.slice(0, 2000));
  return text;
}

async function savedUsage(): Promise<Record<string, string>> {
  return JSON.parse(await wp.php(`echo wp_json_encode( get_option( 'tryon_button_usage' ) );`)) as Record<
    string,
    string
  >;
}

/** The nonce the settings page gives its script for the usage section. */
function usageNonce(html: string): string {
  const nonce = html.match(/"usageNonce":"([0-9a-f]+)"/)?.[1];
  if (!nonce) throw new Error(`no usage nonce in:\n${html.slice(0, 3000)}`);
  return nonce;
}

/** What admin-ajax.php answers the usage section's script: it asks the saved admin listener now. */
async function askUsage(session: Session, nonce: string): Promise<{ code: number; body: string }> {
  const response = await session.request('/wp-admin/admin-ajax.php', {
    form: { action: 'tryon_button_usage', _ajax_nonce: nonce },
  });
  return { code: response.status, body: await response.text() };
}

const occurrences = (text: string, pattern: RegExp) => text.match(new RegExp(pattern.source, 'g'))?.length ?? 0;

/** The nonce the settings page gives its script for the proxy status. */
function statusNonce(html: string): string {
  const nonce = html.match(/"nonce":"([0-9a-f]+)"/)?.[1];
  if (!nonce) throw new Error(`no proxy status nonce in:\n${html.slice(0, 3000)}`);
  return nonce;
}

/** What admin-ajax.php answers the settings page's script. */
async function askProxyStatus(session: Session, nonce: string): Promise<{ code: number; body: string }> {
  const response = await session.request('/wp-admin/admin-ajax.php', {
    form: { action: 'tryon_button_proxy_status', _ajax_nonce: nonce },
  });
  return { code: response.status, body: await response.text() };
}

/** The proxy status with `endpoint` saved: the settings page, then what its script asks. */
async function proxyStatus(endpoint: string): Promise<unknown> {
  await wp.php(
    `$o = get_option( 'tryon_button_options' ); $o['endpoint'] = ${JSON.stringify(endpoint)}; update_option( 'tryon_button_options', $o );`,
  );
  const { text } = await admin.follow(SETTINGS_PAGE);
  assert.match(
    text,
    /<p id="tryon-button-proxy-status" class="tryon-proxy-checking"/,
    'the page shows the status as being checked',
  );
  const { code, body } = await askProxyStatus(admin, statusNonce(text));
  assert.equal(code, 200, body);
  return JSON.parse(body);
}

/** Lines the debug log gained after this offset count; earlier ones a test has already accounted for. */
let logAccountedFor = 0;

/**
 * What the debug log holds besides WordPress 6.1's own deprecation notices on PHP 8.2 (6.1 predates
 * it: its bundled Requests library lacks PHP 8.1's return types, and the plugin-delete screen passes
 * null to preg_replace): only deprecations raised in wp-includes/ or wp-admin/ are WordPress's.
 */
async function logBeyondCore(): Promise<string[]> {
  const lines = (await wp.debugLog())
    .slice(logAccountedFor)
    .split('\n')
    .filter((line) => line.trim() !== '');
  return lines.filter(
    (line) => !/PHP Deprecated: .* in \/\S+\/site\/wp-(includes|admin)\/\S+\.php on line \d+$/.test(line),
  );
}

async function createPost(
  type: 'page' | 'product',
  title: string,
  content: string,
  meta: Record<string, string> = {},
): Promise<{ id: number; url: string }> {
  return JSON.parse(
    await wp.php(`
    kses_remove_filters();
    $id = wp_insert_post( array( 'post_type' => '${type}', 'post_status' => 'publish', 'post_title' => ${JSON.stringify(title)}, 'post_content' => ${JSON.stringify(content)} ) );
    foreach ( json_decode( ${JSON.stringify(JSON.stringify(meta))}, true ) as $key => $value ) { update_post_meta( $id, $key, wp_slash( $value ) ); }
    echo wp_json_encode( array( 'id' => $id, 'url' => get_permalink( $id ) ) );
  `),
  ) as { id: number; url: string };
}

const AUTHOR = { user: 'author', password: 'an-author-test-password' } as const;
let author: { id: number; session: Session } | undefined;

/** A user with WordPress's Author role (publishes posts, no unfiltered_html), logged in. */
async function authorSession(): Promise<{ id: number; session: Session }> {
  if (!author) {
    const id = Number(
      await wp.php(`
      $id = wp_insert_user( array( 'user_login' => '${AUTHOR.user}', 'user_pass' => '${AUTHOR.password}', 'user_email' => 'author@shop.example', 'role' => 'author' ) );
      echo is_wp_error( $id ) ? $id->get_error_message() : $id;
    `),
    );
    assert.ok(id > 0, 'the Author was created');
    author = { id, session: await wp.logIn(AUTHOR.user, AUTHOR.password) };
  }
  return author;
}

async function page(url: string): Promise<string> {
  const response = await fetch(url);
  assert.equal(response.status, 200, url);
  return response.text();
}

const scriptTags = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);

/**
 * A tag's attributes by name, in whatever order and quotes the WordPress version wrote them (6.1's
 * classic script marked as a module prints `type` first with single quotes; 6.5+ script modules
 * print `src`, `id` and `type` in their own order with double quotes).
 */
function tagAttributes(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [, name, double, single, bare] of tag
    .replace(/^<\w+|\/?>$/g, '')
    .matchAll(/([a-zA-Z][\w-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    attributes[name!.toLowerCase()] = decodeEntities(double ?? single ?? bare ?? '');
  }
  return attributes;
}

describe(
  "the WordPress plugin in a real WordPress (Debian's 6.1 or 7.1, MariaDB; WooCommerce as stand-ins)",
  { timeout: 180_000 },
  () => {
    before(async () => {
      [wp, stack] = await Promise.all([startWordPress(), startStack()]);
      admin = await wp.admin();
      // Which WordPress this run is on (the node suite: Debian's 6.1; the wordpress71 suite: 7.1).
      console.log(
        `  measured: WordPress ${(await wp.php("echo get_bloginfo( 'version' );")).trim()} at ${programPath('wordpress')}`,
      );
    });

    after(async () => {
      await Promise.all([wp?.close(), stack?.close(), browser?.close()]);
    });

    test('activates from the Plugins screen with WP_DEBUG on, without a notice, warning or error', async () => {
      const { text: plugins } = await admin.follow('/wp-admin/plugins.php');
      const { text } = await admin.follow(`/wp-admin/${linkHref(plugins, /id="activate-virtual-try-on-button"/)}`);
      assert.match(text, /Plugin activated\./);
      assert.match(
        await wp.php(`echo implode( ',', get_option( 'active_plugins' ) );`),
        /tryon-button\/tryon-button\.php/,
      );
      // Pages the plugin takes part in, so that anything it logs would be logged by now.
      await admin.follow(SETTINGS_PAGE);
      await page(wp.url);
      assert.deepEqual(await logBeyondCore(), []);
    });

    test('the Plugins screen: a Settings link to its page, a description without tags', async () => {
      const { text } = await admin.follow('/wp-admin/plugins.php');
      const row = text.match(/<tr[^>]*data-plugin="tryon-button\/tryon-button\.php"[\s\S]*?<\/tr>/)?.[0];
      assert.ok(row);
      assert.equal(linkHref(row, />Settings</), `${wp.url}/wp-admin/options-general.php?page=tryon-button`);
      const description = row.match(/<div class='plugin-description'><p>([\s\S]*?)<\/p>/)?.[1];
      assert.equal(
        description,
        'Lets shoppers see themselves wearing a product: adds a virtual try-on button to WooCommerce product pages, and the [tryon_button] shortcode anywhere.',
      );
    });

    test('declares High-Performance Order Storage compatibility when WooCommerce initialises', async () => {
      const declared = JSON.parse(
        await wp.php('echo wp_json_encode( \\Automattic\\WooCommerce\\Utilities\\FeaturesUtil::$declared );'),
      );
      assert.deepEqual(declared, [
        { feature: 'custom_order_tables', file: join(wp.root, 'wp-content/plugins', PLUGIN_FILE), positive: true },
      ]);
    });

    test("suggests its privacy policy text in WordPress's Privacy Policy Guide", async () => {
      const { response, text } = await admin.follow('/wp-admin/privacy-policy-guide.php');
      assert.equal(response.status, 200);
      // The guide lists each plugin's suggested text under its name (WordPress's own markup).
      const start = text.indexOf('>Virtual Try-On Button<');
      assert.deepEqual(await logBeyondCore(), [], 'added on admin_init, as WordPress asks: no notice');
      assert.ok(start > 0, 'the plugin has a section in the guide');
      const section = text.slice(start, start + 6000);
      assert.match(section, /<p class="privacy-policy-tutorial">[^<]*TRYON_BASE_URL/, 'the note to the administrator');
      assert.match(section, /<strong class="privacy-policy-tutorial">Suggested text: <\/strong>/);
      assert.match(section, /Nothing is uploaded until you tick the consent box/);
      assert.match(section, /our try-on server at \/tryon and from there to our virtual try-on provider/);
      assert.match(section, /after \[1 hour\]/);
      // The guide is built from WP_Privacy_Policy_Content's record: one section, so registered once.
      assert.equal(occurrences(text, />Virtual Try-On Button</), 1, 'registered once');
    });

    test('a fresh site: one bad field is refused alone with one notice, the rest of the form is saved', async () => {
      const after = await saveSettings({
        endpoint: 'javascript:alert(1)',
        label: 'See it on you',
        accent: '#8a1c4a',
        privacy_url: '/privacy',
        script_url: '',
        analytics: ['dataLayer'],
      });
      assert.deepEqual(await savedOptions(), {
        endpoint: '/tryon',
        label: 'See it on you',
        accent: '#8a1c4a',
        script_url: '',
        privacy_url: '/privacy',
        analytics: 'dataLayer',
        add_to_cart: 'yes',
        holdout: '',
      });
      assert.equal(
        occurrences(after, /id=['"]setting-error-tryon_button_endpoint['"]/),
        1,
        'the notice is printed once',
      );
      assert.equal(occurrences(after, /Proxy endpoint not saved/), 1);
      assert.equal(occurrences(after, /notice-error/), 1, 'no other error');
    });

    test('good values are saved, a relative privacy URL included, and shown back in the form', async () => {
      const after = await saveSettings({
        endpoint: stack.url,
        label: 'Try it on',
        accent: '#123abc',
        privacy_url: '/legal/privacy',
        script_url: '',
        analytics: ['dataLayer'],
      });
      assert.deepEqual(await savedOptions(), {
        endpoint: stack.url,
        label: 'Try it on',
        accent: '#123abc',
        script_url: '',
        privacy_url: '/legal/privacy',
        analytics: 'dataLayer',
        add_to_cart: 'yes',
        holdout: '',
      });
      assert.equal(occurrences(after, /Settings saved\./), 1);
      assert.equal(occurrences(after, /notice-error/), 0);
      assert.equal(fieldValue(after, 'tryon_button_options[privacy_url]'), '/legal/privacy');
      assert.match(
        after,
        /<input type="text"[^>]*name="tryon_button_options\[privacy_url\]"/,
        'a text field: the browser does not refuse a path',
      );
      assert.match(after, /name="tryon_button_options\[analytics\]\[\]" value="dataLayer" checked='checked'/);
    });

    test('later bad values keep the previous ones, each refused once; unticking analytics is saved', async () => {
      const after = await saveSettings({
        endpoint: '//evil.example/tryon',
        label: '<b>Try</b>  it\ton <script>alert(1)</script>you',
        accent: 'red',
        privacy_url: 'javascript:alert(4)',
        script_url: '//cdn.evil.example/x.js',
        // "Add to cart" unticked: the form's hidden field alone is posted.
        add_to_cart: 'no',
        // A holdout share the form does not offer: saved as none.
        holdout: '0.3',
      });
      assert.deepEqual(await savedOptions(), {
        endpoint: stack.url,
        label: 'Try it on you',
        accent: '#123abc',
        script_url: '',
        privacy_url: '/legal/privacy',
        analytics: '',
        add_to_cart: 'no',
        holdout: '',
      });
      for (const code of ['endpoint', 'accent', 'privacy_url', 'script_url']) {
        assert.equal(occurrences(after, new RegExp(`id=['"]setting-error-tryon_button_${code}['"]`)), 1, code);
      }
      assert.equal(occurrences(after, /notice-error/), 4);
      assert.equal(
        fieldValue(after, 'tryon_button_options[endpoint]'),
        stack.url,
        'the form shows the value still in force',
      );
      await saveSettings({
        endpoint: stack.url,
        label: 'Try it on',
        accent: '#123abc',
        privacy_url: '/legal/privacy',
        script_url: '',
        analytics: ['dataLayer'],
        add_to_cart: 'yes',
      });
    });

    test('the settings page asks for the proxy status after it has loaded: one word, connected, not_a_proxy or unreachable', async () => {
      await wp.allowPort(Number(new URL(stack.url).port));
      assert.deepEqual(await proxyStatus(stack.url), { status: 'connected' });
      // Out of the box: /tryon on this WordPress, which answers with one of its own pages.
      assert.deepEqual(await proxyStatus('/tryon'), { status: 'not_a_proxy' });
      // Nothing listens there, on a port the site allows: the request is made, and refused.
      const dead = await deadAddress();
      await wp.allowPort(Number(new URL(dead).port));
      assert.deepEqual(await proxyStatus(dead), { status: 'unreachable' });

      // What the administrator sees: the page's script fills the line in (Chromium, the admin's cookies).
      await proxyStatus(stack.url);
      const { tab, close } = await settingsAsAdmin();
      const line = await tab.waitForSelector('#tryon-button-proxy-status:not(.tryon-proxy-checking)');
      assert.equal(await line.getAttribute('class'), 'tryon-proxy-connected');
      assert.equal((await line.textContent())!.trim(), `Connected: the try-on proxy answers at ${stack.url}/health.`);
      assert.equal(await tab.isHidden('#tryon-button-proxy-guide'), true, 'no deploy guide when connected');
      await close();
      assert.deepEqual(await logBeyondCore(), []);
    });

    test('the settings page arrives without waiting for the proxy; the check comes after, and is kept a while', async (t) => {
      const hanging = await recorder('hold');
      try {
        await wp.allowPort(hanging.port);
        await wp.php(
          `$o = get_option( 'tryon_button_options' ); $o['endpoint'] = 'http://127.0.0.1:${hanging.port}/tryon'; update_option( 'tryon_button_options', $o );`,
        );
        const started = performance.now();
        const { text } = await admin.follow(SETTINGS_PAGE);
        const pageMs = performance.now() - started;
        t.diagnostic(`settings page ${Math.round(pageMs)} ms with a proxy that never answers`);
        assert.deepEqual(hanging.paths, [], 'rendering the page asked the proxy nothing');
        assert.match(text, /Checking the proxy…/);
        const asked = performance.now();
        assert.deepEqual(await askProxyStatus(admin, statusNonce(text)), {
          code: 200,
          body: '{"status":"unreachable"}',
        });
        const checkMs = performance.now() - asked;
        assert.deepEqual(hanging.paths, ['/tryon/health']);
        // Asked again (another tab, a reload): the answer kept in a transient, the proxy not asked again.
        assert.deepEqual(await askProxyStatus(admin, statusNonce(text)), {
          code: 200,
          body: '{"status":"unreachable"}',
        });
        assert.deepEqual(hanging.paths, ['/tryon/health']);
        t.diagnostic(`then the status check ${Math.round(checkMs)} ms`);
      } finally {
        await hanging.close();
        await wp.php(
          `$o = get_option( 'tryon_button_options' ); $o['endpoint'] = ${JSON.stringify(stack.url)}; update_option( 'tryon_button_options', $o );`,
        );
      }
    });

    test("the proxy check cannot probe the site's network: safe requests only, /health only, one word back", async () => {
      const inside = await recorder('answer');
      const good = {
        label: 'Try it on',
        accent: '#123abc',
        privacy_url: '/legal/privacy',
        script_url: '',
        analytics: ['dataLayer'],
      };
      try {
        for (const endpoint of [
          `http://127.0.0.1:${inside.port}/secret#`,
          `http://127.0.0.1:${inside.port}/secret?page=1#`,
        ]) {
          // A port WordPress may not call (not 80, 443 or 8080): refused before any request.
          const page = await saveSettings({ ...good, endpoint });
          assert.deepEqual(inside.paths, [], `the settings page itself asks nothing (${endpoint})`);
          assert.deepEqual(await askProxyStatus(admin, statusNonce(page)), {
            code: 200,
            body: '{"status":"unreachable"}',
          });
          assert.deepEqual(inside.paths, [], endpoint);
        }
        // Once the site allows the port, only {endpoint}/health is asked, without the query or fragment,
        // and what answered there is not shown: only that it is not a proxy.
        await wp.allowPort(inside.port);
        for (const endpoint of [
          `http://127.0.0.1:${inside.port}/secret#`,
          `http://127.0.0.1:${inside.port}/secret?page=1#`,
        ]) {
          const page = await saveSettings({ ...good, endpoint });
          const answer = await askProxyStatus(admin, statusNonce(page));
          assert.deepEqual(answer, { code: 200, body: '{"status":"not_a_proxy"}' }, endpoint);
          assert.doesNotMatch(page, /hunter2/);
        }
        assert.deepEqual(inside.paths, ['/secret/health', '/secret/health']);

        // An Author can neither use the administrator's nonce nor one of their own.
        const author = await authorSession();
        const adminNonce = statusNonce((await admin.follow(SETTINGS_PAGE)).text);
        assert.equal((await askProxyStatus(author.session, adminNonce)).code, 403);
        const loggedIn = author.session.cookieList().find((cookie) => cookie.name.startsWith('wordpress_logged_in_'))!;
        const ownNonce = (
          await wp.php(
            `$_COOKIE[LOGGED_IN_COOKIE] = urldecode( ${JSON.stringify(loggedIn.value)} ); wp_set_current_user( ${author.id} ); echo wp_create_nonce( 'tryon_button_proxy_status' );`,
          )
        ).trim();
        assert.deepEqual(await askProxyStatus(author.session, ownNonce), { code: 403, body: '{"error":"forbidden"}' });
        assert.equal(inside.paths.length, 2, 'nothing asked for the Author');
      } finally {
        await inside.close();
        await saveSettings({ ...good, endpoint: stack.url });
      }
    });

    test('the shortcode renders the escaped tag and enqueues the widget as a module script, only where used', async () => {
      const { url } = await createPost(
        'page',
        'Try-on',
        '<p>Intro</p>[tryon_button product="saree-banarasi-red" variant="sindoor-red" label="See it on you" views="front,back" video="yes"]' +
          '[tryon_button product="dress-aline-indigo"]',
      );
      const html = await page(url);
      const tags = findElements(html, 'tryon-button');
      const shared = {
        endpoint: stack.url,
        lang: 'en',
        'privacy-url': '/legal/privacy',
        analytics: 'dataLayer',
        accent: '#123abc',
      };
      assert.deepEqual(tags, [
        {
          attributes: {
            product: 'saree-banarasi-red',
            ...shared,
            variant: 'sindoor-red',
            views: 'front,back',
            video: '',
          },
          text: 'See it on you',
        },
        { attributes: { product: 'dress-aline-indigo', ...shared }, text: 'Try it on' },
      ]);
      // A module script on every version: WordPress 6.5+ prints it as a script module; on 6.1, which
      // has none, the plugin's fallback marks its classic script as a module. Checked by attribute,
      // whatever order and quotes the version writes them in.
      const widget = scriptTags(html).filter((tag) =>
        tag.includes('/wp-content/plugins/tryon-button/assets/tryon-button.js'),
      );
      assert.equal(widget.length, 1, scriptTags(html).join('\n'));
      const attributes = tagAttributes(widget[0]!);
      assert.equal(attributes['type'], 'module', widget[0]);
      assert.match(
        attributes['src'] ?? '',
        /^http:\/\/127\.0\.0\.1:\d+\/wp-content\/plugins\/tryon-button\/assets\/tryon-button\.js\?ver=0\.1\.0$/,
        widget[0],
      );
      assert.ok(html.indexOf(widget[0]!) > html.lastIndexOf('</tryon-button>'), 'printed in the footer');
      // That fallback really loads the packaged widget, ?ver= query and lazy chunks included.
      const { tab, errors } = await openInChromium(url);
      assert.deepEqual(await upgradedButtons(tab), [true, true]);
      assert.deepEqual(errors, []);
      await tab.close();

      const plain = await page((await createPost('page', 'About', '<p>No try-on here.</p>')).url);
      assert.equal(
        scriptTags(plain).filter((tag) => tag.includes('tryon-button')).length,
        0,
        'no script on pages without a button',
      );
    });

    test("an Author's shortcode cannot choose where shoppers' photos go: the endpoint attribute is ignored, and said", async () => {
      const author = await authorSession();
      assert.equal(
        await wp.php(`var_export( user_can( ${author.id}, 'unfiltered_html' ) );`),
        'false',
        'an Author, whose markup kses filters',
      );
      // Published the way the block editor publishes: the REST API with the Author's own nonce.
      const restNonce = await (await author.session.request('/wp-admin/admin-ajax.php?action=rest-nonce')).text();
      const elsewhere = 'https://elsewhere.example/tryon';
      const response = await author.session.request('/?rest_route=/wp/v2/posts', {
        headers: { 'x-wp-nonce': restNonce },
        json: {
          title: 'My favourite saree',
          status: 'publish',
          content:
            `<script src="${elsewhere}/x.js"></script><tryon-button product="saree-banarasi-red" endpoint="${elsewhere}"></tryon-button>` +
            `[tryon_button product="saree-banarasi-red" endpoint="${elsewhere}" label="Try it on me"]`,
        },
      });
      const post = (await response.json()) as { link: string; status: string };
      assert.equal(response.status, 201, JSON.stringify(post));
      assert.equal(post.status, 'publish');
      const html = await page(post.link);
      assert.doesNotMatch(html, /elsewhere\.example/, "nothing of the Author's address reaches the page");
      assert.deepEqual(
        findElements(html, 'tryon-button').map((tag) => tag.attributes.endpoint),
        [stack.url],
        "one button, with the administrator's endpoint",
      );
      const log = await logBeyondCore();
      assert.equal(log.length, 1, log.join('\n'));
      assert.match(log[0]!, /tryon_button_shortcode.*ignores its endpoint attribute/);
      assert.doesNotMatch(log[0]!, /elsewhere/, 'the log does not repeat the address');
      logAccountedFor = (await wp.debugLog()).length;
    });

    test('paths a browser reads as another site are refused: a backslash, an encoded newline, a tab', async () => {
      const good = {
        endpoint: stack.url,
        label: 'Try it on',
        accent: '#123abc',
        privacy_url: '/legal/privacy',
        script_url: '',
        analytics: ['dataLayer'],
      };
      const before = await savedOptions();
      for (const trick of ['/\\/evil.example/tryon', '/%0a/evil.example/tryon', '/\t/evil.example/tryon']) {
        const after = await saveSettings({ ...good, endpoint: trick, privacy_url: trick, script_url: trick });
        assert.deepEqual(await savedOptions(), before, JSON.stringify(trick));
        assert.equal(occurrences(after, /notice-error/), 3, JSON.stringify(trick));
      }
      // The database may hold anything (imports, other plugins): checked again where printed.
      const { url } = await createPost('page', 'Tricks', '[tryon_button product="saree-banarasi-red"]');
      for (const trick of ['/\\/evil.example/tryon', '/%0a/evil.example/tryon', '/\t/evil.example/tryon']) {
        await wp.php(
          `$o = get_option( 'tryon_button_options' ); $o['endpoint'] = $o['privacy_url'] = $o['script_url'] = ${JSON.stringify(trick)}; update_option( 'tryon_button_options', $o );`,
        );
        const html = await page(url);
        assert.doesNotMatch(html, /evil\.example/, JSON.stringify(trick));
        assert.equal(
          findElements(html, 'tryon-button')[0]?.attributes.endpoint,
          '/tryon',
          'the default endpoint instead',
        );
      }
      await wp.php(
        `update_option( 'tryon_button_options', json_decode( ${JSON.stringify(JSON.stringify(before))}, true ) );`,
      );
    });

    test('product pages: the tag after the add-to-cart button when enabled, hostile meta and settings escaped', async () => {
      await wp.php(
        `$o = get_option( 'tryon_button_options' ); $o['label'] = ${JSON.stringify(hostile.label)}; update_option( 'tryon_button_options', $o );`,
      );
      const enabled = await page(
        (
          await createPost('product', 'Banarasi saree', '<p>Silk.</p>', {
            _tryon_enabled: 'yes',
            _tryon_product: hostile.product,
            _tryon_views: hostile.views,
          })
        ).url,
      );
      const disabled = await page(
        (await createPost('product', 'Plain kurta', '<p>Cotton.</p>', { _tryon_enabled: 'no' })).url,
      );
      assertNoBreakout(enabled);
      assert.match(enabled, /Add to cart<\/button><div class="tryon-button-wrap"><tryon-button /);
      const [tag] = findElements(enabled, 'tryon-button');
      assert.ok(tag, 'the tag parses with quoted attributes only');
      assert.equal(tag.attributes.product, hostile.product);
      assert.equal(tag.attributes.views, hostile.views);
      assert.equal(tag.text, hostile.label);
      assert.equal(countOpenings(disabled, 'tryon-button'), 0);
      assert.equal(
        scriptTags(enabled).some((t) => /jquery|variations\.js/.test(t)),
        false,
        'no jQuery on a simple product',
      );
      // The settings page prints the stored label back into its input, escaped.
      const { text: settings } = await admin.follow(SETTINGS_PAGE);
      assertNoBreakout(settings);
      assert.equal(fieldValue(settings, 'tryon_button_options[label]'), hostile.label);
      await wp.php(
        `$o = get_option( 'tryon_button_options' ); $o['label'] = 'Try it on'; update_option( 'tryon_button_options', $o );`,
      );
    });

    test("variable products: the button follows WooCommerce's found_variation and reset_data (Chromium)", async () => {
      const { url } = await createPost('product', 'Silk saree', '<p>Two colours.</p>', {
        _tryon_enabled: 'yes',
        _tryon_product: 'saree-banarasi',
        _stand_in_type: 'variable',
        _stand_in_variations: JSON.stringify([
          { id: 41, name: 'Ivory' },
          { id: 42, name: 'Sindoor red' },
        ]),
      });
      const html = await page(url);
      assert.ok(
        scriptTags(html).some((t) => t.includes('/wp-content/plugins/tryon-button/js/variations.js?ver=0.1.0')),
      );
      const { tab, errors } = await openInChromium(url);
      assert.deepEqual(await upgradedButtons(tab), [true]);
      const variant = () => tab.evaluate(() => document.querySelector('tryon-button')!.getAttribute('variant'));
      assert.equal(await variant(), null, 'no variation chosen yet');
      // What WooCommerce's add-to-cart-variation.js triggers on the form.
      const trigger = (event: string, variation?: unknown) =>
        tab.evaluate(
          ([name, data]) => {
            const $ = (window as unknown as { jQuery: (s: string) => { trigger(n: string, d?: unknown[]): void } })
              .jQuery;
            $('form.variations_form').trigger(name as string, data === undefined ? undefined : [data]);
          },
          [event, variation] as const,
        );
      await trigger('found_variation', { variation_id: 42, attributes: { attribute_pa_colour: 'sindoor-red' } });
      assert.equal(await variant(), '42');
      await trigger('found_variation', { variation_id: 41 });
      assert.equal(await variant(), '41');
      await trigger('reset_data');
      assert.equal(await variant(), null);
      assert.deepEqual(errors, []);
      await tab.close();
    });

    test("the settings page shows usage from a real proxy's admin listener: today, the budget left, 14 days; the token never printed back", async (t) => {
      const token = 'wordpress-usage-admin-token-0123';
      const proxy = await startStack({
        apiKey: 'sk_live_b',
        proxy: { adminToken: token, limits: { dailyTryons: 10 } },
      });
      try {
        const started = await startTryon(proxy, { product: 'dress-aline-indigo', photo: await photoHandle(proxy) });
        assert.equal(started.status, 202);
        await waitForStatus(
          proxy,
          ((await started.json()) as { tryon: string }).tryon,
          (s) => s.status === 'succeeded',
        );
        const charged = (await proxy.state()).workspaces
          .ws_1!.jobs.filter((job) => job.parent === null)
          .reduce((sum, job) => sum + job.charged, 0);

        // Saved through the form, as an administrator would.
        const { text: form } = await admin.follow(SETTINGS_PAGE);
        assert.match(form, /<input type="password"[^>]*name="tryon_button_usage\[token\]"[^>]*value=""/);
        const { response } = await admin.follow('/wp-admin/options.php', {
          form: {
            option_page: 'tryon_button',
            action: 'update',
            _wpnonce: fieldValue(form, '_wpnonce'),
            _wp_http_referer: fieldValue(form, '_wp_http_referer'),
            'tryon_button_usage[url]': proxy.adminUrl!,
            'tryon_button_usage[token]': token,
            // The admin listener is on this server (127.0.0.1): said, as its operator would.
            'tryon_button_usage[loopback]': 'yes',
          },
        });
        assert.equal(response.status, 200);
        const stored = await wp.php(`echo wp_json_encode( get_option( 'tryon_button_usage' ) );`);
        assert.equal(JSON.parse(stored).url, proxy.adminUrl);
        assert.ok(!stored.includes(token), 'the token is kept sealed, not as typed');
        assert.deepEqual(await savedOptions().then((o) => o.endpoint), stack.url, 'the other settings are untouched');

        // The page arrives at once with the section to be filled in; its script asks admin-ajax.php.
        const { text: page } = await admin.follow(SETTINGS_PAGE);
        assert.ok(!page.includes(token), 'the token is never printed back');
        assert.match(page, /<div id="tryon-button-usage"[^>]*data-stale="1"/);
        assert.match(page, /A token is saved \(never shown\)/);
        const { tab, close } = await settingsAsAdmin();
        const box = await tab.waitForSelector('#tryon-button-usage[data-stale="0"]');
        const items = await box.$$eval('li', (lis) => lis.map((li) => li.textContent!.trim()));
        t.diagnostic(items.join('; '));
        assert.deepEqual(
          items.slice(0, 4),
          ['Try-ons today: 1', `Credits today: ${charged}`, 'Previews today: 0', 'Try-ons left today: 9 of 10'],
          'the credits the sandbox charged',
        );
        const rows = await tab.$$eval('table.tryon-usage-chart tbody tr', (trs) =>
          trs.map((tr) => [...tr.children].map((cell) => cell.textContent!.trim())),
        );
        assert.equal(rows.length, 14, 'fourteen days, as a table');
        assert.deepEqual(rows[0], [new Date().toISOString().slice(0, 10), '1', String(charged)]);
        assert.equal(
          await tab.$eval('table.tryon-usage-chart caption', (c) => c.textContent),
          'Try-ons and credits, last 14 days',
        );
        await close();

        // Kept: the next page shows the figures without asking again.
        const { text: again } = await admin.follow(SETTINGS_PAGE);
        assert.match(again, /<div id="tryon-button-usage"[^>]*data-stale="0"/);
        assert.match(again, /Try-ons today: 1\b/);
        assert.deepEqual(await logBeyondCore(), []);
      } finally {
        await proxy.close();
      }
    });

    test('a new admin listener address clears the saved token, from the form or update_option: the token never goes there', async () => {
      const token = 'wordpress-usage-admin-token-4567';
      const elsewhere = await recorder('answer');
      try {
        await saveUsage(admin, { url: 'http://127.0.0.1:9464', token, loopback: 'yes' });
        assert.notEqual((await savedUsage()).token, '', 'a token is saved');

        // Only the address changes, as it would for someone who wants the token sent elsewhere.
        const moved = `http://127.0.0.1:${elsewhere.port}`;
        const saved = await saveUsage(admin, { url: moved, token: '', loopback: 'yes' });
        const { text: page } = await admin.follow(SETTINGS_PAGE);
        assert.equal((await askUsage(admin, usageNonce(page))).code, 200);
        assert.deepEqual(elsewhere.authorizations, [], "the old address's token is not sent to the new one");
        assert.deepEqual(await savedUsage().then((u) => [u.url, u.token]), [moved, '']);
        assert.match(saved, /The admin token was cleared because the admin listener(?:'|&#039;)s address changed/);
        assert.match(page, /The saved token was cleared when the admin listener&#039;s address changed/);
        assert.doesNotMatch(page, /A token is saved/);

        // The address and its token together: kept. The same address again without a token: kept.
        await saveUsage(admin, { url: 'http://127.0.0.1:9465', token, loopback: 'yes' });
        const kept = (await savedUsage()).token;
        assert.notEqual(kept, '');
        await saveUsage(admin, { url: 'http://127.0.0.1:9465', token: '', loopback: 'yes' });
        assert.equal((await savedUsage()).token, kept);

        // The options API, as another plugin or a script would change it (no settings form, no admin_init).
        assert.equal(
          await wp.php(
            `$o = get_option( 'tryon_button_usage' ); $o['url'] = 'https://listener.example'; update_option( 'tryon_button_usage', $o ); echo get_option( 'tryon_button_usage' )['token'];`,
          ),
          '',
        );
        assert.deepEqual(await logBeyondCore(), []);
      } finally {
        await elsewhere.close();
      }
    });

    test('the usage request is a safe one: an internal address is refused unless it is loopback and the operator said so', async () => {
      const token = 'wordpress-usage-admin-token-89ab';
      const inside = await recorder('answer');
      const usageHtml = async () => {
        const { text } = await admin.follow(SETTINGS_PAGE);
        const answer = await askUsage(admin, usageNonce(text));
        assert.equal(answer.code, 200, answer.body);
        return (JSON.parse(answer.body) as { html: string }).html;
      };
      try {
        // The port allowed, so that only the address can be the reason for a refusal.
        await wp.allowPort(inside.port);
        const internal = `http://localhost:${inside.port}`;
        await saveUsage(admin, { url: internal, token, loopback: 'no' });
        assert.match(await usageHtml(), /WordPress does not ask internal addresses/);
        assert.deepEqual(inside.paths, [], 'nothing asked without the operator saying so');

        // Saying so covers this server only: a private address elsewhere in the network stays refused.
        await saveUsage(admin, { url: 'http://10.0.0.1:9464', token, loopback: 'yes' });
        assert.match(await usageHtml(), /WordPress does not ask internal addresses/);

        // Said, for the loopback address: asked, with the token.
        await saveUsage(admin, { url: internal, token, loopback: 'yes' });
        assert.match(await usageHtml(), /Something answers at that address, but not a try-on proxy/);
        assert.deepEqual(inside.paths, ['/usage?window=30']);
        assert.deepEqual(inside.authorizations, [`Bearer ${token}`]);

        // An Author can use neither the administrator's nonce nor one of their own, nor save the fields.
        const author = await authorSession();
        const { text: adminPage } = await admin.follow(SETTINGS_PAGE);
        assert.equal((await askUsage(author.session, usageNonce(adminPage))).code, 403);
        const loggedIn = author.session.cookieList().find((cookie) => cookie.name.startsWith('wordpress_logged_in_'))!;
        const ownNonce = (
          await wp.php(
            `$_COOKIE[LOGGED_IN_COOKIE] = urldecode( ${JSON.stringify(loggedIn.value)} ); wp_set_current_user( ${author.id} ); echo wp_create_nonce( 'tryon_button_usage' );`,
          )
        ).trim();
        assert.deepEqual(await askUsage(author.session, ownNonce), { code: 403, body: '{"error":"forbidden"}' });
        const before = await savedUsage();
        const refused = await author.session.request('/wp-admin/options.php', {
          form: {
            option_page: 'tryon_button',
            action: 'update',
            _wpnonce: fieldValue(adminPage, '_wpnonce'),
            'tryon_button_usage[url]': 'https://listener.example',
          },
        });
        assert.equal(refused.status, 403);
        assert.deepEqual(await savedUsage(), before);
        assert.deepEqual(inside.paths, ['/usage?window=30'], 'nothing asked for the Author');
        assert.deepEqual(await logBeyondCore(), []);
      } finally {
        await inside.close();
      }
    });

    test("deleting it from the Plugins screen runs uninstall.php: its settings go, products' try-on meta stays", async () => {
      const product = await createPost('product', 'Kept saree', '', { _tryon_enabled: 'yes' });
      await wp.php(
        `set_transient( 'tryon_button_proxy_status', array( 'url' => 'https://proxy.example/health', 'status' => 'connected' ), 600 );`,
      );
      const { text: active } = await admin.follow('/wp-admin/plugins.php');
      await admin.follow(`/wp-admin/${linkHref(active, /id="deactivate-virtual-try-on-button"/)}`);
      const { text: inactive } = await admin.follow('/wp-admin/plugins.php');
      const { text: confirm } = await admin.follow(
        `/wp-admin/${linkHref(inactive, /id="delete-virtual-try-on-button"/)}`,
      );
      assert.match(confirm, /Are you sure you want to delete/);
      // The confirmation's "Yes, delete these files" form, submitted as it is.
      const form = confirm.match(/<form method="post" action="([^"]*plugins\.php[^"]*)"[^>]*>([\s\S]*?)<\/form>/);
      assert.ok(form, 'the confirmation form');
      const fields: Record<string, string[]> = {};
      for (const [input] of form[2]!.matchAll(/<input\b[^>]*>/g)) {
        const name = input.match(/name="([^"]+)"/)?.[1];
        const value = input.match(/value="([^"]*)"/)?.[1];
        if (name && value !== undefined && /type="hidden"/.test(input))
          (fields[name] ??= []).push(decodeEntities(value));
      }
      assert.deepEqual(fields['checked[]'], [PLUGIN_FILE]);
      const { text } = await admin.follow(decodeEntities(form[1]!), { form: fields });
      assert.match(text, /The selected plugin has been deleted\./);
      assert.equal(existsSync(join(wp.root, 'wp-content/plugins/tryon-button')), false);
      assert.equal(await wp.php(`var_export( get_option( 'tryon_button_options' ) );`), 'false');
      assert.equal(await wp.php(`var_export( get_transient( 'tryon_button_proxy_status' ) );`), 'false');
      assert.equal(await wp.php(`var_export( get_option( 'tryon_button_usage' ) );`), 'false');
      assert.equal(await wp.php(`var_export( get_transient( 'tryon_button_usage_cache' ) );`), 'false');
      assert.equal(await wp.php(`echo get_post_meta( ${product.id}, '_tryon_enabled', true );`), 'yes');
      assert.deepEqual(await logBeyondCore(), []);
    });
  },
);
