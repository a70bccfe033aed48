<?php
/**
 * WooCommerce's High-Performance Order Storage: the plugin never reads or writes orders, so it
 * declares itself compatible (otherwise WooCommerce warns the merchant against enabling HPOS).
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

function tryon_button_declare_woocommerce_features(): void {
	if ( class_exists( '\Automattic\WooCommerce\Utilities\FeaturesUtil' ) ) {
		\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'custom_order_tables', TRYON_BUTTON_FILE, true );
	}
}
add_action( 'before_woocommerce_init', 'tryon_button_declare_woocommerce_features' );
