// The plugin on a WordPress network (multisite, subdirectories): Debian's WordPress 6.1 on a private
// MariaDB, made a network of two sites the way network.php's instructions make one
// (test/integrations/wordpress/site.ts). Each site keeps its own options, and deleting the plugin
// must remove them from every site, not only from the one it is deleted from.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PLUGIN_FILE, startWordPress, type WordPress } from './wordpress/site.js';

let wp: WordPress;

describe('the WordPress plugin on a network of sites (Debian 6.1, MariaDB)', { timeout: 180_000 }, () => {
  before(async () => {
    wp = await startWordPress({ multisite: true });
  });

  after(async () => {
    await wp?.close();
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
