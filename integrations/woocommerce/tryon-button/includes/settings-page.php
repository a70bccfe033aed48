<?php
/**
 * Settings → Virtual try-on: the proxy endpoint (and whether the proxy answers there), the
 * button's label and accent, where the script comes from (the copy bundled with the plugin by
 * default), the privacy notice and conversion events; and the proxy's usage (usage.php).
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

const TRYON_BUTTON_SETTINGS_SLUG = 'tryon-button';

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
		TRYON_BUTTON_SETTINGS_SLUG,
		'tryon_button_render_settings_page'
	);
}
add_action( 'admin_menu', 'tryon_button_add_settings_page' );

/** A "Settings" link next to Deactivate on the Plugins screen. */
function tryon_button_action_links( array $links ): array {
	$url = admin_url( 'options-general.php?page=' . TRYON_BUTTON_SETTINGS_SLUG );
	array_unshift( $links, '<a href="' . esc_url( $url ) . '">' . esc_html__( 'Settings', 'tryon-button' ) . '</a>' );
	return $links;
}
add_filter( 'plugin_action_links_' . plugin_basename( TRYON_BUTTON_FILE ), 'tryon_button_action_links' );

/**
 * Text inputs, also for the URLs: the plugin accepts a path such as /privacy, which the
 * browser's type="url" would refuse before the form is even sent.
 */
function tryon_button_settings_row( string $key, string $label, string $help ): void {
	$options = tryon_button_options();
	$id      = 'tryon-button-' . $key;
	echo '<tr><th scope="row"><label for="' . esc_attr( $id ) . '">' . esc_html( $label ) . '</label></th><td>';
	echo '<input type="text" class="regular-text" id="' . esc_attr( $id ) . '" name="' . esc_attr( TRYON_BUTTON_OPTION . '[' . $key . ']' ) . '" value="' . esc_attr( $options[ $key ] ) . '">';
	echo '<p class="description">' . esc_html( $help ) . '</p></td></tr>';
}

function tryon_button_analytics_row(): void {
	$chosen = explode( ' ', tryon_button_options()['analytics'] );
	echo '<tr><th scope="row">' . esc_html__( 'Conversion events', 'tryon-button' ) . '</th><td><fieldset>';
	echo '<label><input type="checkbox" id="tryon-button-analytics-dataLayer" name="' . esc_attr( TRYON_BUTTON_OPTION . '[analytics][]' ) . '" value="dataLayer"' . checked( in_array( 'dataLayer', $chosen, true ), true, false ) . '> ';
	echo esc_html__( 'Send try-on events to Google Tag Manager (window.dataLayer)', 'tryon-button' ) . '</label>';
	echo '<p class="description">' . esc_html__( 'tryon_open, tryon_submit, tryon_result, tryon_error and tryon_close, with the product, variant, views, output, outcome and durations; never the photo.', 'tryon-button' ) . '</p>';
	echo '</fieldset></td></tr>';
}

function tryon_button_holdout_row(): void {
	$chosen  = tryon_button_options()['holdout'];
	$choices = array(
		''     => __( 'None', 'tryon-button' ),
		'0.05' => __( '5 % of shoppers', 'tryon-button' ),
		'0.1'  => __( '10 % of shoppers', 'tryon-button' ),
		'0.2'  => __( '20 % of shoppers', 'tryon-button' ),
		'0.5'  => __( '50 % of shoppers', 'tryon-button' ),
	);
	echo '<tr><th scope="row"><label for="tryon-button-holdout">' . esc_html__( 'Holdout, to measure lift', 'tryon-button' ) . '</label></th><td>';
	echo '<select id="tryon-button-holdout" name="' . esc_attr( TRYON_BUTTON_OPTION . '[holdout]' ) . '" aria-describedby="tryon-button-holdout-help">';
	foreach ( $choices as $value => $label ) {
		echo '<option value="' . esc_attr( $value ) . '"' . selected( $chosen, $value, false ) . '>' . esc_html( $label ) . '</option>';
	}
	echo '</select><p class="description" id="tryon-button-holdout-help">' . esc_html__( 'A random share of browsers never sees the button, so the report below compares orders with and without the try-on. Paid orders and refunds are sent to the proxy with the group (no name, address or e-mail). An anonymous browser id is kept only when your consent banner sets measurement="allowed" on the button.', 'tryon-button' ) . '</p></td></tr>';
}

/**
 * The status line is filled in after the page has loaded (tryon_button_proxy_status_script): asking
 * the proxy here held the whole page for as long as the proxy took to answer, up to the timeout.
 */
function tryon_button_proxy_status_row(): void {
	$url = tryon_button_health_url( tryon_button_options()['endpoint'] );
	echo '<tr><th scope="row">' . esc_html__( 'Proxy status', 'tryon-button' ) . '</th><td>';
	echo '<p id="tryon-button-proxy-status" class="tryon-proxy-checking" data-health-url="' . esc_attr( $url ) . '">';
	echo '<span class="dashicons dashicons-update" aria-hidden="true"></span> <span class="tryon-proxy-message">' . esc_html__( 'Checking the proxy…', 'tryon-button' ) . '</span></p>';
	echo '<p class="description" id="tryon-button-proxy-guide" hidden><a href="' . esc_url( TRYON_BUTTON_DEPLOY_GUIDE ) . '">' . esc_html__( 'How to deploy the token proxy', 'tryon-button' ) . '</a></p>';
	echo '</td></tr>';
}

/**
 * Finds the proxy's status and shows it. An endpoint on this site (a path) is asked by the browser
 * itself, as the shopper's browser will ask it: asked by the server, the request would wait for the
 * very server that makes it, and a single-worker PHP server (php -S, some small hostings) answers
 * only once the check has timed out, "unreachable" where it should say "not a proxy". Any other
 * address is asked through admin-ajax.php (proxy-health.php), whose answer is one word; the text is
 * here.
 */
function tryon_button_proxy_status_script(): void {
	$endpoint = tryon_button_clean_url( tryon_button_options()['endpoint'], true );
	$url      = tryon_button_health_url( $endpoint );
	$config   = array(
		'healthUrl' => '/' === substr( $endpoint, 0, 1 ) ? $url : '',
		'ajaxUrl'   => admin_url( 'admin-ajax.php' ),
		'nonce'    => wp_create_nonce( 'tryon_button_proxy_status' ),
		'messages' => array(
			/* translators: %s: the proxy's health URL. */
			'connected'   => sprintf( __( 'Connected: the try-on proxy answers at %s.', 'tryon-button' ), $url ),
			/* translators: %s: the proxy's health URL. */
			'not_a_proxy' => sprintf( __( 'No try-on proxy at %s: something answers there, but not a try-on proxy. Deploy the proxy there, or enter the address where it runs.', 'tryon-button' ), $url ),
			/* translators: %s: the proxy's health URL. */
			'unreachable' => sprintf( __( 'The try-on proxy cannot be reached at %s, or cannot take try-ons now. Is it running, and is the endpoint right? WordPress only asks public addresses on ports 80, 443 and 8080 (a site can allow more with the http_allowed_safe_ports filter).', 'tryon-button' ), $url ),
			'failed'      => __( 'The proxy status could not be checked: reload the page to try again.', 'tryon-button' ),
		),
	);
	?>
<script>
( function ( config ) {
	var line = document.getElementById( 'tryon-button-proxy-status' );
	if ( ! line ) {
		return;
	}
	function show( status ) {
		var connected = 'connected' === status;
		line.className = connected ? 'tryon-proxy-connected' : 'tryon-proxy-error';
		line.querySelector( '.dashicons' ).className = 'dashicons ' + ( connected ? 'dashicons-yes-alt' : 'dashicons-warning' );
		line.querySelector( '.tryon-proxy-message' ).textContent = config.messages[ status ] || config.messages.failed;
		document.getElementById( 'tryon-button-proxy-guide' ).hidden = connected;
	}
	// The same three words as tryon_button_ask_proxy().
	function classify( response, text ) {
		var body = null;
		try {
			body = JSON.parse( text );
		} catch ( error ) {}
		if ( ! body || [ 'live', 'test', 'sandbox' ].indexOf( body.upstream ) < 0 ) {
			return 'not_a_proxy';
		}
		return 200 === response.status && true === body.ok ? 'connected' : 'unreachable';
	}
	// Same origin only: the admin's origin may differ from the site's (another host name, http).
	if ( config.healthUrl && new URL( config.healthUrl ).origin === window.location.origin ) {
		fetch( config.healthUrl, { credentials: 'omit', redirect: 'manual', cache: 'no-store', headers: { Accept: 'application/json' } } )
			.then( function ( response ) { return response.text().then( function ( text ) { show( classify( response, text ) ); } ); } )
			.catch( function () { show( 'unreachable' ); } );
		return;
	}
	var body = new URLSearchParams( { action: 'tryon_button_proxy_status', _ajax_nonce: config.nonce } );
	fetch( config.ajaxUrl, { method: 'POST', credentials: 'same-origin', body: body } )
		.then( function ( response ) { return response.ok ? response.json() : { status: 'failed' }; } )
		.then( function ( answer ) { show( answer.status ); } )
		.catch( function () { show( 'failed' ); } );
}( <?php echo wp_json_encode( $config ); ?> ) );
</script>
	<?php
}

/**
 * The page. WordPress itself prints the settings' notices on pages under Settings
 * (options-head.php): calling settings_errors() here as well would print each one twice.
 */
function tryon_button_render_settings_page(): void {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	echo '<div class="wrap"><h1>' . esc_html__( 'Virtual try-on', 'tryon-button' ) . '</h1>';
	echo '<form method="post" action="options.php">';
	settings_fields( 'tryon_button' );
	echo '<table class="form-table" role="presentation">';
	tryon_button_settings_row( 'endpoint', __( 'Proxy endpoint', 'tryon-button' ), __( 'Where the token proxy is mounted: a path on this site such as /tryon, or an https:// or http:// address listed in the proxy\'s allowed origins.', 'tryon-button' ) );
	tryon_button_proxy_status_row();
	tryon_button_settings_row( 'label', __( 'Button label', 'tryon-button' ), __( 'Shown on the button. Empty: the button\'s own label, in the visitor\'s language.', 'tryon-button' ) );
	tryon_button_settings_row( 'accent', __( 'Accent colour', 'tryon-button' ), __( 'A hex colour such as #8a1c4a. Empty: the widget\'s default.', 'tryon-button' ) );
	tryon_button_settings_row( 'privacy_url', __( 'Privacy notice', 'tryon-button' ), __( 'Linked from the consent step: a path on this site such as /privacy, or an https:// or http:// address.', 'tryon-button' ) );
	tryon_button_settings_row( 'script_url', __( 'Script URL', 'tryon-button' ), __( 'Empty: the copy bundled with this plugin. Or your CDN\'s tryon-button.js.', 'tryon-button' ) );
	tryon_button_analytics_row();
	tryon_button_add_to_cart_row();
	tryon_button_holdout_row();
	tryon_button_usage_rows();
	tryon_button_orders_rows();
	echo '</table>';
	submit_button();
	echo '</form>';
	tryon_button_usage_section();
	echo '</div>';
	tryon_button_proxy_status_script();
}
