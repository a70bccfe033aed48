<?php
/**
 * Suggested text for the site's privacy policy (Settings → Privacy → the Privacy Policy Guide):
 * what the shopper's photo is, where it goes, how long it is kept and what consent it needs. The
 * plugin cannot know which try-on service the proxy forwards to, nor the proxy's retention
 * settings, so the guide's note to the administrator says what to fill in, and the suggested text
 * states the proxy's defaults in brackets to be checked.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

function tryon_button_privacy_policy_text(): string {
	$endpoint = tryon_button_options()['endpoint'];
	$note     = sprintf(
		/* translators: %s: the Proxy endpoint setting, e.g. /tryon */
		__( 'Virtual try-on sends a shopper\'s photo, only after they tick its consent box, to your token proxy at %s, which forwards it to the hosted try-on service the proxy is configured with (TRYON_BASE_URL). Name that service and link its privacy policy and terms below, and state the retention your proxy is configured with (TRYON_PHOTO_TTL_SECONDS, TRYON_RESULT_TTL_SECONDS; 1 hour and 1 day by default) and how long the service keeps photos under its terms. Link this policy from Settings → Virtual try-on → Privacy notice, so the consent step shows it.', 'tryon-button' ),
		$endpoint
	);
	$paragraphs = array(
		__( 'On our product pages you can see yourself wearing a product (virtual try-on). To do so you give a photo of yourself, which we use only to make that picture for you. Nothing is uploaded until you tick the consent box, and you can close the try-on at any time without giving a photo.', 'tryon-button' ),
		__( 'Before it leaves your device, the photo is re-encoded, which removes its location and camera data (EXIF, GPS, XMP).', 'tryon-button' ),
		sprintf(
			/* translators: %s: the Proxy endpoint setting, e.g. /tryon */
			__( 'The photo is sent to our try-on server at %s and from there to our virtual try-on provider, [name of the provider], which renders the result ([link to its privacy policy]). The provider acts on our behalf and keeps the photo and the result as its own terms say: [how long].', 'tryon-button' ),
			$endpoint
		),
		__( 'Our links to your photo stop working after [1 hour], and those to your try-on result after [1 day]. "Forget my photo", in the try-on window, makes them unreachable through our site at once. Images you download or share links you give others are yours to keep or delete.', 'tryon-button' ),
		__( 'We never use the photo for anything else. If we measure how the try-on is used, the events we record (for example that a try-on was started) never contain the photo.', 'tryon-button' ),
	);
	// Only with a holdout: what measuring the try-on's lift keeps and sends (orders.php).
	if ( '' !== tryon_button_options()['holdout'] ) {
		$paragraphs[] = __( 'To learn whether the try-on helps, a random share of visitors does not see it. Your browser keeps which group it is in, and, only if you allow measurement in our cookie banner, a random identifier that says nothing about you; withdrawing that consent deletes it. Both are added to your cart and order, and when you order or get a refund we tell our try-on server the group, that identifier, the products, quantities and amounts, never your name, address, e-mail or order number.', 'tryon-button' );
	}
	$html = '<p class="privacy-policy-tutorial">' . esc_html( $note ) . '</p>';
	$html .= '<strong class="privacy-policy-tutorial">' . esc_html__( 'Suggested text:', 'tryon-button' ) . ' </strong>';
	foreach ( $paragraphs as $paragraph ) {
		$html .= '<p>' . esc_html( $paragraph ) . '</p>';
	}
	return $html;
}

function tryon_button_add_privacy_policy_content(): void {
	wp_add_privacy_policy_content( __( 'Virtual Try-On Button', 'tryon-button' ), tryon_button_privacy_policy_text() );
}
add_action( 'admin_init', 'tryon_button_add_privacy_policy_content' );
