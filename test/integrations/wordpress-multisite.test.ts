// The plugin on a WordPress network (multisite, subdirectories): Debian's WordPress 6.1 on a private
// MariaDB, made a network of two sites the way network.php's instructions make one
// (test/integrations/wordpress/site.ts). Each site keeps its own options, and deleting the plugin
// must remove them from every site, not only from the one it is deleted from. The proxy's admin
// token is the network's: a site's administrator neither sets it nor uses it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeEntities } from './markup.js';
import { PLUGIN_FILE, startWordPress, type Session, type WordPress } from './wordpress/site.js';

let wp: WordPress;

const SETTINGS_PAGE = '/wp-admin/options-general.php?page=tryon-button';

function hiddenValue(html: string, name: string): string {
  const value = html.match(new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`))?.[1];
  if (value === undefined) throw new Error(`no ${name} field in:\n${html.slice(0, 3000)}`);
  return decodeEntities(value);
}

/** The settings form submitted as `session` with these usage fields; the status and the page after. */
async function saveUsage(session: Session, fields: Record<string, string>): Promise<string> {
  const { text: form } = await session.follow(SETTINGS_PAGE);
  const posted: Record<string, string> = {
    option_page: 'tryon_button',
    action: 'update',
    _wpnonce: hiddenValue(form, '_wpnonce'),
    _wp_http_referer: hiddenValue(form, '_wp_http_referer'),
  };
  for (const [key, value] of Object.entries(fields)) posted[`tryon_button_usage[${key}]`] = value;
  const { response, text } = await session.follow('/wp-admin/options.php', { form: posted });
  assert.equal(response.status, 200, text.slice(0, 2000));
  return text;
}

const savedUsage = async () =>
  JSON.parse(await wp.php(`echo wp_json_encode( get_option( 'tryon_button_usage' ) );`)) as {
    url: string;
    token: string;
  } | null;

describe('the WordPress plugin on a network of sites (Debian 6.1, MariaDB)', { timeout: 180_000 }, () => {
  before(async () => {
    wp = await startWordPress({ multisite: true });
  });

  after(async () => {
    await wp?.close();
  });

  test("only a network administrator sets or uses the admin listener and its token; a site's administrator does not", async () => {
    await wp.php(`
      require_once ABSPATH . 'wp-admin/includes/plugin.php';
      $activated = activate_plugin( ${JSON.stringify(PLUGIN_FILE)} );
      if ( is_wp_error( $activated ) ) { fwrite( STDERR, $activated->get_error_message() ); }
      $id = wp_insert_user( array( 'user_login' => 'siteadmin', 'user_pass' => 'a-site-admin-test-password', 'user_email' => 'siteadmin@shop.example', 'role' => 'administrator' ) );
      if ( is_wp_error( $id ) ) { fwrite( STDERR, $id->get_error_message() ); }
    `);
    const token = 'network-usage-admin-token-0123';
    const network = await wp.admin();
    await saveUsage(network, { url: 'http://127.0.0.1:9464', token, loopback: 'yes' });
    const saved = await savedUsage();
    assert.equal(saved?.url, 'http://127.0.0.1:9464', "the network's administrator saves it");
    assert.notEqual(saved?.token, '');

    const siteAdmin = await wp.logIn('siteadmin', 'a-site-admin-test-password');
    const { text: page } = await siteAdmin.follow(SETTINGS_PAGE);
    assert.match(page, /name="tryon_button_options\[endpoint\]"/, 'the rest of the page is theirs');
    assert.doesNotMatch(page, /name="tryon_button_usage\[/, 'no usage field');
    assert.doesNotMatch(page, /"usageNonce"/, 'no usage section');
    assert.match(page, /set by the network&#039;s administrators/);

    // Posted anyway, through the same form: nothing changes.
    await saveUsage(siteAdmin, {
      url: 'https://listener.example',
      token: 'site-admin-own-token-456789',
      loopback: 'no',
    });
    assert.deepEqual(await savedUsage(), saved);
    await saveUsage(siteAdmin, { forget_token: '1' });
    assert.deepEqual(await savedUsage(), saved);

    // Nor can they ask the admin listener with the network's token, even with a nonce of their own.
    const loggedIn = siteAdmin.cookieList().find((cookie) => cookie.name.startsWith('wordpress_logged_in_'))!;
    const nonce = (
      await wp.php(
        `$_COOKIE[LOGGED_IN_COOKIE] = urldecode( ${JSON.stringify(loggedIn.value)} ); wp_set_current_user( get_user_by( 'login', 'siteadmin' )->ID ); echo wp_create_nonce( 'tryon_button_usage' );`,
      )
    ).trim();
    const asked = await siteAdmin.request('/wp-admin/admin-ajax.php', {
      form: { action: 'tryon_button_usage', _ajax_nonce: nonce },
    });
    assert.deepEqual([asked.status, await asked.text()], [403, '{"error":"forbidden"}']);
  });

  test("deleting the plugin removes its settings and cached proxy status on every site; products' meta stays", async () => {
    const sites = JSON.parse(
      await wp.php(`echo wp_json_encode( array( is_multisite(), get_sites( array( 'fields' => 'ids' ) ) ) );`),
    ) as [boolean, number[]];
    assert.equal(sites[0], true, 'a network');
    assert.equal(sites[1].length, 2, 'of two sites');

    // Each site activated and configured on its own, as each site's administrator would.
    const kept = JSON.parse(
      await wp.php(`
      require_once ABSPATH . 'wp-admin/includes/plugin.php';
      $kept = array();
      foreach ( get_sites( array( 'fields' => 'ids' ) ) as $site ) {
        switch_to_blog( $site );
        $activated = activate_plugin( ${JSON.stringify(PLUGIN_FILE)} );
        if ( is_wp_error( $activated ) ) { fwrite( STDERR, $activated->get_error_message() ); }
        update_option( 'tryon_button_options', array( 'endpoint' => 'https://proxy.example/site-' . $site ) );
        set_transient( 'tryon_button_proxy_status', array( 'url' => 'https://proxy.example/site-' . $site . '/health', 'status' => 'connected' ), 600 );
        $product = wp_insert_post( array( 'post_type' => 'product', 'post_status' => 'publish', 'post_title' => 'Saree' ) );
        update_post_meta( $product, '_tryon_enabled', 'yes' );
        $kept[ $site ] = $product;
        restore_current_blog();
      }
      echo wp_json_encode( $kept );
    `),
    ) as Record<string, number>;

    // What the network admin's Plugins screen does to delete it: uninstall_plugin() runs uninstall.php
    // once, on the main site.
    await wp.php(`
      require_once ABSPATH . 'wp-admin/includes/plugin.php';
      foreach ( get_sites( array( 'fields' => 'ids' ) ) as $site ) { switch_to_blog( $site ); deactivate_plugins( ${JSON.stringify(PLUGIN_FILE)} ); restore_current_blog(); }
      uninstall_plugin( ${JSON.stringify(PLUGIN_FILE)} );
    `);

    const left = JSON.parse(
      await wp.php(`
      $left = array();
      foreach ( json_decode( ${JSON.stringify(JSON.stringify(kept))}, true ) as $site => $product ) {
        switch_to_blog( (int) $site );
        $left[ $site ] = array( get_option( 'tryon_button_options' ), get_transient( 'tryon_button_proxy_status' ), get_post_meta( $product, '_tryon_enabled', true ) );
        restore_current_blog();
      }
      echo wp_json_encode( $left );
    `),
    ) as Record<string, unknown[]>;
    assert.deepEqual(left, Object.fromEntries(Object.keys(kept).map((site) => [site, [false, false, 'yes']])));
  });
});
