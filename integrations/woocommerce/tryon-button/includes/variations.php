<?php
/**
 * Variable products: a small script (js/variations.js) moves the button's `variant` to the
 * variation the shopper picks. Only variable products load it, so other pages need no jQuery.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

const TRYON_BUTTON_VARIATIONS_HANDLE = 'tryon-button-variations';

function tryon_button_follow_variations( $product ): void {
	if ( ! is_object( $product ) || ! method_exists( $product, 'is_type' ) || ! $product->is_type( 'variable' ) ) {
		return;
	}
	wp_enqueue_script(
		TRYON_BUTTON_VARIATIONS_HANDLE,
		plugins_url( 'js/variations.js', TRYON_BUTTON_FILE ),
		array( 'jquery' ),
		TRYON_BUTTON_VERSION,
		true
	);
}
