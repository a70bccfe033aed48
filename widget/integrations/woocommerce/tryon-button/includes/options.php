<?php
/**
 * The plugin's settings: stored as one option, always read through the defaults and always
 * sanitized on save, so the rendering code can trust their shape (never their content: it still
 * escapes everything it prints).
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

const TRYON_BUTTON_OPTION = 'tryon_button_options';

function tryon_button_defaults(): array {
	return array(
		'endpoint'   => '/tryon',
		// Empty: the button shows its own label in the visitor's language (tag.php passes it as lang).
		'label'      => '',
		'accent'     => '',
		'script_url' => '',
		'privacy_url' => '',
	);
}

function tryon_button_options(): array {
	$saved = get_option( TRYON_BUTTON_OPTION, array() );
	if ( ! is_array( $saved ) ) {
		$saved = array();
	}
	$options = tryon_button_defaults();
	foreach ( $options as $key => $default ) {
		if ( isset( $saved[ $key ] ) && is_string( $saved[ $key ] ) ) {
			$options[ $key ] = $saved[ $key ];
		}
	}
	return $options;
}

/**
 * A same-site path ("/tryon") or an http(s) URL; anything else (javascript:, protocol-relative
 * "//evil.example") is refused.
 */
function tryon_button_clean_url( string $value, bool $allow_path ): string {
	$value = trim( $value );
	if ( '' === $value ) {
		return '';
	}
	if ( $allow_path && '/' === $value[0] && ( strlen( $value ) === 1 || '/' !== $value[1] ) ) {
		return esc_url_raw( $value );
	}
	if ( preg_match( '#^https?://#i', $value ) ) {
		return esc_url_raw( $value, array( 'http', 'https' ) );
	}
	return '';
}

function tryon_button_sanitize_options( $input ): array {
	$clean = tryon_button_defaults();
	if ( ! is_array( $input ) ) {
		return $clean;
	}
	$input = wp_unslash( $input );

	$endpoint = tryon_button_clean_url( (string) ( $input['endpoint'] ?? '' ), true );
	if ( '' !== $endpoint ) {
		$clean['endpoint'] = $endpoint;
	} elseif ( '' !== trim( (string) ( $input['endpoint'] ?? '' ) ) ) {
		add_settings_error( TRYON_BUTTON_OPTION, 'tryon_button_endpoint', __( 'The proxy endpoint must be a path such as /tryon or an https:// address.', 'tryon-button' ) );
	}

	$label = sanitize_text_field( (string) ( $input['label'] ?? '' ) );
	if ( '' !== $label ) {
		$clean['label'] = function_exists( 'mb_substr' ) ? mb_substr( $label, 0, 60 ) : substr( $label, 0, 60 );
	}

	$clean['accent']      = (string) sanitize_hex_color( (string) ( $input['accent'] ?? '' ) );
	$clean['script_url']  = tryon_button_clean_url( (string) ( $input['script_url'] ?? '' ), true );
	$clean['privacy_url'] = tryon_button_clean_url( (string) ( $input['privacy_url'] ?? '' ), true );
	return $clean;
}
