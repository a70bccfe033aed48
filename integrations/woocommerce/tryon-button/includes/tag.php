<?php
/**
 * The <tryon-button> tag: after the add-to-cart button on product pages whose meta enables
 * try-on, and wherever the [tryon_button] shortcode is used. The widget is an ES module, so it is
 * loaded as a script module (type="module").
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

const TRYON_BUTTON_HANDLE = 'tryon-button';

function tryon_button_script_src(): string {
	$script = tryon_button_clean_url( tryon_button_options()['script_url'], true );
	if ( '' !== $script ) {
		return $script;
	}
	return plugins_url( 'assets/tryon-button.js', TRYON_BUTTON_FILE );
}

function tryon_button_register_script(): void {
	if ( function_exists( 'wp_register_script_module' ) ) {
		wp_register_script_module( TRYON_BUTTON_HANDLE, tryon_button_script_src(), array(), TRYON_BUTTON_VERSION );
		return;
	}
	// `true`, not WordPress 6.3's array( 'in_footer' => true ): 6.1 and 6.2 take a boolean here.
	wp_register_script( TRYON_BUTTON_HANDLE, tryon_button_script_src(), array(), TRYON_BUTTON_VERSION, true );
}
add_action( 'wp_enqueue_scripts', 'tryon_button_register_script', 5 );

function tryon_button_enqueue_script(): void {
	if ( function_exists( 'wp_enqueue_script_module' ) ) {
		wp_enqueue_script_module( TRYON_BUTTON_HANDLE );
		return;
	}
	wp_enqueue_script( TRYON_BUTTON_HANDLE );
}

/** Before WordPress 6.5 there are no script modules: mark the classic script as a module. */
function tryon_button_module_type( string $tag, string $handle ): string {
	if ( TRYON_BUTTON_HANDLE !== $handle || false !== strpos( $tag, 'type="module"' ) ) {
		return $tag;
	}
	return (string) preg_replace( '/<script\b(?:\s+type=(["\'])[^"\']*\1)?/', '<script type="module"', $tag, 1 );
}
add_filter( 'script_loader_tag', 'tryon_button_module_type', 10, 2 );

function tryon_button_is_enabled( int $product_id ): bool {
	return 'yes' === get_post_meta( $product_id, '_tryon_enabled', true );
}

/** The key the token proxy's catalog knows the product by: the _tryon_product meta, else its slug. */
function tryon_button_product_key( $product ): string {
	$key = get_post_meta( $product->get_id(), '_tryon_product', true );
	if ( is_string( $key ) && '' !== trim( $key ) ) {
		return trim( $key );
	}
	return (string) $product->get_slug();
}

function tryon_button_lang(): string {
	$locale = function_exists( 'determine_locale' ) ? determine_locale() : get_locale();
	$lang   = strtolower( (string) strtok( (string) $locale, '_' ) );
	return '' === $lang ? 'en' : $lang;
}

/**
 * The markup for one button. Every attribute goes through esc_attr (URLs through esc_url) and the
 * label through esc_html: product data and settings are merchant input, and a product's slug,
 * meta or title may hold anything.
 *
 * @param array{product?: string, variant?: string, views?: string, video?: bool, label?: string, cart_id?: int} $args
 */
function tryon_button_tag( array $args ): string {
	$product = trim( (string) ( $args['product'] ?? '' ) );
	if ( '' === $product ) {
		return '';
	}
	$options = tryon_button_options();
	// Saved options went through the sanitizer, but the database is not trusted to still hold what
	// it wrote (imports, other plugins): URLs are checked again where they are printed.
	$endpoint = tryon_button_clean_url( $options['endpoint'], true );
	if ( '' === $endpoint ) {
		$endpoint = tryon_button_defaults()['endpoint'];
	}
	$privacy = tryon_button_clean_url( $options['privacy_url'], true );
	$accent  = (string) sanitize_hex_color( $options['accent'] );
	$label   = (string) ( $args['label'] ?? '' );

	$html  = '<tryon-button';
	$html .= ' product="' . esc_attr( $product ) . '"';
	$html .= ' endpoint="' . esc_url( $endpoint ) . '"';
	$variant = trim( (string) ( $args['variant'] ?? '' ) );
	if ( '' !== $variant ) {
		$html .= ' variant="' . esc_attr( $variant ) . '"';
	}
	$views = trim( (string) ( $args['views'] ?? '' ) );
	if ( '' !== $views ) {
		$html .= ' views="' . esc_attr( $views ) . '"';
	}
	if ( ! empty( $args['video'] ) ) {
		$html .= ' video';
	}
	$html .= ' lang="' . esc_attr( tryon_button_lang() ) . '"';
	if ( '' !== $privacy ) {
		$html .= ' privacy-url="' . esc_url( $privacy ) . '"';
	}
	$analytics = tryon_button_clean_analytics( $options['analytics'] );
	if ( '' !== $analytics ) {
		$html .= ' analytics="' . esc_attr( $analytics ) . '"';
	}
	$html .= tryon_button_add_to_cart_attributes( $options, (int) ( $args['cart_id'] ?? 0 ) );
	// The holdout: the widget measures lift itself and marks the cart (orders.php); the visitor's
	// consent to measurement is the shop's consent banner's to give (the measurement attribute).
	if ( in_array( $options['holdout'], TRYON_BUTTON_HOLDOUTS, true ) && '' !== $options['holdout'] ) {
		$html .= ' holdout="' . esc_attr( $options['holdout'] ) . '"';
	}
	// An attribute the element reads, not style="…": a strict Content-Security-Policy refuses inline styles.
	if ( '' !== $accent ) {
		$html .= ' accent="' . esc_attr( $accent ) . '"';
	}
	$html .= '>' . esc_html( '' !== $label ? $label : $options['label'] ) . '</tryon-button>';

	tryon_button_enqueue_script();
	return $html;
}

function tryon_button_args_for( $product ): array {
	$id = (int) $product->get_id();
	return array(
		'product' => tryon_button_product_key( $product ),
		'views'   => (string) get_post_meta( $id, '_tryon_views', true ),
		'video'   => 'yes' === get_post_meta( $id, '_tryon_video', true ),
		// What "Add to cart" adds: this product (its variation is the button's variant).
		'cart_id' => $id,
	);
}

function tryon_button_after_add_to_cart(): void {
	global $product;
	if ( ! is_object( $product ) || ! method_exists( $product, 'get_id' ) || ! tryon_button_is_enabled( (int) $product->get_id() ) ) {
		return;
	}
	echo '<div class="tryon-button-wrap">' . tryon_button_tag( tryon_button_args_for( $product ) ) . '</div>'; // phpcs:ignore WordPress.Security.EscapeOutput -- built from escaped parts.
	tryon_button_follow_variations( $product );
}
add_action( 'woocommerce_after_add_to_cart_button', 'tryon_button_after_add_to_cart' );

/**
 * [tryon_button] on a product page: that product (if its meta enables try-on).
 * [tryon_button product="saree-banarasi-red" variant="sindoor-red" label="See it on you" views="front,back" video="yes"]:
 * that catalog product (and variant), anywhere.
 *
 * Anyone who may publish a post (an Author, without unfiltered_html) may write a shortcode, so it
 * takes nothing an Author must not decide: where the shopper's photo is sent (the endpoint), the
 * script, the privacy notice and the accent are the administrator's settings only. What it does take
 * the proxy bounds: an unknown product or variant is refused there, views and video only narrow what
 * the product's catalog entry offers.
 */
function tryon_button_shortcode( $atts ): string {
	$atts = is_array( $atts ) ? $atts : array();
	if ( isset( $atts['endpoint'] ) ) {
		tryon_button_ignored_endpoint();
	}
	$atts = shortcode_atts(
		array(
			'product' => '',
			'variant' => '',
			'label'   => '',
			'views'   => '',
			'video'   => '',
		),
		$atts,
		'tryon_button'
	);
	$video = in_array( strtolower( (string) $atts['video'] ), array( '1', 'yes', 'true', 'video' ), true );
	if ( '' === trim( (string) $atts['product'] ) ) {
		global $product;
		if ( ! is_object( $product ) || ! method_exists( $product, 'get_id' ) || ! tryon_button_is_enabled( (int) $product->get_id() ) ) {
			return '';
		}
		$args = tryon_button_args_for( $product );
		if ( '' !== $atts['views'] ) {
			$args['views'] = (string) $atts['views'];
		}
		$args['video'] = $args['video'] || $video;
		tryon_button_follow_variations( $product );
	} else {
		$args = array(
			'product' => (string) $atts['product'],
			'variant' => (string) $atts['variant'],
			'views'   => (string) $atts['views'],
			'video'   => $video,
		);
	}
	$args['label'] = (string) $atts['label'];
	return tryon_button_tag( $args );
}

/**
 * Said, not silently dropped: a post written for the plugin's first versions keeps working with the
 * configured endpoint, and the site's developer learns why its endpoint attribute has no effect. The
 * value is not repeated: it may be an address nobody should be sent to, even in a log.
 */
function tryon_button_ignored_endpoint(): void {
	static $said = false;
	if ( $said ) {
		return;
	}
	$said = true;
	_doing_it_wrong(
		'tryon_button_shortcode',
		esc_html__( 'The [tryon_button] shortcode ignores its endpoint attribute: the button always uses the Proxy endpoint of Settings → Virtual try-on, since anyone who may publish a post could otherwise send shoppers\' photos to an address of their choosing.', 'tryon-button' ),
		'0.1.0'
	);
}
add_shortcode( 'tryon_button', 'tryon_button_shortcode' );
