<?php
/**
 * What the try-on earns, measured against the holdout: the try-on's marks on the cart and the
 * order, and paid orders and refunds posted to the proxy's admin listener (POST {admin URL}/orders,
 * docs/proxy.md), which counts them by group for the lift report (lift.php shows it).
 *
 * The marks (docs/integrations/woocommerce.md):
 * - a tried-on line: the widget posts `tryon` (the catalog product tried on) with its add to cart;
 *   it becomes the cart item's data and the order line's `_tryon` meta;
 * - the cart: the widget posts the browser's group and, only with the visitor's consent, its
 *   anonymous id to ?wc-ajax=tryon_cart_marks at each exposure; they are kept in the shopper's
 *   WooCommerce session and copied to the order's `_tryon_group` and `_tryon_browser` meta.
 *
 * What is posted is only what the proxy counts: the order as an opaque key (a keyed hash of its
 * order key: the proxy hashes it again and keeps only that), its currency and total, the group and
 * browser id, and per line its key, product, quantity, total and `_tryon`. Never a name, an address,
 * an e-mail or the order number. Each event is signed as Standard Webhooks signs (HMAC-SHA256 over
 * "id.timestamp.body" with the `whsec_` secret, base64-decoded) and carries the admin token too.
 *
 * A proxy that is down (no answer, or 5xx) is asked again later, with back-off: by Action Scheduler
 * where WooCommerce provides it, else by WP-Cron. A 4xx is not retried (the same body would be
 * refused again): it is kept as the last problem, which the settings page shows.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

const TRYON_BUTTON_ORDERS_HOOK = 'tryon_button_send_order';
/** The last outcome of posting orders: {at, sent?, problem?}, shown on the settings page. */
const TRYON_BUTTON_ORDERS_STATUS = 'tryon_button_orders_status';
/** Attempts in all, one minute apart at first and doubling: the last is about four hours after the first. */
const TRYON_BUTTON_ORDERS_ATTEMPTS = 9;

/** `treatment` or `holdout`; '' for anything else. */
function tryon_button_clean_group( $value ): string {
	return is_string( $value ) && in_array( $value, array( 'treatment', 'holdout' ), true ) ? $value : '';
}

/** An anonymous browser id as the widget makes it (22–64 of base64url's characters); '' for anything else. */
function tryon_button_clean_browser( $value ): string {
	return is_string( $value ) && 1 === preg_match( '/^[A-Za-z0-9_-]{22,64}\z/', $value ) ? $value : '';
}

/** A catalog product id as the widget sends it; '' for anything else. */
function tryon_button_clean_tryon( $value ): string {
	return is_string( $value ) && 1 === preg_match( '/^[A-Za-z0-9][\w.:-]{0,127}\z/', $value ) ? $value : '';
}

/**
 * ?wc-ajax=tryon_cart_marks: the group and browser id into the shopper's session. No nonce, as
 * WooCommerce's own add-to-cart takes none: it only says which group this browser is in, and a
 * cached product page must still be able to mark the cart.
 */
function tryon_button_ajax_cart_marks(): void {
	// phpcs:disable WordPress.Security.NonceVerification.Missing -- see above.
	$group   = tryon_button_clean_group( wp_unslash( $_POST['group'] ?? '' ) );
	$browser = tryon_button_clean_browser( wp_unslash( $_POST['browser'] ?? '' ) );
	$given   = (string) wp_unslash( $_POST['browser'] ?? '' );
	// phpcs:enable
	if ( '' === $group || ( '' !== $given && '' === $browser ) || ! function_exists( 'WC' ) || ! WC()->session ) {
		wp_send_json( array( 'error' => 'invalid_request' ), 400 );
	}
	// A guest with an empty cart has no session yet: start one, so the marks outlive this request.
	if ( ! WC()->session->has_session() ) {
		WC()->session->set_customer_session_cookie( true );
	}
	WC()->session->set( 'tryon_group', $group );
	// An empty id removes one kept before: the visitor withdrew consent.
	WC()->session->set( 'tryon_browser', '' === $browser ? null : $browser );
	status_header( 204 );
	exit;
}
add_action( 'wc_ajax_tryon_cart_marks', 'tryon_button_ajax_cart_marks' );

/** The tried-on line's mark, posted with the widget's add to cart. */
function tryon_button_cart_item_data( $data ) {
	// phpcs:ignore WordPress.Security.NonceVerification.Missing -- WooCommerce's add-to-cart takes no nonce either.
	$tryon = tryon_button_clean_tryon( wp_unslash( $_POST['tryon'] ?? '' ) );
	if ( '' !== $tryon && is_array( $data ) ) {
		$data['tryon'] = $tryon;
	}
	return $data;
}
add_filter( 'woocommerce_add_cart_item_data', 'tryon_button_cart_item_data' );

/** The cart item's mark onto its order line (classic and block checkout both create lines here). */
function tryon_button_order_line_mark( $item, $cart_item_key, $values ): void {
	$tryon = tryon_button_clean_tryon( $values['tryon'] ?? '' );
	if ( '' !== $tryon ) {
		$item->add_meta_data( '_tryon', $tryon, true );
	}
}
add_action( 'woocommerce_checkout_create_order_line_item', 'tryon_button_order_line_mark', 10, 3 );

/** The session's marks onto the order. */
function tryon_button_order_marks( $order ): void {
	if ( ! function_exists( 'WC' ) || ! WC()->session ) {
		return;
	}
	$group   = tryon_button_clean_group( WC()->session->get( 'tryon_group' ) );
	$browser = tryon_button_clean_browser( WC()->session->get( 'tryon_browser' ) );
	if ( '' !== $group ) {
		$order->update_meta_data( '_tryon_group', $group );
	}
	if ( '' !== $browser ) {
		$order->update_meta_data( '_tryon_browser', $browser );
	}
}
add_action( 'woocommerce_checkout_create_order', 'tryon_button_order_marks' );
add_action( 'woocommerce_store_api_checkout_update_order_meta', 'tryon_button_order_marks' );

/** The `whsec_` secret's key bytes; '' when none is saved or it is not one. */
function tryon_button_orders_key(): string {
	$secret = tryon_button_orders_secret();
	if ( 0 !== strpos( $secret, 'whsec_' ) ) {
		return '';
	}
	$key = base64_decode( substr( $secret, 6 ), true );
	return false === $key ? '' : $key;
}

/** The order as the proxy sees it: a keyed hash of its order key, the same for its refunds and every retry. */
function tryon_button_opaque_order( $order ): string {
	return hash_hmac( 'sha256', 'order|' . $order->get_order_key(), tryon_button_usage_key() );
}

/** A WooCommerce amount as the seam writes it: a decimal string with two places. */
function tryon_button_amount( $value ): string {
	return number_format( abs( (float) $value ), 2, '.', '' );
}

/** The product an order line is counted under: the catalog key the try-on knows it by (tag.php). */
function tryon_button_line_product( $item ): string {
	$product = is_callable( array( $item, 'get_product' ) ) ? $item->get_product() : null;
	if ( $product && is_callable( array( $product, 'get_parent_id' ) ) && $product->get_parent_id() ) {
		$product = wc_get_product( $product->get_parent_id() );
	}
	return $product ? tryon_button_product_key( $product ) : (string) $item->get_product_id();
}

/**
 * The body of one event, built afresh at each attempt from the order as it is now; null when the
 * order (or refund) is gone.
 *
 * @param array{kind: string, order: int, refund?: int} $job
 */
function tryon_button_order_event( array $job ): ?array {
	$order = wc_get_order( (int) $job['order'] );
	if ( ! $order ) {
		return null;
	}
	$group   = tryon_button_clean_group( $order->get_meta( '_tryon_group' ) );
	$browser = tryon_button_clean_browser( $order->get_meta( '_tryon_browser' ) );
	if ( 'refund' === $job['kind'] ) {
		$refund = wc_get_order( (int) ( $job['refund'] ?? 0 ) );
		if ( ! $refund ) {
			return null;
		}
		$lines = array();
		foreach ( $refund->get_items() as $item ) {
			$original = (int) $item->get_meta( '_refunded_item_id' );
			$sold     = $original ? $order->get_item( $original ) : null;
			$lines[]  = array(
				'line'     => (string) ( $original ? $original : $item->get_id() ),
				'product'  => tryon_button_line_product( $sold ? $sold : $item ),
				'quantity' => (int) abs( (float) $item->get_quantity() ),
				'tryon'    => ( $sold && '' !== tryon_button_clean_tryon( $sold->get_meta( '_tryon' ) ) ) ? $sold->get_meta( '_tryon' ) : null,
			);
		}
		return array(
			'type'      => 'order.refunded',
			'timestamp' => gmdate( 'Y-m-d\TH:i:s\Z', $refund->get_date_created() ? $refund->get_date_created()->getTimestamp() : time() ),
			'data'      => array(
				'order'  => tryon_button_opaque_order( $order ),
				'refund' => hash_hmac( 'sha256', 'refund|' . $refund->get_id() . '|' . $order->get_order_key(), tryon_button_usage_key() ),
				'lines'  => $lines,
			),
		);
	}
	$lines = array();
	foreach ( $order->get_items() as $item ) {
		$tryon   = tryon_button_clean_tryon( $item->get_meta( '_tryon' ) );
		$lines[] = array(
			'line'     => (string) $item->get_id(),
			'product'  => tryon_button_line_product( $item ),
			'quantity' => (int) $item->get_quantity(),
			'total'    => tryon_button_amount( $item->get_total() ),
			'tryon'    => '' === $tryon ? null : $tryon,
		);
	}
	$paid = $order->get_date_paid() ? $order->get_date_paid() : $order->get_date_created();
	return array(
		'type'      => 'order.paid',
		'timestamp' => gmdate( 'Y-m-d\TH:i:s\Z', $paid ? $paid->getTimestamp() : time() ),
		'data'      => array(
			'order'    => tryon_button_opaque_order( $order ),
			'currency' => (string) $order->get_currency(),
			'total'    => tryon_button_amount( $order->get_total() ),
			'group'    => '' === $group ? null : $group,
			'browser'  => '' === $browser ? null : $browser,
			'lines'    => $lines,
		),
	);
}

/** Standard Webhooks' signature header: "v1," and the base64 HMAC-SHA256 of "id.timestamp.body". */
function tryon_button_sign( string $id, int $timestamp, string $body, string $key ): string {
	return 'v1,' . base64_encode( hash_hmac( 'sha256', $id . '.' . $timestamp . '.' . $body, $key, true ) );
}

/** A paid order, once (processing, then completed, or payment complete: whichever comes first). */
function tryon_button_order_paid( $order_id ): void {
	$order = wc_get_order( (int) $order_id );
	if ( ! $order || 'yes' === $order->get_meta( '_tryon_reported' ) || '' === tryon_button_orders_key() ) {
		return;
	}
	$order->update_meta_data( '_tryon_reported', 'yes' );
	$order->save_meta_data();
	tryon_button_schedule_order( array( 'kind' => 'paid', 'order' => (int) $order_id, 'attempt' => 1 ), 0 );
}
add_action( 'woocommerce_payment_complete', 'tryon_button_order_paid' );
add_action( 'woocommerce_order_status_processing', 'tryon_button_order_paid' );
add_action( 'woocommerce_order_status_completed', 'tryon_button_order_paid' );

/** A refund of an order that was reported as paid. */
function tryon_button_order_refunded( $order_id, $refund_id ): void {
	$order = wc_get_order( (int) $order_id );
	if ( ! $order || 'yes' !== $order->get_meta( '_tryon_reported' ) || '' === tryon_button_orders_key() ) {
		return;
	}
	tryon_button_schedule_order( array( 'kind' => 'refund', 'order' => (int) $order_id, 'refund' => (int) $refund_id, 'attempt' => 1 ), 0 );
}
add_action( 'woocommerce_order_refunded', 'tryon_button_order_refunded', 10, 2 );

/**
 * Sends the event now (the first attempt) or later: never in the shopper's checkout request, which
 * must not wait for the proxy. Action Scheduler where WooCommerce provides it, else WP-Cron.
 */
function tryon_button_schedule_order( array $job, int $delay ): void {
	if ( function_exists( 'as_schedule_single_action' ) ) {
		as_schedule_single_action( time() + $delay, TRYON_BUTTON_ORDERS_HOOK, array( $job ), 'tryon-button' );
		return;
	}
	wp_schedule_single_event( time() + $delay, TRYON_BUTTON_ORDERS_HOOK, array( $job ) );
}

/** The wait before attempt `$attempt` (2, 3, …): one minute, doubling, at most six hours. */
function tryon_button_retry_delay( int $attempt ): int {
	return (int) min( 6 * HOUR_IN_SECONDS, MINUTE_IN_SECONDS * ( 2 ** max( 0, $attempt - 2 ) ) );
}

/**
 * Posts one event to the admin listener. 2xx (204 counted, 200 a duplicate): done. No answer or
 * 5xx: asked again later, until the attempts run out. 4xx: not asked again. Each outcome is kept
 * for the settings page.
 */
function tryon_button_send_order( $job ): void {
	if ( ! is_array( $job ) || ! in_array( $job['kind'] ?? '', array( 'paid', 'refund' ), true ) ) {
		return;
	}
	$attempt  = max( 1, (int) ( $job['attempt'] ?? 1 ) );
	$settings = tryon_button_usage_settings();
	$key      = tryon_button_orders_key();
	$event    = tryon_button_order_event( $job );
	if ( null === $event || '' === $key || '' === $settings['url'] ) {
		tryon_button_orders_outcome( null === $event ? 'gone' : 'not_set' );
		return;
	}
	$body      = (string) wp_json_encode( $event );
	$id        = 'msg_' . substr( hash_hmac( 'sha256', $job['kind'] . '|' . (int) $job['order'] . '|' . (int) ( $job['refund'] ?? 0 ), tryon_button_usage_key() ), 0, 32 );
	$timestamp = time();
	$headers   = array(
		'Content-Type'      => 'application/json',
		'webhook-id'        => $id,
		'webhook-timestamp' => (string) $timestamp,
		'webhook-signature' => tryon_button_sign( $id, $timestamp, $body, $key ),
	);
	$token = tryon_button_admin_token();
	if ( '' !== $token ) {
		$headers['Authorization'] = 'Bearer ' . $token;
	}
	$args     = array(
		'timeout'             => 5,
		'redirection'         => 0,
		'limit_response_size' => 65536,
		'headers'             => $headers,
		'body'                => $body,
	);
	$loopback = 'yes' === $settings['loopback'] ? tryon_button_usage_loopback_url( $settings['url'], '/orders' ) : '';
	$url      = $settings['url'] . '/orders';
	if ( '' !== $loopback ) {
		$response = wp_remote_post( $loopback, $args );
	} elseif ( ! wp_http_validate_url( $url ) ) {
		tryon_button_orders_outcome( 'not_allowed' );
		return;
	} else {
		$response = wp_safe_remote_post( $url, $args );
	}
	$status = is_wp_error( $response ) ? 0 : (int) wp_remote_retrieve_response_code( $response );
	if ( $status >= 200 && $status < 300 ) {
		tryon_button_orders_outcome( '' );
		return;
	}
	if ( $status >= 400 && $status < 500 ) {
		tryon_button_orders_outcome( 401 === $status ? 'refused' : 'rejected' );
		return;
	}
	if ( $attempt >= TRYON_BUTTON_ORDERS_ATTEMPTS ) {
		tryon_button_orders_outcome( 'gave_up' );
		return;
	}
	tryon_button_orders_outcome( 'retrying' );
	$job['attempt'] = $attempt + 1;
	tryon_button_schedule_order( $job, tryon_button_retry_delay( $job['attempt'] ) );
}
add_action( TRYON_BUTTON_ORDERS_HOOK, 'tryon_button_send_order' );

/** Keeps the last outcome ('' sent; else a word for the problem) for the settings page. */
function tryon_button_orders_outcome( string $problem ): void {
	$status       = get_option( TRYON_BUTTON_ORDERS_STATUS, array() );
	$status       = is_array( $status ) ? $status : array();
	$status['at'] = time();
	if ( '' === $problem ) {
		$status['sent']    = (int) ( $status['sent'] ?? 0 ) + 1;
		$status['problem'] = '';
	} else {
		$status['problem'] = $problem;
	}
	update_option( TRYON_BUTTON_ORDERS_STATUS, $status, false );
}

/** The signing secret, '' when none is saved or it cannot be opened (the site's keys changed). */
function tryon_button_orders_secret(): string {
	return tryon_button_open_sealed( tryon_button_usage_settings()['orders_secret'] );
}

/**
 * The settings rows: the signing secret (never printed back; empty keeps it) and how posting
 * orders went last. Only for whoever may set the admin listener (usage.php).
 */
function tryon_button_orders_rows(): void {
	if ( ! current_user_can( tryon_button_usage_capability() ) ) {
		return;
	}
	$name  = static function ( string $field ): string {
		return esc_attr( TRYON_BUTTON_USAGE_OPTION . '[' . $field . ']' );
	};
	$saved = '' !== tryon_button_usage_settings()['orders_secret'];
	echo '<tr><th scope="row"><label for="tryon-button-orders-secret">' . esc_html__( 'Orders signing secret', 'tryon-button' ) . '</label></th><td>';
	echo '<input type="password" class="regular-text" autocomplete="off" id="tryon-button-orders-secret" name="' . $name( 'orders_secret' ) . '" value="" aria-describedby="tryon-button-orders-secret-help">'; // phpcs:ignore WordPress.Security.EscapeOutput -- $name escapes.
	$help = $saved
		? __( 'A secret is saved (never shown). Leave this empty to keep it, or enter a new one.', 'tryon-button' )
		: __( 'The proxy\'s TRYON_ORDERS_SECRET (whsec_…). With it, paid orders and refunds are sent to the admin listener, signed, for the lift report. Kept sealed with this site\'s secret keys.', 'tryon-button' );
	echo '<p class="description" id="tryon-button-orders-secret-help">' . esc_html( $help ) . '</p>';
	if ( $saved ) {
		echo '<label><input type="checkbox" name="' . $name( 'forget_orders_secret' ) . '" value="1"> ' . esc_html__( 'Forget the saved secret (stop sending orders)', 'tryon-button' ) . '</label>'; // phpcs:ignore WordPress.Security.EscapeOutput -- $name escapes.
	}
	$status   = get_option( TRYON_BUTTON_ORDERS_STATUS, array() );
	$status   = is_array( $status ) ? $status : array();
	$problems = array(
		'retrying'    => __( 'The admin listener did not answer the last order: it is sent again later.', 'tryon-button' ),
		'gave_up'     => __( 'The admin listener did not answer an order for hours: that order was not counted.', 'tryon-button' ),
		'refused'     => __( 'The admin listener refused the last order\'s signature or token: check the secret and the token.', 'tryon-button' ),
		'rejected'    => __( 'The admin listener refused the last order as malformed: it was not sent again.', 'tryon-button' ),
		'not_set'     => __( 'Orders are not sent: set the admin listener and the signing secret.', 'tryon-button' ),
		'not_allowed' => __( 'Orders are not sent: WordPress does not post to that address (tick "on this server" if it is this server).', 'tryon-button' ),
		'gone'        => __( 'An order was deleted before it could be sent.', 'tryon-button' ),
	);
	$problem = (string) ( $status['problem'] ?? '' );
	if ( '' !== $problem ) {
		echo '<p class="tryon-orders-problem">' . esc_html( $problems[ $problem ] ?? $problems['retrying'] ) . '</p>';
	} elseif ( ! empty( $status['sent'] ) ) {
		/* translators: %s: a number of orders and refunds. */
		echo '<p class="tryon-orders-sent">' . esc_html( sprintf( _n( '%s order or refund sent to the proxy.', '%s orders and refunds sent to the proxy.', (int) $status['sent'], 'tryon-button' ), number_format_i18n( (int) $status['sent'] ) ) ) . '</p>';
	}
	echo '</td></tr>';
}
