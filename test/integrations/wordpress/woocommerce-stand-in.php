<?php
/**
 * Plugin Name: WooCommerce stand-in (tests only)
 * Description: The few WooCommerce pieces the try-on plugin uses, inside a real WordPress, because WooCommerce itself cannot be downloaded where the tests run: a product post type, WC_Product, the product editor's field helpers, the add-to-cart form with its hook (a variations form on variable products, as WooCommerce's templates print it), before_woocommerce_init and FeaturesUtil::declare_compatibility, and a cart: the AJAX add-to-cart (?wc-ajax=add_to_cart), the form post, a mini-cart fragment and the add-to-cart script's parameters and added_to_cart handling; the shopper's session (WC()->session), other wc-ajax endpoints, and orders: a checkout that makes the cart an order (its hooks), payment, refunds (wc_create_refund).
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

	/*
	 * The cart. WooCommerce keeps it in the shopper's session; these tests have one shopper, so it
	 * is one option. What is modelled is what the try-on's "Add to cart" meets in WooCommerce:
	 * - WC_AJAX::add_to_cart (?wc-ajax=add_to_cart, POST product_id and quantity): a variation's own
	 *   id as product_id is added as that variation of its parent; a variable product without a
	 *   variation is refused with {error: true, product_url}; success answers the refreshed
	 *   fragments and the cart hash;
	 * - WC_Form_Handler::add_to_cart_action (a POST with add-to-cart, variation_id, quantity);
	 * - with woocommerce_enable_ajax_add_to_cart "yes", its add-to-cart script on product pages:
	 *   wc_add_to_cart_params, and on added_to_cart each fragment replaces what its selector finds.
	 * A variation is one of the product's _stand_in_variations (ids that are no posts here).
	 */
	function stand_in_cart(): array {
		$cart = get_option( '_stand_in_cart', array() );
		return is_array( $cart ) ? $cart : array();
	}

	function stand_in_cart_count(): int {
		return (int) array_sum( array_column( stand_in_cart(), 'quantity' ) );
	}

	function stand_in_fragments(): array {
		return array( 'span.stand-in-cart-count' => '<span class="stand-in-cart-count">' . stand_in_cart_count() . '</span>' );
	}

	/** The variable product whose variations include `$id`, or 0. */
	function stand_in_parent_of_variation( int $id ): int {
		$products = get_posts( array( 'post_type' => 'product', 'numberposts' => -1, 'meta_key' => '_stand_in_type', 'meta_value' => 'variable', 'fields' => 'ids' ) );
		foreach ( $products as $product_id ) {
			$variations = json_decode( (string) get_post_meta( $product_id, '_stand_in_variations', true ), true );
			foreach ( (array) $variations as $variation ) {
				if ( (int) ( $variation['id'] ?? 0 ) === $id ) {
					return (int) $product_id;
				}
			}
		}
		return 0;
	}

	/** Adds to the cart as WooCommerce would; false when it refuses (as WC_Cart::add_to_cart). */
	function stand_in_add_to_cart( int $product_id, int $variation_id, int $quantity ): bool {
		$product = wc_get_product( $product_id );
		if ( ! $product || ( $product->is_type( 'variable' ) && ( ! $variation_id || stand_in_parent_of_variation( $variation_id ) !== $product_id ) ) ) {
			return false;
		}
		$cart = stand_in_cart();
		// WC_Cart::add_to_cart: the item's data from woocommerce_add_cart_item_data, kept on the line.
		$data   = (array) apply_filters( 'woocommerce_add_cart_item_data', array(), $product_id, $variation_id, $quantity );
		$cart[] = array_merge( $data, array( 'product_id' => $product_id, 'variation_id' => $variation_id, 'quantity' => max( 1, $quantity ) ) );
		update_option( '_stand_in_cart', $cart );
		return true;
	}

	add_action(
		'init',
		function () {
			// phpcs:disable WordPress.Security.NonceVerification -- WooCommerce's add-to-cart takes no nonce either.
			if ( isset( $_GET['wc-ajax'] ) && 'add_to_cart' === $_GET['wc-ajax'] ) {
				$id       = absint( $_POST['product_id'] ?? 0 );
				$parent   = wc_get_product( $id ) ? $id : stand_in_parent_of_variation( $id );
				$variation = $parent === $id ? 0 : $id;
				if ( ! stand_in_add_to_cart( $parent, $variation, absint( $_POST['quantity'] ?? 1 ) ) ) {
					wp_send_json( array( 'error' => true, 'product_url' => get_permalink( $parent ) ) );
				}
				wp_send_json( array( 'fragments' => stand_in_fragments(), 'cart_hash' => md5( wp_json_encode( stand_in_cart() ) ) ) );
			}
			// WC_AJAX: any other endpoint is its wc_ajax_{endpoint} action.
			if ( isset( $_GET['wc-ajax'] ) && 'add_to_cart' !== $_GET['wc-ajax'] ) {
				do_action( 'wc_ajax_' . sanitize_key( wp_unslash( $_GET['wc-ajax'] ) ) );
				wp_die( '-1', '', array( 'response' => 400 ) );
			}
			// The checkout, reduced to placing the cart as an order and paying it (tests only).
			if ( isset( $_GET['stand_in_checkout'] ) && 'POST' === ( $_SERVER['REQUEST_METHOD'] ?? '' ) ) {
				$order = stand_in_checkout();
				$order->update_status( 'processing' );
				wp_send_json( array( 'order' => $order->get_id() ) );
			}
			if ( 'POST' === ( $_SERVER['REQUEST_METHOD'] ?? '' ) && isset( $_POST['add-to-cart'] ) ) {
				stand_in_add_to_cart( absint( $_POST['add-to-cart'] ), absint( $_POST['variation_id'] ?? 0 ), absint( $_POST['quantity'] ?? 1 ) );
			}
			// phpcs:enable
		},
		20
	);

	/** The mini-cart's count, a fragment the add-to-cart answer refreshes. */
	add_action(
		'wp_footer',
		function () {
			echo '<p class="stand-in-mini-cart">Cart: <span class="stand-in-cart-count">' . esc_html( (string) stand_in_cart_count() ) . '</span></p>';
		},
		1
	);

	add_action(
		'wp_enqueue_scripts',
		function () {
			if ( ! is_singular( 'product' ) || 'yes' !== get_option( 'woocommerce_enable_ajax_add_to_cart' ) ) {
				return;
			}
			$params = array( 'ajax_url' => admin_url( 'admin-ajax.php' ), 'wc_ajax_url' => home_url( '/?wc-ajax=%%endpoint%%' ), 'cart_url' => home_url( '/cart/' ), 'is_cart' => '', 'cart_redirect_after_add' => 'no' );
			wp_register_script( 'wc-add-to-cart', false, array( 'jquery' ), '1', true );
			wp_enqueue_script( 'wc-add-to-cart' );
			wp_add_inline_script( 'wc-add-to-cart', 'var wc_add_to_cart_params = ' . wp_json_encode( $params ) . ';', 'before' );
			wp_add_inline_script( 'wc-add-to-cart', 'jQuery( document.body ).on( "added_to_cart", function ( event, fragments ) { jQuery.each( fragments || {}, function ( selector, html ) { jQuery( selector ).replaceWith( html ); } ); } );' );
		}
	);

	/*
	 * The shopper's session and orders. One shopper, so the session is one option; orders and
	 * refunds are kept in another, by id. What is modelled is what the try-on's orders.php meets:
	 * - WC()->session: get, set, has_session, set_customer_session_cookie;
	 * - the checkout: each cart line becomes a WC_Order_Item_Product through
	 *   woocommerce_checkout_create_order_line_item ($item, $cart_item_key, $values, $order), then
	 *   woocommerce_checkout_create_order ($order, $data), then the order is saved;
	 * - WC_Order: its key, currency, total, items, meta, dates; update_status fires
	 *   woocommerce_order_status_{status} ($id, $order);
	 * - wc_create_refund: a WC_Order_Refund whose items carry _refunded_item_id and negative
	 *   quantities, then woocommerce_order_refunded ($order_id, $refund_id).
	 */
	class Stand_In_Session {
		public function get( string $key ) {
			$session = get_option( '_stand_in_session', array() );
			return is_array( $session ) && array_key_exists( $key, $session ) ? $session[ $key ] : null;
		}
		public function set( string $key, $value ): void {
			$session         = (array) get_option( '_stand_in_session', array() );
			$session[ $key ] = $value;
			update_option( '_stand_in_session', $session );
		}
		public function has_session(): bool {
			return false !== get_option( '_stand_in_session', false );
		}
		public function set_customer_session_cookie( $set ): void {
			if ( $set && ! $this->has_session() ) {
				update_option( '_stand_in_session', array() );
			}
		}
	}

	class Stand_In_WooCommerce {
		/** @var Stand_In_Session */
		public $session;
		public function __construct() {
			$this->session = new Stand_In_Session();
		}
	}

	function WC(): Stand_In_WooCommerce {
		static $wc = null;
		return $wc ? $wc : ( $wc = new Stand_In_WooCommerce() );
	}

	class WC_Order_Item_Product {
		public $data = array( 'id' => 0, 'product_id' => 0, 'variation_id' => 0, 'quantity' => 1, 'total' => '0', 'meta' => array() );
		public function __construct( array $data = array() ) {
			$this->data = array_merge( $this->data, $data );
		}
		public function get_id(): int {
			return (int) $this->data['id'];
		}
		public function get_product_id(): int {
			return (int) $this->data['product_id'];
		}
		public function get_variation_id(): int {
			return (int) $this->data['variation_id'];
		}
		public function get_quantity() {
			return $this->data['quantity'];
		}
		public function get_total(): string {
			return (string) $this->data['total'];
		}
		public function get_product() {
			return wc_get_product( $this->get_product_id() );
		}
		public function get_meta( string $key ) {
			return $this->data['meta'][ $key ] ?? '';
		}
		public function add_meta_data( string $key, $value, bool $unique = false ): void {
			$this->data['meta'][ $key ] = $value;
		}
	}

	class WC_Order {
		public $data = array( 'id' => 0, 'type' => 'order', 'parent' => 0, 'key' => '', 'status' => 'pending', 'currency' => 'INR', 'total' => '0', 'items' => array(), 'meta' => array(), 'created' => 0, 'paid' => 0 );
		public function __construct( array $data = array() ) {
			$this->data = array_merge( $this->data, $data );
		}
		public function get_id(): int {
			return (int) $this->data['id'];
		}
		public function get_order_key(): string {
			return (string) $this->data['key'];
		}
		public function get_currency(): string {
			return (string) $this->data['currency'];
		}
		public function get_total(): string {
			return (string) $this->data['total'];
		}
		public function get_status(): string {
			return (string) $this->data['status'];
		}
		public function get_items(): array {
			$items = array();
			foreach ( $this->data['items'] as $item ) {
				$items[ (int) $item['id'] ] = new WC_Order_Item_Product( $item );
			}
			return $items;
		}
		public function get_item( int $id ) {
			return $this->get_items()[ $id ] ?? false;
		}
		public function add_item( WC_Order_Item_Product $item ): void {
			$this->data['items'][] = $item->data;
		}
		public function get_meta( string $key ) {
			return $this->data['meta'][ $key ] ?? '';
		}
		public function update_meta_data( string $key, $value ): void {
			$this->data['meta'][ $key ] = $value;
		}
		public function get_date_created() {
			return $this->data['created'] ? new DateTime( '@' . $this->data['created'] ) : null;
		}
		public function get_date_paid() {
			return $this->data['paid'] ? new DateTime( '@' . $this->data['paid'] ) : null;
		}
		public function save(): int {
			$orders                       = (array) get_option( '_stand_in_orders', array() );
			$orders[ $this->get_id() ]    = $this->data;
			update_option( '_stand_in_orders', $orders );
			return $this->get_id();
		}
		public function save_meta_data(): void {
			$this->save();
		}
		public function update_status( string $status ): void {
			$this->data['status'] = $status;
			if ( in_array( $status, array( 'processing', 'completed' ), true ) && ! $this->data['paid'] ) {
				$this->data['paid'] = time();
			}
			$this->save();
			do_action( 'woocommerce_order_status_' . $status, $this->get_id(), $this );
		}
	}

	class WC_Order_Refund extends WC_Order {
	}

	/** The next id for an order, a refund or a line (WordPress's posts and order items share none of theirs here). */
	function stand_in_next_id(): int {
		$id = (int) get_option( '_stand_in_next_id', 500 ) + 1;
		update_option( '_stand_in_next_id', $id );
		return $id;
	}

	function wc_get_order( $id ) {
		$orders = (array) get_option( '_stand_in_orders', array() );
		$data   = $orders[ (int) $id ] ?? null;
		if ( ! is_array( $data ) ) {
			return false;
		}
		return 'refund' === $data['type'] ? new WC_Order_Refund( $data ) : new WC_Order( $data );
	}

	/** A line's price: the product's meta _price, else 1000.00. */
	function stand_in_price( int $product_id ): float {
		$price = get_post_meta( $product_id, '_price', true );
		return '' === $price ? 1000.0 : (float) $price;
	}

	/** WC_Checkout::create_order, reduced: the cart as an order, with WooCommerce's hooks; the cart emptied. */
	function stand_in_checkout(): WC_Order {
		$order = new WC_Order( array( 'id' => stand_in_next_id(), 'key' => 'wc_order_' . wp_generate_password( 13, false ), 'created' => time() ) );
		$total = 0.0;
		foreach ( stand_in_cart() as $index => $values ) {
			$line_total = stand_in_price( (int) $values['product_id'] ) * (int) $values['quantity'];
			$item       = new WC_Order_Item_Product(
				array( 'id' => stand_in_next_id(), 'product_id' => (int) $values['product_id'], 'variation_id' => (int) $values['variation_id'], 'quantity' => (int) $values['quantity'], 'total' => number_format( $line_total, 2, '.', '' ) )
			);
			do_action( 'woocommerce_checkout_create_order_line_item', $item, 'line-' . $index, $values, $order );
			$order->add_item( $item );
			$total += $line_total;
		}
		$order->data['total'] = number_format( $total, 2, '.', '' );
		do_action( 'woocommerce_checkout_create_order', $order, array() );
		$order->save();
		delete_option( '_stand_in_cart' );
		return $order;
	}

	/** wc_create_refund, reduced: line_items is {item id: {qty}}. */
	function wc_create_refund( array $args ): WC_Order_Refund {
		$order  = wc_get_order( (int) $args['order_id'] );
		$refund = new WC_Order_Refund( array( 'id' => stand_in_next_id(), 'type' => 'refund', 'parent' => $order->get_id(), 'created' => time() ) );
		foreach ( (array) ( $args['line_items'] ?? array() ) as $item_id => $line ) {
			$sold = $order->get_item( (int) $item_id );
			$refund->add_item(
				new WC_Order_Item_Product( array( 'id' => stand_in_next_id(), 'product_id' => $sold->get_product_id(), 'variation_id' => $sold->get_variation_id(), 'quantity' => -1 * (int) $line['qty'], 'meta' => array( '_refunded_item_id' => (int) $item_id ) ) )
			);
		}
		$refund->save();
		do_action( 'woocommerce_order_refunded', $order->get_id(), $refund->get_id() );
		return $refund;
	}
}
