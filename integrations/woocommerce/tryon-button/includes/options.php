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

/** Where the widget may forward its conversion events (the widget's `analytics` attribute). */
const TRYON_BUTTON_ANALYTICS = array( 'dataLayer' );

/** The holdout shares offered ('' for none): the widget's `holdout` attribute. */
const TRYON_BUTTON_HOLDOUTS = array( '', '0.05', '0.1', '0.2', '0.5' );

function tryon_button_defaults(): array {
	return array(
		'endpoint'    => '/tryon',
		// Empty: the button shows its own label in the visitor's language (tag.php passes it as lang).
		'label'       => '',
		'accent'      => '',
		'script_url'  => '',
		'privacy_url' => '',
		// Space-separated destinations from TRYON_BUTTON_ANALYTICS; empty sends nothing.
		'analytics'   => '',
		// "yes": the try-on's result offers "Add to cart" (WooCommerce's own add-to-cart); "no": it does not.
		'add_to_cart' => 'yes',
		// The share of browsers held out of the try-on to measure what it earns ('' none; "0.1" a tenth).
		'holdout'     => '',
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
 * "//evil.example") is refused. Both what was given and what esc_url_raw makes of it are checked in
 * the shape a browser reads them (tryon_button_url_as_read): "/\/evil.example", "/%0a/evil.example"
 * and a tab after the first slash all end up as "//evil.example", another site.
 */
function tryon_button_clean_url( string $value, bool $allow_path ): string {
	$value = trim( $value );
	if ( '' === $value ) {
		return '';
	}
	if ( $allow_path && '/' === $value[0] ) {
		$url = esc_url_raw( $value );
	} elseif ( preg_match( '#^https?://#i', $value ) ) {
		$url = esc_url_raw( $value, array( 'http', 'https' ) );
	} else {
		return '';
	}
	foreach ( array( $value, $url ) as $form ) {
		if ( ! tryon_button_url_shape_allowed( tryon_button_url_as_read( $form ), $allow_path ) ) {
			return '';
		}
	}
	return $url;
}

/**
 * The URL as the checks must see it: percent-decoded (esc_url removes an encoded newline, leaving
 * what was around it), without the control characters and whitespace that browsers and esc_url
 * drop, backslashes read as slashes as browsers read them in http(s) URLs.
 */
function tryon_button_url_as_read( string $url ): string {
	// A few rounds: "%250a" is "%0a" once decoded.
	for ( $round = 0; $round < 3; $round++ ) {
		$decoded = rawurldecode( $url );
		if ( $decoded === $url ) {
			break;
		}
		$url = $decoded;
	}
	$url = (string) preg_replace( '/[\x00-\x20\x7f]+/', '', $url );
	return str_replace( '\\', '/', $url );
}

function tryon_button_url_shape_allowed( string $shape, bool $allow_path ): bool {
	if ( $allow_path && '/' === substr( $shape, 0, 1 ) ) {
		return '/' !== substr( $shape, 1, 1 );
	}
	return 1 === preg_match( '#^https?://[^/]#i', $shape );
}

/** The analytics destinations the widget knows, from a list or a space-separated string. */
function tryon_button_clean_analytics( $value ): string {
	$asked = is_array( $value ) ? $value : preg_split( '/\s+/', (string) $value );
	$kept  = array();
	foreach ( TRYON_BUTTON_ANALYTICS as $destination ) {
		if ( in_array( $destination, array_map( 'strval', (array) $asked ), true ) ) {
			$kept[] = $destination;
		}
	}
	return implode( ' ', $kept );
}

/**
 * The notice for a refused field. WordPress sanitizes a second time when it first creates the
 * option (update_option, then add_option), but with the value kept here, which passes.
 */
function tryon_button_refuse( string $code, string $message ): void {
	add_settings_error( TRYON_BUTTON_OPTION, $code, $message );
}

/**
 * Each field on its own: a refused value keeps the one saved before (with a notice), and never
 * costs the merchant the other fields of the same form.
 */
function tryon_button_sanitize_options( $input ): array {
	$clean = tryon_button_options();
	if ( ! is_array( $input ) ) {
		return $clean;
	}
	// options.php has already unslashed the form ($_POST): unslashing again would eat backslashes.
	$text = static function ( string $key ) use ( $input ): ?string {
		return isset( $input[ $key ] ) && is_scalar( $input[ $key ] ) ? trim( (string) $input[ $key ] ) : null;
	};

	$endpoint = $text( 'endpoint' );
	if ( '' === $endpoint ) {
		$clean['endpoint'] = tryon_button_defaults()['endpoint'];
	} elseif ( null !== $endpoint ) {
		$url = tryon_button_clean_url( $endpoint, true );
		if ( '' !== $url ) {
			$clean['endpoint'] = $url;
		} else {
			tryon_button_refuse( 'tryon_button_endpoint', __( 'Proxy endpoint not saved: it must be a path on this site such as /tryon, or an https:// or http:// address.', 'tryon-button' ) );
		}
	}

	$label = $text( 'label' );
	if ( null !== $label ) {
		$label          = sanitize_text_field( $label );
		$clean['label'] = function_exists( 'mb_substr' ) ? mb_substr( $label, 0, 60 ) : substr( $label, 0, 60 );
	}

	$accent = $text( 'accent' );
	if ( null !== $accent ) {
		$color = (string) sanitize_hex_color( $accent );
		if ( '' === $accent || '' !== $color ) {
			$clean['accent'] = $color;
		} else {
			tryon_button_refuse( 'tryon_button_accent', __( 'Accent colour not saved: it must be a hex colour such as #8a1c4a.', 'tryon-button' ) );
		}
	}

	$urls = array(
		'privacy_url' => __( 'Privacy notice not saved: it must be a path on this site such as /privacy, or an https:// or http:// address.', 'tryon-button' ),
		'script_url'  => __( 'Script URL not saved: it must be a path on this site or an https:// or http:// address of tryon-button.js.', 'tryon-button' ),
	);
	foreach ( $urls as $key => $refusal ) {
		$value = $text( $key );
		if ( null === $value ) {
			continue;
		}
		$url = tryon_button_clean_url( $value, true );
		if ( '' === $value || '' !== $url ) {
			$clean[ $key ] = $url;
		} else {
			tryon_button_refuse( 'tryon_button_' . $key, $refusal );
		}
	}

	// An unticked checkbox is absent from the form: absent means none.
	$clean['analytics'] = tryon_button_clean_analytics( $input['analytics'] ?? array() );
	// The form always posts it (a hidden "no" before the checkbox), so absent means "unchanged".
	if ( isset( $input['add_to_cart'] ) ) {
		$clean['add_to_cart'] = 'yes' === $input['add_to_cart'] ? 'yes' : 'no';
	}
	$holdout = $text( 'holdout' );
	if ( null !== $holdout ) {
		$clean['holdout'] = in_array( $holdout, TRYON_BUTTON_HOLDOUTS, true ) ? $holdout : '';
	}
	return $clean;
}
