<?php
/**
 * Plugin Name:       Virtual Try-On Button
 * Contributors:      tryonbutton
 * Description:       Lets shoppers see themselves wearing a product: adds a virtual try-on button to WooCommerce product pages, and the [tryon_button] shortcode anywhere.
 * Version:           0.1.0
 * Requires at least: 6.1
 * Tested up to:      7.1
 * Requires PHP:      7.4
 * WC requires at least: 8.0
 * WC tested up to:   9.9
 * License:           MIT
 * Text Domain:       tryon-button
 *
 * The element talks only to the shop's token proxy (the "Proxy endpoint" setting), which keeps the
 * try-on service's secret key. Nothing secret is ever given to this plugin or the page.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

define( 'TRYON_BUTTON_VERSION', '0.1.0' );
define( 'TRYON_BUTTON_FILE', __FILE__ );

require_once __DIR__ . '/includes/options.php';
require_once __DIR__ . '/includes/variations.php';
require_once __DIR__ . '/includes/tag.php';
require_once __DIR__ . '/includes/add-to-cart.php';
require_once __DIR__ . '/includes/product-fields.php';
require_once __DIR__ . '/includes/proxy-health.php';
require_once __DIR__ . '/includes/usage.php';
require_once __DIR__ . '/includes/lift.php';
require_once __DIR__ . '/includes/orders.php';
require_once __DIR__ . '/includes/settings-page.php';
require_once __DIR__ . '/includes/woocommerce-features.php';
require_once __DIR__ . '/includes/privacy.php';
