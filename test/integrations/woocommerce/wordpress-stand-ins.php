<?php
/**
 * Minimal stand-ins for the WordPress and WooCommerce functions the plugin calls. The escaping
 * functions follow WordPress's behaviour (esc_attr/esc_html: htmlspecialchars with quotes;
 * esc_url: drops disallowed schemes such as javascript:), so the test sees what a real site would
 * print. Any other WordPress function the plugin starts calling fails loudly (undefined function).
 */

define( 'ABSPATH', __DIR__ . '/' );

$GLOBALS['tryon_test'] = array(
	'actions'    => array(),
	'filters'    => array(),
	'shortcodes' => array(),
	'options'    => array(),
	'meta'       => array(),
	'modules'    => array( 'registered' => array(), 'enqueued' => array() ),
	'scripts'    => array( 'registered' => array(), 'enqueued' => array() ),
	'settings'   => array(),
	'pages'      => array(),
	'errors'     => array(),
	'wrong'      => array(),
	'locale'     => 'en_US',
);

function add_action( string $hook, $callback, int $priority = 10, int $args = 1 ): void {
	$GLOBALS['tryon_test']['actions'][ $hook ][] = array( $callback, $args );
}
function add_filter( string $hook, $callback, int $priority = 10, int $args = 1 ): void {
	$GLOBALS['tryon_test']['filters'][ $hook ][] = array( $callback, $args );
}
function do_action( string $hook, ...$args ): void {
	foreach ( $GLOBALS['tryon_test']['actions'][ $hook ] ?? array() as [ $callback, $count ] ) {
		$callback( ...array_slice( $args, 0, $count ) );
	}
}
function apply_filters( string $hook, $value, ...$args ) {
	foreach ( $GLOBALS['tryon_test']['filters'][ $hook ] ?? array() as [ $callback, $count ] ) {
		$value = $callback( ...array_slice( array_merge( array( $value ), $args ), 0, $count ) );
	}
	return $value;
}
function add_shortcode( string $tag, $callback ): void {
	$GLOBALS['tryon_test']['shortcodes'][ $tag ] = $callback;
}
function shortcode_atts( array $pairs, array $atts, string $shortcode = '' ): array {
	$out = array();
	foreach ( $pairs as $name => $default ) {
		$out[ $name ] = array_key_exists( $name, $atts ) ? $atts[ $name ] : $default;
	}
	return $out;
}

/** WordPress logs it (WP_DEBUG): recorded here. */
function _doing_it_wrong( string $function, string $message, string $version ): void {
	$GLOBALS['tryon_test']['wrong'][] = $function . ': ' . $message;
}

function get_option( string $name, $default = false ) {
	return $GLOBALS['tryon_test']['options'][ $name ] ?? $default;
}
function delete_option( string $name ): bool {
	unset( $GLOBALS['tryon_test']['options'][ $name ] );
	return true;
}
function get_post_meta( int $id, string $key, bool $single = false ) {
	return $GLOBALS['tryon_test']['meta'][ $id ][ $key ] ?? '';
}
function update_post_meta( int $id, string $key, $value ): bool {
	$GLOBALS['tryon_test']['meta'][ $id ][ $key ] = $value;
	return true;
}
function get_locale(): string {
	return $GLOBALS['tryon_test']['locale'];
}
function plugin_basename( string $file ): string {
	return basename( dirname( $file ) ) . '/' . basename( $file );
}
function plugins_url( string $path, string $file ): string {
	return 'https://shop.example/wp-content/plugins/' . basename( dirname( $file ) ) . '/' . $path;
}

function esc_attr( $text ): string {
	return htmlspecialchars( (string) $text, ENT_QUOTES, 'UTF-8', false );
}
function esc_html( $text ): string {
	return htmlspecialchars( (string) $text, ENT_QUOTES, 'UTF-8', false );
}
function esc_url_raw( $url, ?array $protocols = null ): string {
	$url = trim( (string) $url );
	if ( '' === $url ) {
		return '';
	}
	$url = (string) preg_replace( '|[^a-z0-9-~+_.?#=!&;,/:%@$\|*\'()\[\]\\x80-\\xff]|i', '', $url );
	$allowed = $protocols ?? array( 'http', 'https', 'mailto' );
	if ( preg_match( '/^([a-z][a-z0-9+.-]*):/i', $url, $match ) && ! in_array( strtolower( $match[1] ), $allowed, true ) ) {
		return '';
	}
	return $url;
}
function esc_url( $url, ?array $protocols = null ): string {
	return esc_attr( esc_url_raw( $url, $protocols ) );
}
function sanitize_text_field( string $text ): string {
	return trim( (string) preg_replace( '/[\r\n\t ]+/', ' ', strip_tags( $text ) ) );
}
function sanitize_hex_color( string $color ) {
	return preg_match( '/^#([A-Fa-f0-9]{3}){1,2}$/', $color ) ? $color : null;
}
function wp_unslash( $value ) {
	return is_array( $value ) ? array_map( 'wp_unslash', $value ) : stripslashes( (string) $value );
}
function __( string $text, string $domain = 'default' ): string {
	return $text;
}
function esc_html__( string $text, string $domain = 'default' ): string {
	return esc_html( $text );
}

function wp_register_script_module( string $id, string $src, array $deps = array(), $version = false ): void {
	$GLOBALS['tryon_test']['modules']['registered'][ $id ] = array( 'src' => $src, 'version' => $version );
}
function wp_enqueue_script_module( string $id ): void {
	$GLOBALS['tryon_test']['modules']['enqueued'][ $id ] = true;
}
/** What WordPress 6.5+ prints for an enqueued script module in the footer. */
function tryon_test_print_script_modules(): string {
	$out = '';
	foreach ( array_keys( $GLOBALS['tryon_test']['modules']['enqueued'] ) as $id ) {
		$module = $GLOBALS['tryon_test']['modules']['registered'][ $id ];
		$src    = $module['src'] . ( $module['version'] ? '?ver=' . $module['version'] : '' );
		$out   .= '<script type="module" src="' . esc_url( $src ) . '" id="' . esc_attr( $id . '-js-module' ) . '"></script>';
	}
	return $out;
}

/** WordPress keeps each plugin's suggested policy text for the Privacy Policy Guide; here, a list. */
function wp_add_privacy_policy_content( string $plugin_name, string $policy_text ): void {
	$GLOBALS['tryon_test']['privacy'][] = array( 'plugin' => $plugin_name, 'text' => $policy_text );
}

function add_settings_error( string $setting, string $code, string $message, string $type = 'error' ): void {
	$GLOBALS['tryon_test']['errors'][] = array( $setting, $code, $message );
}
function settings_errors( string $setting = '' ): void {
	foreach ( $GLOBALS['tryon_test']['errors'] as [ , , $message ] ) {
		echo '<div class="error"><p>' . esc_html( $message ) . '</p></div>';
	}
}
function register_setting( string $group, string $name, array $args = array() ): void {
	$GLOBALS['tryon_test']['settings'][ $name ] = array( 'group' => $group ) + $args;
}
function add_options_page( string $title, string $menu, string $capability, string $slug, $callback ) {
	$GLOBALS['tryon_test']['pages'][ $slug ] = array( 'capability' => $capability, 'callback' => $callback, 'title' => $title );
	return 'settings_page_' . $slug;
}
function current_user_can( string $capability ): bool {
	return $GLOBALS['tryon_test']['can'] ?? true;
}
function settings_fields( string $group ): void {
	echo '<input type="hidden" name="option_page" value="' . esc_attr( $group ) . '"><input type="hidden" name="_wpnonce" value="nonce">';
}
function submit_button(): void {
	echo '<p class="submit"><input type="submit" class="button button-primary" value="Save Changes"></p>';
}

function woocommerce_wp_checkbox( array $field ): void {
	echo '<p class="form-field"><label for="' . esc_attr( $field['id'] ) . '">' . esc_html( $field['label'] ) . '</label><input type="checkbox" id="' . esc_attr( $field['id'] ) . '" name="' . esc_attr( $field['id'] ) . '"></p>';
}
function woocommerce_wp_text_input( array $field ): void {
	echo '<p class="form-field"><label for="' . esc_attr( $field['id'] ) . '">' . esc_html( $field['label'] ) . '</label><input type="text" id="' . esc_attr( $field['id'] ) . '" name="' . esc_attr( $field['id'] ) . '"></p>';
}

class WC_Product {
	private int $id;
	private string $slug;
	public function __construct( int $id, string $slug ) {
		$this->id   = $id;
		$this->slug = $slug;
	}
	public function get_id(): int {
		return $this->id;
	}
	public function get_slug(): string {
		return $this->slug;
	}
}
