<?php
/**
 * Per-product switches in the product editor's General tab: try-on on or off, the catalog key,
 * the views and video. WooCommerce checks the nonce and capability before
 * woocommerce_process_product_meta runs.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

function tryon_button_product_fields(): void {
	echo '<div class="options_group tryon-button-fields">';
	woocommerce_wp_checkbox(
		array(
			'id'          => '_tryon_enabled',
			'label'       => __( 'Virtual try-on', 'tryon-button' ),
			'description' => __( 'Show the try-on button on this product', 'tryon-button' ),
		)
	);
	woocommerce_wp_text_input(
		array(
			'id'          => '_tryon_product',
			'label'       => __( 'Try-on product key', 'tryon-button' ),
			'description' => __( 'The product\'s key in the try-on catalog. Empty: the product slug.', 'tryon-button' ),
			'desc_tip'    => true,
		)
	);
	woocommerce_wp_text_input(
		array(
			'id'          => '_tryon_views',
			'label'       => __( 'Try-on views', 'tryon-button' ),
			'description' => __( 'Comma-separated: front, three_quarter_left, side, back. Empty: all the product offers.', 'tryon-button' ),
			'desc_tip'    => true,
		)
	);
	woocommerce_wp_checkbox(
		array(
			'id'    => '_tryon_video',
			'label' => __( 'Try-on video', 'tryon-button' ),
		)
	);
	echo '</div>';
}
add_action( 'woocommerce_product_options_general_product_data', 'tryon_button_product_fields' );

function tryon_button_save_product_fields( int $post_id ): void {
	// phpcs:disable WordPress.Security.NonceVerification.Missing -- verified by WooCommerce before this hook.
	update_post_meta( $post_id, '_tryon_enabled', isset( $_POST['_tryon_enabled'] ) ? 'yes' : 'no' );
	update_post_meta( $post_id, '_tryon_video', isset( $_POST['_tryon_video'] ) ? 'yes' : 'no' );
	$key = isset( $_POST['_tryon_product'] ) ? sanitize_text_field( wp_unslash( (string) $_POST['_tryon_product'] ) ) : '';
	update_post_meta( $post_id, '_tryon_product', $key );
	$views = isset( $_POST['_tryon_views'] ) ? sanitize_text_field( wp_unslash( (string) $_POST['_tryon_views'] ) ) : '';
	update_post_meta( $post_id, '_tryon_views', (string) preg_replace( '/[^a-z_,]/', '', strtolower( $views ) ) );
	// phpcs:enable
}
add_action( 'woocommerce_process_product_meta', 'tryon_button_save_product_fields' );
