<?php
/**
 * Whether the configured token proxy is there: GET {endpoint}/health answers
 * {"ok":true,"upstream":"live"|"test"|"sandbox"}. Without this a missing proxy shows only as
 * "Something went wrong" on every button.
 *
 * The request is made by the server, to an address an administrator typed, so it is one that could
 * probe the site's own network: it goes through wp_safe_remote_get (no private address, no port but
 * 80, 443 and 8080 unless the site allows it with the http_allowed_safe_ports filter, no redirect),
 * only ever to the saved endpoint's /health without its query or fragment, and its answer is reduced
 * to one word, so that no status or error of another service reaches the page. The settings page
 * asks for it after it has loaded (settings-page.php), never while it renders.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

const TRYON_BUTTON_DEPLOY_GUIDE = 'https://cdn.jsdelivr.net/npm/tryon-button@' . TRYON_BUTTON_VERSION . '/docs/integrations/deploy-proxy.md';

/** Where the last answer is kept, with the URL it is for. */
const TRYON_BUTTON_PROXY_STATUS = 'tryon_button_proxy_status';

/** A proxy found stays found a while; a missing one is asked again soon, once it has been fixed. */
const TRYON_BUTTON_PROXY_STATUS_SECONDS = array(
	'connected'   => 600,
	'not_a_proxy' => 30,
	'unreachable' => 30,
);

/**
 * The proxy's health URL: scheme, host, port and path of the endpoint, then /health; a query or a
 * fragment is dropped (with "#" at its end an endpoint would ask its own path instead of /health).
 * A path is resolved the way the shopper's browser resolves it: against the site's origin (not its
 * home path, which may be a subfolder). '' when the endpoint is not one the plugin accepts.
 */
function tryon_button_health_url( string $endpoint ): string {
	$endpoint = tryon_button_clean_url( $endpoint, true );
	if ( '' === $endpoint ) {
		return '';
	}
	$base = '/' === substr( $endpoint, 0, 1 ) ? home_url() : $endpoint;
	$base = wp_parse_url( $base );
	$path = (string) wp_parse_url( $endpoint, PHP_URL_PATH );
	if ( ! is_array( $base ) || empty( $base['host'] ) ) {
		return '';
	}
	$origin = strtolower( $base['scheme'] ?? 'http' ) . '://' . $base['host'] . ( isset( $base['port'] ) ? ':' . $base['port'] : '' );
	return $origin . rtrim( $path, '/' ) . '/health';
}

/**
 * What answers at the endpoint: 'connected' (a proxy ready for try-ons), 'not_a_proxy' (something
 * answers, but not a try-on proxy's health), or 'unreachable' (nothing WordPress may ask answers,
 * or a proxy that says it cannot take try-ons now, e.g. its shared store is down).
 */
function tryon_button_check_proxy( string $endpoint ): string {
	$url = tryon_button_health_url( $endpoint );
	if ( '' === $url ) {
		return 'unreachable';
	}
	$cached = get_transient( TRYON_BUTTON_PROXY_STATUS );
	if ( is_array( $cached ) && ( $cached['url'] ?? null ) === $url && array_key_exists( (string) ( $cached['status'] ?? '' ), TRYON_BUTTON_PROXY_STATUS_SECONDS ) ) {
		return $cached['status'];
	}
	$status = tryon_button_ask_proxy( $url );
	set_transient( TRYON_BUTTON_PROXY_STATUS, array( 'url' => $url, 'status' => $status ), TRYON_BUTTON_PROXY_STATUS_SECONDS[ $status ] );
	return $status;
}

function tryon_button_ask_proxy( string $url ): string {
	$response = wp_safe_remote_get(
		$url,
		array(
			'timeout'             => 4,
			'redirection'         => 0,
			'limit_response_size' => 4096,
			'headers'             => array( 'Accept' => 'application/json' ),
		)
	);
	if ( is_wp_error( $response ) ) {
		return 'unreachable';
	}
	$body = json_decode( (string) wp_remote_retrieve_body( $response ), true );
	if ( ! is_array( $body ) || ! isset( $body['upstream'] ) || ! in_array( $body['upstream'], array( 'live', 'test', 'sandbox' ), true ) ) {
		return 'not_a_proxy';
	}
	if ( 200 === (int) wp_remote_retrieve_response_code( $response ) && true === ( $body['ok'] ?? null ) ) {
		return 'connected';
	}
	return 'unreachable';
}

/** Saving the settings asks again, even when nothing changed: the merchant may just have fixed the proxy. */
function tryon_button_forget_proxy_status( $value ) {
	delete_transient( TRYON_BUTTON_PROXY_STATUS );
	return $value;
}
add_filter( 'pre_update_option_' . TRYON_BUTTON_OPTION, 'tryon_button_forget_proxy_status' );

/**
 * admin-ajax.php?action=tryon_button_proxy_status, from the settings page: the saved endpoint's
 * status, {"status": one word}. It takes no address: it only ever checks the saved one.
 */
function tryon_button_ajax_proxy_status(): void {
	check_ajax_referer( 'tryon_button_proxy_status' );
	if ( ! current_user_can( 'manage_options' ) ) {
		wp_send_json( array( 'error' => 'forbidden' ), 403 );
	}
	wp_send_json( array( 'status' => tryon_button_check_proxy( tryon_button_options()['endpoint'] ) ) );
}
add_action( 'wp_ajax_tryon_button_proxy_status', 'tryon_button_ajax_proxy_status' );
