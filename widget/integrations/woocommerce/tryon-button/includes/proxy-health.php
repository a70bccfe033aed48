<?php
/**
 * The settings page asks the configured token proxy, from the server, whether it is there:
 * GET {endpoint}/health answers {"ok":true,"upstream":"live"|"test"|"sandbox"}. Without this a
 * missing proxy shows only as "Something went wrong" on every button.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

const TRYON_BUTTON_DEPLOY_GUIDE = 'https://cdn.jsdelivr.net/npm/tryon-button@' . TRYON_BUTTON_VERSION . '/docs/integrations/deploy-proxy.md';

/**
 * The proxy's health URL. A path is resolved the way the shopper's browser resolves it: against
 * the site's origin (not its home path, which may be a subfolder).
 */
function tryon_button_health_url( string $endpoint ): string {
	if ( '/' === substr( $endpoint, 0, 1 ) ) {
		$home   = wp_parse_url( home_url() );
		$origin = ( $home['scheme'] ?? 'http' ) . '://' . ( $home['host'] ?? 'localhost' ) . ( isset( $home['port'] ) ? ':' . $home['port'] : '' );
		$endpoint = $origin . $endpoint;
	}
	return rtrim( $endpoint, '/' ) . '/health';
}

/**
 * @return array{connected: bool, message: string, url: string}
 */
function tryon_button_check_proxy( string $endpoint ): array {
	$url      = tryon_button_health_url( $endpoint );
	$response = wp_remote_get(
		$url,
		array(
			'timeout'     => 4,
			'redirection' => 0,
			'headers'     => array( 'Accept' => 'application/json' ),
		)
	);
	if ( is_wp_error( $response ) ) {
		/* translators: 1: the proxy's health URL, 2: the network error. */
		return array( 'connected' => false, 'url' => $url, 'message' => sprintf( __( 'Nothing answers at %1$s (%2$s). Is the proxy running, and is the endpoint right?', 'tryon-button' ), $url, $response->get_error_message() ) );
	}
	$status = (int) wp_remote_retrieve_response_code( $response );
	$body   = json_decode( (string) wp_remote_retrieve_body( $response ), true );
	if ( ! is_array( $body ) || ! isset( $body['upstream'] ) || ! is_string( $body['upstream'] ) ) {
		$what = is_array( $body ) ? __( 'JSON, but not a try-on proxy\'s', 'tryon-button' ) : __( 'not JSON', 'tryon-button' );
		/* translators: 1: the proxy's health URL, 2: the HTTP status, 3: what the answer was. */
		return array( 'connected' => false, 'url' => $url, 'message' => sprintf( __( 'No try-on proxy at %1$s: it answered HTTP %2$d, %3$s. Deploy the proxy there, or enter the address where it runs.', 'tryon-button' ), $url, $status, $what ) );
	}
	$upstream = in_array( $body['upstream'], array( 'live', 'test', 'sandbox' ), true ) ? $body['upstream'] : 'unknown';
	if ( 200 === $status && true === ( $body['ok'] ?? null ) ) {
		/* translators: %s: live, test or sandbox. */
		return array( 'connected' => true, 'url' => $url, 'message' => sprintf( __( 'Connected (%s)', 'tryon-button' ), $upstream ) );
	}
	/* translators: 1: the proxy's health URL, 2: the HTTP status. */
	return array( 'connected' => false, 'url' => $url, 'message' => sprintf( __( 'The proxy at %1$s answers but cannot take try-ons now (HTTP %2$d): see its log, e.g. its shared store may be down.', 'tryon-button' ), $url, $status ) );
}
