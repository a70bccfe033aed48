<?php
/**
 * Deleting the plugin removes its settings. Products' try-on meta (_tryon_*) is left in place:
 * it is the merchant's product data, and reinstalling should find it again.
 */

if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}

delete_option( 'tryon_button_options' );
