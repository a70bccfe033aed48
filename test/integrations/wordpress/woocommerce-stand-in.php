<?php
/**
 * Plugin Name: WooCommerce stand-in (tests only)
 * Description: The few WooCommerce pieces the try-on plugin uses, inside a real WordPress, because WooCommerce itself cannot be downloaded where the tests run: a product post type, WC_Product, the product editor's field helpers, the add-to-cart form with its hook (a variations form on variable products, as WooCommerce's templates print it), before_woocommerce_init and FeaturesUtil::declare_compatibility.
 *
 * A product is variable when its meta _stand_in_type is "variable"; its variations are the meta
 * _stand_in_variations, a JSON list of {"id": 41, "name": "Sindoor red"}.
 */

namespace Automattic\WooCommerce\Utilities {
	/** Records each declaration so the tests can read what the plugin declared. */
	class FeaturesUtil {
		/** @var array<int, array{feature: string, file: string, positive: bool}> */
		public static $declared = array();

		public static function declare_compatibility( string $feature, string $plugin_file, bool $positive_compatibility = true ): bool {
			self::$declared[] = array( 'feature' => $feature, 'file' => $plugin_file, 'positive' => $positive_compatibility );
			return true;
		}
	}
}

namespace {
	if ( ! defined( 'ABSPATH' ) ) {
		exit;
	}

	class WC_Product {
		/** @var WP_Post */
		private $post;

		public function __construct( WP_Post $post ) {
			$this->post = $post;
		}
		public function get_id(): int {
			return (int) $this->post->ID;
		}
		public function get_slug(): string {
			return (string) $this->post->post_name;
		}
		public function is_type( $type ): bool {
			$mine = get_post_meta( $this->post->ID, '_stand_in_type', true );
			return in_array( '' === $mine ? 'simple' : $mine, (array) $type, true );
		}
	}

	function wc_get_product( $id ) {
		$post = get_post( $id );
		return $post && 'product' === $post->post_type ? new WC_Product( $post ) : false;
	}

	function woocommerce_wp_checkbox( array $field ): void {
		echo '<p class="form-field"><label for="' . esc_attr( $field['id'] ) . '">' . esc_html( $field['label'] ) . '</label><input type="checkbox" id="' . esc_attr( $field['id'] ) . '" name="' . esc_attr( $field['id'] ) . '"></p>';
	}
	function woocommerce_wp_text_input( array $field ): void {
		echo '<p class="form-field"><label for="' . esc_attr( $field['id'] ) . '">' . esc_html( $field['label'] ) . '</label><input type="text" id="' . esc_attr( $field['id'] ) . '" name="' . esc_attr( $field['id'] ) . '"></p>';
	}

	// WooCommerce announces itself on init, before its own setup.
	add_action(
		'init',
		function () {
			do_action( 'before_woocommerce_init' );
			register_post_type( 'product', array( 'public' => true, 'label' => 'Products', 'supports' => array( 'title', 'editor' ) ) );
		},
		0
	);

	/** The single product page's add-to-cart area, after the description. */
	add_filter(
		'the_content',
		function ( $content ) {
			if ( ! is_singular( 'product' ) || ! in_the_loop() ) {
				return $content;
			}
			global $product;
			$product = wc_get_product( get_the_ID() );
			ob_start();
			if ( $product->is_type( 'variable' ) ) {
				$variations = json_decode( (string) get_post_meta( $product->get_id(), '_stand_in_variations', true ), true );
				echo '<form class="variations_form cart" method="post" data-product_id="' . esc_attr( (string) $product->get_id() ) . '">';
				echo '<table class="variations"><tr><th><label for="pa_colour">Colour</label></th><td><select id="pa_colour" name="attribute_pa_colour"><option value="">Choose an option</option>';
				foreach ( (array) $variations as $variation ) {
					echo '<option value="' . esc_attr( (string) $variation['id'] ) . '">' . esc_html( (string) $variation['name'] ) . '</option>';
				}
				echo '</select></td></tr></table>';
				echo '<div class="single_variation_wrap"><div class="woocommerce-variation-add-to-cart variations_button">';
				echo '<button type="submit" class="single_add_to_cart_button button alt">Add to cart</button>';
				do_action( 'woocommerce_after_add_to_cart_button' );
				echo '<input type="hidden" name="variation_id" class="variation_id" value="0"></div></div></form>';
			} else {
				echo '<form class="cart" method="post"><button type="submit" name="add-to-cart" value="' . esc_attr( (string) $product->get_id() ) . '" class="single_add_to_cart_button button alt">Add to cart</button>';
				do_action( 'woocommerce_after_add_to_cart_button' );
				echo '</form>';
			}
			return $content . ob_get_clean();
		}
	);
}
