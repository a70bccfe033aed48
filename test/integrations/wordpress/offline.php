<?php
/**
 * Plugin Name: Offline site (tests only)
 * Description: The test site has no Internet: WordPress's update checks for core, plugins and themes are not run, because each failure logs a PHP warning that would hide the plugin's own in the debug log.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

foreach ( array( '_maybe_update_core', '_maybe_update_plugins', '_maybe_update_themes' ) as $check ) {
	remove_action( 'admin_init', $check );
}
remove_action( 'load-plugins.php', 'wp_update_plugins' );
remove_action( 'load-themes.php', 'wp_update_themes' );
remove_action( 'load-update-core.php', 'wp_update_plugins' );
remove_action( 'load-update-core.php', 'wp_update_themes' );
