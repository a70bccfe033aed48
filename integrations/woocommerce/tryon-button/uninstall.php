<?php
/**
 * Deleting the plugin removes its settings and the cached proxy status, on every site of a network:
 * a network's sites each keep their own options, and WordPress runs this file once, on the site the
 * plugin is deleted from (the network admin's). Products' try-on meta (_tryon_*) is left in place:
 * it is the merchant's product data, and reinstalling should find it again. The plugin keeps nothing
 * network-wide (no site options), so there is none to delete.
 */

if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}

function tryon_button_uninstall_site(): void {
	delete_option( 'tryon_button_options' );
	delete_transient( 'tryon_button_proxy_status' );
	delete_option( 'tryon_button_usage' );
	delete_transient( 'tryon_button_usage_cache' );
	delete_option( 'tryon_button_orders_status' );
}

if ( ! is_multisite() ) {
	tryon_button_uninstall_site();
	return;
}

// In pages of 100: a large network's site list is not loaded at once.
$tryon_button_batch = 100;
for ( $tryon_button_offset = 0; ; $tryon_button_offset += $tryon_button_batch ) {
	$tryon_button_sites = get_sites(
		array(
			'fields'                 => 'ids',
			'number'                 => $tryon_button_batch,
			'offset'                 => $tryon_button_offset,
			'orderby'                => 'id',
			'update_site_meta_cache' => false,
		)
	);
	foreach ( $tryon_button_sites as $tryon_button_site ) {
		switch_to_blog( (int) $tryon_button_site );
		tryon_button_uninstall_site();
		restore_current_blog();
	}
	if ( count( $tryon_button_sites ) < $tryon_button_batch ) {
		break;
	}
}
