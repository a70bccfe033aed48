<?php
/**
 * Runs the plugin under the WordPress stand-ins for one scenario read as JSON from stdin, and
 * prints what a site would output as JSON: the product page's add-to-cart area, each shortcode,
 * the product fields and what they save, and the script modules printed in the footer (WordPress
 * 6.5's script modules, which the real WordPress of wordpress.test.ts, 6.1, does not have).
 *
 * Usage: php render.php <plugin main file> < scenario.json
 */

require __DIR__ . '/wordpress-stand-ins.php';

$scenario = json_decode( (string) stream_get_contents( STDIN ), true, 32, JSON_THROW_ON_ERROR );
$GLOBALS['tryon_test']['options'] = $scenario['options'] ?? array();
$GLOBALS['tryon_test']['meta']    = array();
foreach ( $scenario['meta'] ?? array() as $id => $values ) {
	$GLOBALS['tryon_test']['meta'][ (int) $id ] = $values;
}
$GLOBALS['tryon_test']['locale'] = $scenario['locale'] ?? 'en_US';

require $argv[1];

do_action( 'admin_init' );
do_action( 'admin_menu' );
do_action( 'wp_enqueue_scripts' );

function tryon_test_capture( callable $render ): string {
	ob_start();
	$render();
	return (string) ob_get_clean();
}

$result = array( 'products' => array(), 'shortcodes' => array() );
foreach ( $scenario['products'] ?? array() as $item ) {
	$GLOBALS['product'] = new WC_Product( (int) $item['id'], (string) $item['slug'] );
	$result['products'][] = tryon_test_capture(
		function () {
			echo '<button type="submit" name="add-to-cart" class="single_add_to_cart_button button">Add to cart</button>';
			do_action( 'woocommerce_after_add_to_cart_button' );
		}
	);
}
foreach ( $scenario['shortcodes'] ?? array() as $call ) {
	$GLOBALS['product'] = isset( $call['current'] ) ? new WC_Product( (int) $call['current']['id'], (string) $call['current']['slug'] ) : null;
	$result['shortcodes'][] = $GLOBALS['tryon_test']['shortcodes']['tryon_button']( $call['atts'] ?? '' );
}

$result['doingItWrong'] = $GLOBALS['tryon_test']['wrong'];
$result['privacyPolicy'] = $GLOBALS['tryon_test']['privacy'] ?? array();
$result['productFields'] = tryon_test_capture( fn () => do_action( 'woocommerce_product_options_general_product_data' ) );
$result['footer'] = tryon_test_print_script_modules();
$result['classicTag'] = apply_filters( 'script_loader_tag', "<script src='https://shop.example/x.js' id='tryon-button-js'></script>", 'tryon-button', 'https://shop.example/x.js' );
$result['otherTag'] = apply_filters( 'script_loader_tag', "<script src='https://shop.example/y.js' id='other-js'></script>", 'other', 'https://shop.example/y.js' );
if ( isset( $scenario['save'] ) ) {
	$_POST = $scenario['save']['post'];
	do_action( 'woocommerce_process_product_meta', (int) $scenario['save']['id'] );
	$result['savedMeta'] = $GLOBALS['tryon_test']['meta'][ (int) $scenario['save']['id'] ];
}

echo json_encode( $result, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES );
