<?php
/**
 * "Add to cart" on the try-on's result: the button gets add-to-cart="woocommerce" and the
 * product's id as cart-id, and the widget adds that product (or the variation tried on, its
 * `variant`) through WooCommerce's own add-to-cart: its AJAX endpoint (?wc-ajax=add_to_cart) and
 * added_to_cart event where WooCommerce's add-to-cart script is on the page, else the product
 * form's post. On by default; Settings → Virtual try-on turns it off.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/** The attributes for a button of product `$cart_id` (0: a shortcode's catalog product, nothing to add). */
function tryon_button_add_to_cart_attributes( array $options, int $cart_id ): string {
	if ( 'yes' !== ( $options['add_to_cart'] ?? 'yes' ) || $cart_id <= 0 ) {
		return '';
	}
	return ' add-to-cart="woocommerce" cart-id="' . esc_attr( (string) $cart_id ) . '"';
}

/** The settings row: a hidden "no" first, so an unticked box is saved as off (and absent means unchanged). */
function tryon_button_add_to_cart_row(): void {
	$on   = 'yes' === tryon_button_options()['add_to_cart'];
	$name = TRYON_BUTTON_OPTION . '[add_to_cart]';
	echo '<tr><th scope="row">' . esc_html__( 'Add to cart', 'tryon-button' ) . '</th><td><fieldset>';
	echo '<input type="hidden" name="' . esc_attr( $name ) . '" value="no">';
	echo '<label><input type="checkbox" id="tryon-button-add-to-cart" name="' . esc_attr( $name ) . '" value="yes"' . checked( $on, true, false ) . '> ';
	echo esc_html__( 'Offer "Add to cart" on the try-on result', 'tryon-button' ) . '</label>';
	echo '<p class="description">' . esc_html__( 'Adds the product, or the variation tried on, through WooCommerce\'s own add-to-cart, and refreshes the mini-cart (added_to_cart).', 'tryon-button' ) . '</p>';
	echo '</fieldset></td></tr>';
}
