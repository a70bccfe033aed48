<?php
/**
 * Settings → Virtual try-on: the proxy endpoint, the button's label and accent, where the script
 * comes from (the copy bundled with the plugin by default) and the privacy notice.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

function tryon_button_register_settings(): void {
	register_setting(
		'tryon_button',
		TRYON_BUTTON_OPTION,
		array(
			'type'              => 'array',
			'sanitize_callback' => 'tryon_button_sanitize_options',
			'default'           => tryon_button_defaults(),
		)
	);
}
add_action( 'admin_init', 'tryon_button_register_settings' );

function tryon_button_add_settings_page(): void {
	add_options_page(
		__( 'Virtual try-on', 'tryon-button' ),
		__( 'Virtual try-on', 'tryon-button' ),
		'manage_options',
		'tryon-button',
		'tryon_button_render_settings_page'
	);
}
add_action( 'admin_menu', 'tryon_button_add_settings_page' );

function tryon_button_settings_row( string $key, string $label, string $type, string $help ): void {
	$options = tryon_button_options();
	$id      = 'tryon-button-' . $key;
	echo '<tr><th scope="row"><label for="' . esc_attr( $id ) . '">' . esc_html( $label ) . '</label></th><td>';
	echo '<input type="' . esc_attr( $type ) . '" class="regular-text" id="' . esc_attr( $id ) . '" name="' . esc_attr( TRYON_BUTTON_OPTION . '[' . $key . ']' ) . '" value="' . esc_attr( $options[ $key ] ) . '">';
	echo '<p class="description">' . esc_html( $help ) . '</p></td></tr>';
}

function tryon_button_render_settings_page(): void {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	echo '<div class="wrap"><h1>' . esc_html__( 'Virtual try-on', 'tryon-button' ) . '</h1>';
	settings_errors( TRYON_BUTTON_OPTION );
	echo '<form method="post" action="options.php">';
	settings_fields( 'tryon_button' );
	echo '<table class="form-table" role="presentation">';
	tryon_button_settings_row( 'endpoint', __( 'Proxy endpoint', 'tryon-button' ), 'text', __( 'Where the token proxy is mounted: a path on this site such as /tryon, or an https:// address listed in the proxy\'s allowed origins.', 'tryon-button' ) );
	tryon_button_settings_row( 'label', __( 'Button label', 'tryon-button' ), 'text', __( 'Shown on the button. Empty: the button\'s own label, in the visitor\'s language.', 'tryon-button' ) );
	tryon_button_settings_row( 'accent', __( 'Accent colour', 'tryon-button' ), 'text', __( 'A hex colour such as #8a1c4a. Empty: the widget\'s default.', 'tryon-button' ) );
	tryon_button_settings_row( 'privacy_url', __( 'Privacy notice', 'tryon-button' ), 'url', __( 'Linked from the consent step.', 'tryon-button' ) );
	tryon_button_settings_row( 'script_url', __( 'Script URL', 'tryon-button' ), 'url', __( 'Empty: the copy bundled with this plugin. Or your CDN\'s tryon-button.js.', 'tryon-button' ) );
	echo '</table>';
	submit_button();
	echo '</form></div>';
}
