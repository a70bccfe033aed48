// The settings page's proxy status on a WordPress served one request at a time (php -S without
// workers, as on some small hostings): out of the box the endpoint is /tryon on the site itself, and a
// check the server made of itself would wait for its own only worker until it timed out.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser } from 'playwright-core';
import { programPath } from '../../scripts/prerequisites.js';
import { CHROMIUM_ARGS } from '../../scripts/chromium.js';
import { PLUGIN_FILE, startWordPress, type WordPress } from './wordpress/site.js';

let wp: WordPress;
let browser: Browser | undefined;

describe('the WordPress plugin on a single-worker PHP server', { timeout: 120_000 }, () => {
  before(async () => {
    wp = await startWordPress({ workers: 1 });
    await wp.php(
      `require_once ABSPATH . 'wp-admin/includes/plugin.php'; $activated = activate_plugin( ${JSON.stringify(PLUGIN_FILE)} ); if ( is_wp_error( $activated ) ) { fwrite( STDERR, $activated->get_error_message() ); }`,
    );
  });

  after(async () => {
    await Promise.all([wp?.close(), browser?.close()]);
  });

  test('the default /tryon, a WordPress page until the proxy is deployed there, shows as no proxy, not as unreachable', async (t) => {
    const admin = await wp.admin();
    browser = await chromium.launch({ executablePath: programPath('chromium'), args: CHROMIUM_ARGS, headless: true });
    const context = await browser.newContext();
    await context.addCookies(admin.cookieList().map((cookie) => ({ ...cookie, url: wp.url })));
    const tab = await context.newPage();
    const started = performance.now();
    await tab.goto(`${wp.url}/wp-admin/options-general.php?page=tryon-button`);
    const line = await tab.waitForSelector('#tryon-button-proxy-status:not(.tryon-proxy-checking)');
    t.diagnostic(`status shown ${Math.round(performance.now() - started)} ms after the page was asked for`);
    assert.equal(await line.getAttribute('class'), 'tryon-proxy-error');
    assert.match(
      (await line.textContent())!.trim(),
      new RegExp(`^No try-on proxy at ${wp.url}/tryon/health: something answers there, but not a try-on proxy\\.`),
    );
    assert.equal(await tab.isVisible('#tryon-button-proxy-guide'), true, 'with the deploy guide');
    await context.close();
  });
});
