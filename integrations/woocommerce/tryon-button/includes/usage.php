<?php
/**
 * Spend the merchant can read: today's try-ons, credits and previews, the budget left and the last
 * 14 days, from the proxy's admin listener (GET {admin URL}/usage with its bearer token,
 * docs/proxy.md "The admin listener"), on the settings page.
 *
 * The admin URL and token are their own option (tryon_button_usage), set on the settings page by an
 * administrator (on a network, by a network administrator: manage_network_options, since a site's
 * administrator is not trusted with the network's proxy). The token is kept sealed with a key
 * derived from this site's secret keys (wp-config.php), so a copy of the database alone does not
 * give it away, and it is never printed back: the field stays empty, and an empty field keeps the
 * saved token.
 *
 * A token belongs to the address it was entered for: whenever the address changes, by the form or by
 * any update_option(), the saved token is cleared (pre_update_option, which every change passes
 * through), so that changing only the address cannot send it somewhere else.
 *
 * The request is a safe one (wp_safe_remote_get: no private or loopback address, no port but 80, 443
 * and 8080 unless the site allows it), with no redirects and a short timeout. The admin listener
 * listens on the proxy's own machine (127.0.0.1:9464) by default, which safe requests refuse: when it
 * runs on this same server, the operator says so ("on this server"), and then, and only for a
 * loopback address (127.0.0.0/8, [::1], localhost), it is asked with wp_remote_get. The page never
 * waits for it: it shows the last answer kept (a transient), and its script asks admin-ajax.php for
 * a fresh one after the page has loaded when that answer is older than five minutes (stale while
 * revalidating, as the proxy status).
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

const TRYON_BUTTON_USAGE_OPTION = 'tryon_button_usage';
/** The last answer and when it came: {fetched_at, answer}, or {fetched_at, problem}. */
const TRYON_BUTTON_USAGE_CACHE = 'tryon_button_usage_cache';
const TRYON_BUTTON_USAGE_FRESH_SECONDS = 300;
const TRYON_BUTTON_USAGE_DAYS_SHOWN = 14;

/**
 * url and token (sealed); loopback: 'yes' when the operator said the admin listener is on this
 * server; token_cleared: '1' when the token was cleared because the address changed, until a token
 * is entered or forgotten (the form says so meanwhile).
 */
function tryon_button_usage_settings(): array {
	$saved = get_option( TRYON_BUTTON_USAGE_OPTION, array() );
	if ( ! is_array( $saved ) ) {
		$saved = array();
	}
	$text = static function ( string $key ) use ( $saved ): string {
		return isset( $saved[ $key ] ) && is_string( $saved[ $key ] ) ? $saved[ $key ] : '';
	};
	return array(
		'url'           => $text( 'url' ),
		'token'         => $text( 'token' ),
		'loopback'      => 'yes' === $text( 'loopback' ) ? 'yes' : 'no',
		'token_cleared' => '1' === $text( 'token_cleared' ) ? '1' : '',
		// Standard Webhooks' whsec_ secret that signs the orders posted to the proxy (orders.php), sealed like the token.
		'orders_secret' => $text( 'orders_secret' ),
	);
}

/**
 * Who may set the admin listener and its token, and ask it: the site's administrator, or on a
 * network the network's (a site's administrator there has manage_options too).
 */
function tryon_button_usage_capability(): string {
	return is_multisite() ? 'manage_network_options' : 'manage_options';
}

/** The key the token is sealed with: this site's own secret, never stored beside it. */
function tryon_button_usage_key(): string {
	return hash( 'sha256', wp_salt( 'secure_auth' ) . '|tryon_button_admin_token', true );
}

function tryon_button_seal_token( string $token ): string {
	$nonce = random_bytes( SODIUM_CRYPTO_SECRETBOX_NONCEBYTES );
	return base64_encode( $nonce . sodium_crypto_secretbox( $token, $nonce, tryon_button_usage_key() ) );
}

/** The saved token, '' when none is saved or it cannot be opened (the site's keys changed). */
function tryon_button_admin_token(): string {
	return tryon_button_open_sealed( tryon_button_usage_settings()['token'] );
}

/** A value sealed by tryon_button_seal_token(), opened; '' when there is none or it cannot be opened. */
function tryon_button_open_sealed( string $saved ): string {
	$sealed = base64_decode( $saved, true );
	if ( false === $sealed || strlen( $sealed ) <= SODIUM_CRYPTO_SECRETBOX_NONCEBYTES ) {
		return '';
	}
	$opened = sodium_crypto_secretbox_open( substr( $sealed, SODIUM_CRYPTO_SECRETBOX_NONCEBYTES ), substr( $sealed, 0, SODIUM_CRYPTO_SECRETBOX_NONCEBYTES ), tryon_button_usage_key() );
	return false === $opened ? '' : $opened;
}

/**
 * The form's fields. A field left out of the post (another form) keeps what is saved; an empty
 * token keeps the saved one; "forget" removes it. options.php has checked its nonce and
 * manage_options; on a network, a site's administrator changes nothing here.
 */
function tryon_button_sanitize_usage( $input ): array {
	$clean = tryon_button_usage_settings();
	if ( ! is_array( $input ) || ! current_user_can( tryon_button_usage_capability() ) ) {
		return $clean;
	}
	// The form always posts it (a hidden "no" before the checkbox), so absent means "unchanged".
	if ( isset( $input['loopback'] ) ) {
		$clean['loopback'] = 'yes' === $input['loopback'] ? 'yes' : 'no';
	}
	if ( isset( $input['url'] ) && is_scalar( $input['url'] ) ) {
		$value = trim( (string) $input['url'] );
		$url   = '' === $value ? '' : tryon_button_clean_url( $value, false );
		if ( '' === $value || '' !== $url ) {
			$clean['url'] = untrailingslashit( $url );
		} else {
			tryon_button_refuse( 'tryon_button_usage_url', __( 'Admin listener not saved: it must be an http:// or https:// address such as http://127.0.0.1:9464.', 'tryon-button' ) );
		}
	}
	// WordPress sanitizes a second time when it first creates the option, with the value made here:
	// a token sealed in this request is kept as it is, not sealed once more.
	static $sealed_here = array();
	if ( ! empty( $input['forget_token'] ) ) {
		$clean['token'] = '';
	} elseif ( isset( $input['token'] ) && in_array( $input['token'], $sealed_here, true ) ) {
		$clean['token'] = $input['token'];
	} elseif ( isset( $input['token'] ) && is_scalar( $input['token'] ) && '' !== trim( (string) $input['token'] ) ) {
		$token = trim( (string) $input['token'] );
		if ( strlen( $token ) >= 16 && strlen( $token ) <= 512 && 1 === preg_match( '/^[\x21-\x7e]+$/', $token ) ) {
			$clean['token'] = tryon_button_seal_token( $token );
			$sealed_here[]  = $clean['token'];
		} else {
			tryon_button_refuse( 'tryon_button_usage_token', __( 'Admin token not saved: it is the proxy\'s TRYON_ADMIN_TOKEN, at least 16 characters without spaces.', 'tryon-button' ) );
		}
	}
	if ( ! empty( $input['forget_orders_secret'] ) ) {
		$clean['orders_secret'] = '';
	} elseif ( isset( $input['orders_secret'] ) && in_array( $input['orders_secret'], $sealed_here, true ) ) {
		$clean['orders_secret'] = $input['orders_secret'];
	} elseif ( isset( $input['orders_secret'] ) && is_scalar( $input['orders_secret'] ) && '' !== trim( (string) $input['orders_secret'] ) ) {
		$secret = trim( (string) $input['orders_secret'] );
		$key    = 1 === preg_match( '/^whsec_[A-Za-z0-9+\/]+={0,2}\z/', $secret ) ? base64_decode( substr( $secret, 6 ), true ) : false;
		if ( false !== $key && strlen( $key ) >= 16 && strlen( $secret ) <= 512 ) {
			$clean['orders_secret'] = tryon_button_seal_token( $secret );
			$sealed_here[]          = $clean['orders_secret'];
		} else {
			tryon_button_refuse( 'tryon_button_orders_secret', __( 'Orders signing secret not saved: it is the proxy\'s TRYON_ORDERS_SECRET, whsec_ followed by at least 16 bytes in base64.', 'tryon-button' ) );
		}
	}
	// Another proxy or token: what was kept belongs to the old one.
	delete_transient( TRYON_BUTTON_USAGE_CACHE );
	return $clean;
}

function tryon_button_register_usage_setting(): void {
	register_setting(
		'tryon_button',
		TRYON_BUTTON_USAGE_OPTION,
		array(
			'type'              => 'array',
			'sanitize_callback' => 'tryon_button_sanitize_usage',
			'default'           => array( 'url' => '', 'token' => '' ),
		)
	);
}
add_action( 'admin_init', 'tryon_button_register_usage_setting' );

/**
 * Every change of the option passes here, whoever makes it (the settings form, another plugin, a
 * script): a token carried over to another address is cleared. The sanitize callback alone would
 * miss changes made outside wp-admin, where register_setting() has not run.
 */
function tryon_button_usage_before_save( $value, $old_value ) {
	if ( ! is_array( $value ) ) {
		return $value;
	}
	$old       = is_array( $old_value ) ? $old_value : array();
	$old_url   = is_string( $old['url'] ?? null ) ? $old['url'] : '';
	$old_token = is_string( $old['token'] ?? null ) ? $old['token'] : '';
	$new_url   = is_string( $value['url'] ?? null ) ? $value['url'] : '';
	$new_token = is_string( $value['token'] ?? null ) ? $value['token'] : '';
	if ( $new_url !== $old_url ) {
		// Another proxy: what was kept belongs to the old one.
		delete_transient( TRYON_BUTTON_USAGE_CACHE );
	}
	if ( $new_url !== $old_url && '' !== $old_token && $new_token === $old_token ) {
		$value['token']         = '';
		$value['token_cleared'] = '1';
		// Only on the settings form's save (wp-admin); the form says it too, whoever cleared it.
		if ( function_exists( 'add_settings_error' ) ) {
			add_settings_error( TRYON_BUTTON_OPTION, 'tryon_button_usage_token_cleared', __( 'The admin token was cleared because the admin listener\'s address changed: a token is only sent to the address it was entered for. Enter the proxy\'s TRYON_ADMIN_TOKEN again to see usage.', 'tryon-button' ), 'warning' );
		}
	} elseif ( $new_token !== $old_token ) {
		// A token entered or forgotten: what was said about the old one no longer applies.
		$value['token_cleared'] = '';
	}
	return $value;
}
add_filter( 'pre_update_option_' . TRYON_BUTTON_USAGE_OPTION, 'tryon_button_usage_before_save', 10, 2 );

/** Whether the URL's host is this server's loopback: 127.0.0.0/8, [::1] or localhost. */
function tryon_button_usage_is_loopback( string $host ): bool {
	$host = strtolower( trim( $host, '[]' ) );
	return 'localhost' === $host || '::1' === $host || 1 === preg_match( '/^127(\.\d{1,3}){3}\z/', $host );
}

/**
 * The usage URL asked on this server's loopback, rebuilt from its parts (so that the transport reads
 * the host that was checked); '' when the URL is not a loopback one, or has a user or password.
 */
function tryon_button_usage_loopback_url( string $url, string $route = '/usage' ): string {
	$parts = wp_parse_url( $url );
	if ( ! is_array( $parts ) || empty( $parts['host'] ) || isset( $parts['user'] ) || isset( $parts['pass'] ) ) {
		return '';
	}
	$scheme = strtolower( $parts['scheme'] ?? '' );
	if ( ! in_array( $scheme, array( 'http', 'https' ), true ) || ! tryon_button_usage_is_loopback( $parts['host'] ) ) {
		return '';
	}
	$port = isset( $parts['port'] ) ? ':' . (int) $parts['port'] : '';
	return $scheme . '://' . strtolower( $parts['host'] ) . $port . rtrim( $parts['path'] ?? '', '/' ) . $route;
}

/**
 * Asks the admin listener now (at most 3 s) and keeps what it said: the answer, or one word for
 * why there is none ('not_set', 'not_allowed', 'unreachable', 'refused', 'not_usage').
 */
function tryon_button_refresh_usage(): array {
	$settings = tryon_button_usage_settings();
	$token    = tryon_button_admin_token();
	if ( '' === $settings['url'] || '' === $token ) {
		return array( 'fetched_at' => time(), 'problem' => 'not_set' );
	}
	$args     = array(
		'timeout'             => 3,
		'redirection'         => 0,
		'limit_response_size' => 262144,
		'headers'             => array(
			'Accept'        => 'application/json',
			'Authorization' => 'Bearer ' . $token,
		),
	);
	// The lift report's window: the last 30 days (lift.php shows it).
	$loopback = 'yes' === $settings['loopback'] ? tryon_button_usage_loopback_url( $settings['url'], '/usage?window=30' ) : '';
	$url      = $settings['url'] . '/usage?window=30';
	$kept     = tryon_button_cached_usage();
	if ( '' !== $loopback ) {
		// The operator said the listener is on this server, and the address is this server's own.
		$response = wp_remote_get( $loopback, $args );
	} elseif ( ! wp_http_validate_url( $url ) ) {
		// Refused before any connection: said as such, not as an address that did not answer.
		$response = null;
	} else {
		$response = wp_safe_remote_get( $url, $args );
	}
	if ( null === $response ) {
		$entry = array( 'fetched_at' => time(), 'problem' => 'not_allowed' );
	} elseif ( is_wp_error( $response ) ) {
		$entry = array( 'fetched_at' => time(), 'problem' => 'unreachable' );
	} elseif ( in_array( (int) wp_remote_retrieve_response_code( $response ), array( 401, 429 ), true ) ) {
		$entry = array( 'fetched_at' => time(), 'problem' => 'refused' );
	} else {
		$answer = json_decode( (string) wp_remote_retrieve_body( $response ), true );
		$entry  = tryon_button_usage_shape_ok( $answer )
			? array( 'fetched_at' => time(), 'answer' => $answer )
			: array( 'fetched_at' => time(), 'problem' => 'not_usage' );
	}
	// A failed refresh keeps the last figures, said to be old, rather than none.
	if ( isset( $entry['problem'] ) && isset( $kept['answer'] ) ) {
		$entry['answer']      = $kept['answer'];
		$entry['answered_at'] = $kept['answered_at'] ?? $kept['fetched_at'];
	} elseif ( isset( $entry['answer'] ) ) {
		$entry['answered_at'] = $entry['fetched_at'];
	}
	set_transient( TRYON_BUTTON_USAGE_CACHE, $entry, DAY_IN_SECONDS );
	return $entry;
}

function tryon_button_cached_usage(): array {
	$cached = get_transient( TRYON_BUTTON_USAGE_CACHE );
	return is_array( $cached ) ? $cached : array();
}

/** Whether an answer has GET /usage's shape (only what is printed is relied on). */
function tryon_button_usage_shape_ok( $answer ): bool {
	if ( ! is_array( $answer ) || ! isset( $answer['days'], $answer['budget'] ) || ! is_array( $answer['days'] ) || ! is_array( $answer['budget'] ) ) {
		return false;
	}
	foreach ( $answer['days'] as $day ) {
		if ( ! is_array( $day ) || ! is_string( $day['date'] ?? null ) || ! is_numeric( $day['tryons'] ?? null ) || ! is_numeric( $day['credits'] ?? null ) ) {
			return false;
		}
	}
	return true;
}

/** A number as WordPress prints numbers in the site's language. */
function tryon_button_number( $value ): string {
	return null === $value ? __( 'no limit', 'tryon-button' ) : number_format_i18n( (float) $value, floor( (float) $value ) == (float) $value ? 0 : 1 );
}

/** The usage section's inside: escaped here, so the script may put it in the page as it is. */
function tryon_button_usage_html( array $entry ): string {
	$problems = array(
		'not_set'     => __( 'Enter the proxy\'s admin listener and its token below to see usage here.', 'tryon-button' ),
		'not_allowed' => __( 'WordPress does not ask internal addresses, nor ports other than 80, 443 and 8080 (a site can allow more with the http_allowed_safe_ports filter). If the admin listener is on this server, tick "The admin listener is on this server" below.', 'tryon-button' ),
		'unreachable' => __( 'The admin listener did not answer. Is the address right, and can this server reach it?', 'tryon-button' ),
		'refused'     => __( 'The admin listener refused the token. Enter the proxy\'s TRYON_ADMIN_TOKEN again.', 'tryon-button' ),
		'not_usage'   => __( 'Something answers at that address, but not a try-on proxy\'s admin listener.', 'tryon-button' ),
	);
	$html = '';
	if ( isset( $entry['problem'] ) ) {
		$html .= '<p class="tryon-usage-problem">' . esc_html( $problems[ $entry['problem'] ] ?? $problems['unreachable'] ) . '</p>';
	}
	if ( ! isset( $entry['answer'] ) ) {
		return $html;
	}
	$answer = $entry['answer'];
	$today  = $answer['days'][0] ?? array( 'tryons' => 0, 'credits' => 0, 'previews' => 0 );
	$budget = $answer['budget'];
	/* translators: %s: date and time of the figures. */
	$html .= '<p class="description">' . esc_html( sprintf( __( 'As of %s.', 'tryon-button' ), wp_date( get_option( 'date_format' ) . ' ' . get_option( 'time_format' ), (int) ( $entry['answered_at'] ?? $entry['fetched_at'] ) ) ) ) . '</p>';
	$html .= '<ul class="tryon-usage-today">';
	/* translators: %s: a number of try-ons. */
	$html .= '<li>' . esc_html( sprintf( __( 'Try-ons today: %s', 'tryon-button' ), tryon_button_number( $today['tryons'] ?? 0 ) ) ) . '</li>';
	/* translators: %s: a number of credits. */
	$html .= '<li>' . esc_html( sprintf( __( 'Credits today: %s', 'tryon-button' ), tryon_button_number( $today['credits'] ?? 0 ) ) ) . '</li>';
	/* translators: %s: a number of previews. */
	$html .= '<li>' . esc_html( sprintf( __( 'Previews today: %s', 'tryon-button' ), tryon_button_number( $today['previews'] ?? 0 ) ) ) . '</li>';
	/* translators: 1: try-ons left today, 2: the daily limit. */
	$html .= '<li>' . esc_html( sprintf( __( 'Try-ons left today: %1$s of %2$s', 'tryon-button' ), tryon_button_number( $budget['tryonsLeft'] ?? null ), tryon_button_number( $budget['dailyTryons'] ?? null ) ) ) . '</li>';
	/* translators: 1: credits left today, 2: the daily limit. */
	$html .= '<li>' . esc_html( sprintf( __( 'Credits left today: %1$s of %2$s', 'tryon-button' ), tryon_button_number( $budget['creditsLeft'] ?? null ), tryon_button_number( $budget['dailyCredits'] ?? null ) ) ) . '</li>';
	$errors = is_array( $today['errors'] ?? null ) ? $today['errors'] : array();
	if ( $errors ) {
		$parts = array();
		foreach ( $errors as $code => $count ) {
			$parts[] = $code . ' ' . tryon_button_number( $count );
		}
		/* translators: %s: error codes with their counts. */
		$html .= '<li>' . esc_html( sprintf( __( 'Errors today: %s', 'tryon-button' ), implode( ', ', $parts ) ) ) . '</li>';
	}
	$html .= '</ul>';

	// The chart is a table: each day's figures are its text; the bars only draw them (aria-hidden).
	$days = array_slice( $answer['days'], 0, TRYON_BUTTON_USAGE_DAYS_SHOWN );
	$most = max( array_merge( array( 1 ), array_map( static function ( $day ) { return (float) $day['tryons']; }, $days ) ) );
	$html .= '<table class="widefat striped tryon-usage-chart"><caption>' . esc_html__( 'Try-ons and credits, last 14 days', 'tryon-button' ) . '</caption>';
	$html .= '<thead><tr><th scope="col">' . esc_html__( 'Day', 'tryon-button' ) . '</th><th scope="col">' . esc_html__( 'Try-ons', 'tryon-button' ) . '</th><th scope="col">' . esc_html__( 'Credits', 'tryon-button' ) . '</th></tr></thead><tbody>';
	foreach ( $days as $day ) {
		$width = (int) round( 100 * (float) $day['tryons'] / $most );
		$html .= '<tr><th scope="row">' . esc_html( $day['date'] ) . '</th><td><span class="tryon-usage-bar" aria-hidden="true" style="width:' . esc_attr( (string) $width ) . '%"></span> ' . esc_html( tryon_button_number( $day['tryons'] ) ) . '</td><td>' . esc_html( tryon_button_number( $day['credits'] ) ) . '</td></tr>';
	}
	$html .= '</tbody></table>';
	return $html . tryon_button_lift_html( $answer['lift'] ?? null );
}

function tryon_button_usage_rows(): void {
	if ( ! current_user_can( tryon_button_usage_capability() ) ) {
		echo '<tr><th scope="row">' . esc_html__( 'Usage', 'tryon-button' ) . '</th><td><p class="description">' . esc_html__( 'The proxy\'s admin listener and its token are set by the network\'s administrators.', 'tryon-button' ) . '</p></td></tr>';
		return;
	}
	$settings = tryon_button_usage_settings();
	$name     = static function ( string $field ): string {
		return esc_attr( TRYON_BUTTON_USAGE_OPTION . '[' . $field . ']' );
	};
	echo '<tr><th scope="row"><label for="tryon-button-usage-url">' . esc_html__( 'Admin listener', 'tryon-button' ) . '</label></th><td>';
	echo '<input type="text" class="regular-text" id="tryon-button-usage-url" name="' . $name( 'url' ) . '" value="' . esc_attr( $settings['url'] ) . '" aria-describedby="tryon-button-usage-url-help">'; // phpcs:ignore WordPress.Security.EscapeOutput -- $name escapes.
	echo '<p class="description" id="tryon-button-usage-url-help">' . esc_html__( 'Where this server reaches the proxy\'s admin listener (TRYON_ADMIN_PORT), e.g. http://127.0.0.1:9464. Used only to show usage on this page. Changing it clears the saved token: a token is only sent to the address it was entered for.', 'tryon-button' ) . '</p>';
	// The form always posts a value: absent (another form) means unchanged, so unticking is "no".
	echo '<input type="hidden" name="' . $name( 'loopback' ) . '" value="no">'; // phpcs:ignore WordPress.Security.EscapeOutput -- $name escapes.
	echo '<p><label><input type="checkbox" id="tryon-button-usage-loopback" name="' . $name( 'loopback' ) . '" value="yes"' . checked( $settings['loopback'], 'yes', false ) . ' aria-describedby="tryon-button-usage-loopback-help"> ' . esc_html__( 'The admin listener is on this server (loopback)', 'tryon-button' ) . '</label></p>'; // phpcs:ignore WordPress.Security.EscapeOutput -- $name escapes.
	echo '<p class="description" id="tryon-button-usage-loopback-help">' . esc_html__( 'WordPress refuses to ask this server\'s own addresses. Tick this when the proxy runs on this same server and the address above is 127.0.0.1, [::1] or localhost; any other internal address stays refused.', 'tryon-button' ) . '</p></td></tr>';
	echo '<tr><th scope="row"><label for="tryon-button-usage-token">' . esc_html__( 'Admin token', 'tryon-button' ) . '</label></th><td>';
	$saved = '' !== $settings['token'];
	echo '<input type="password" class="regular-text" autocomplete="off" id="tryon-button-usage-token" name="' . $name( 'token' ) . '" value="" aria-describedby="tryon-button-usage-token-help">'; // phpcs:ignore WordPress.Security.EscapeOutput -- $name escapes.
	if ( $saved ) {
		$help = __( 'A token is saved (never shown). Leave this empty to keep it, or enter a new one.', 'tryon-button' );
	} elseif ( '1' === $settings['token_cleared'] ) {
		$help = __( 'The saved token was cleared when the admin listener\'s address changed. Enter the proxy\'s TRYON_ADMIN_TOKEN again to see usage.', 'tryon-button' );
	} else {
		$help = __( 'The proxy\'s TRYON_ADMIN_TOKEN. Kept sealed with this site\'s secret keys, never shown again.', 'tryon-button' );
	}
	echo '<p class="description" id="tryon-button-usage-token-help">' . esc_html( $help ) . '</p>';
	if ( $saved ) {
		echo '<label><input type="checkbox" name="' . $name( 'forget_token' ) . '" value="1"> ' . esc_html__( 'Forget the saved token', 'tryon-button' ) . '</label>'; // phpcs:ignore WordPress.Security.EscapeOutput -- $name escapes.
	}
	echo '</td></tr>';
}

/** The usage section, above the form: the last answer kept, refreshed after the page has loaded. */
function tryon_button_usage_section(): void {
	if ( ! current_user_can( tryon_button_usage_capability() ) ) {
		return;
	}
	$entry = tryon_button_cached_usage();
	$stale = ! isset( $entry['fetched_at'] ) || time() - (int) $entry['fetched_at'] >= TRYON_BUTTON_USAGE_FRESH_SECONDS;
	echo '<h2 id="tryon-button-usage-title">' . esc_html__( 'Usage', 'tryon-button' ) . '</h2>';
	echo '<div id="tryon-button-usage" aria-labelledby="tryon-button-usage-title" aria-live="polite" data-stale="' . ( $stale ? '1' : '0' ) . '">';
	echo $entry ? tryon_button_usage_html( $entry ) : '<p>' . esc_html__( 'Loading usage…', 'tryon-button' ) . '</p>'; // phpcs:ignore WordPress.Security.EscapeOutput -- escaped in tryon_button_usage_html.
	echo '</div>';
	$config = array(
		'ajaxUrl' => admin_url( 'admin-ajax.php' ),
		'usageNonce' => wp_create_nonce( 'tryon_button_usage' ),
		'failed'  => __( 'Usage could not be refreshed: reload the page to try again.', 'tryon-button' ),
	);
	?>
<style>.tryon-usage-bar{display:inline-block;block-size:.7em;background:#2271b1;vertical-align:middle;max-inline-size:10em}.tryon-usage-chart{max-inline-size:40em}.tryon-usage-chart caption{text-align:start;font-weight:600;padding:.5em 0}</style>
<script>
( function ( config ) {
	var box = document.getElementById( 'tryon-button-usage' );
	if ( ! box || '1' !== box.getAttribute( 'data-stale' ) ) {
		return;
	}
	var body = new URLSearchParams( { action: 'tryon_button_usage', _ajax_nonce: config.usageNonce } );
	fetch( config.ajaxUrl, { method: 'POST', credentials: 'same-origin', body: body } )
		.then( function ( response ) { return response.ok ? response.json() : Promise.reject( response.status ); } )
		.then( function ( answer ) { box.innerHTML = answer.html; box.setAttribute( 'data-stale', '0' ); } )
		.catch( function () { var p = document.createElement( 'p' ); p.textContent = config.failed; box.appendChild( p ); } );
}( <?php echo wp_json_encode( $config ); ?> ) );
</script>
	<?php
}

/** admin-ajax.php?action=tryon_button_usage: asks the saved admin listener now; the section's HTML. */
function tryon_button_ajax_usage(): void {
	check_ajax_referer( 'tryon_button_usage' );
	if ( ! current_user_can( tryon_button_usage_capability() ) ) {
		wp_send_json( array( 'error' => 'forbidden' ), 403 );
	}
	wp_send_json( array( 'html' => tryon_button_usage_html( tryon_button_refresh_usage() ) ) );
}
add_action( 'wp_ajax_tryon_button_usage', 'tryon_button_ajax_usage' );
