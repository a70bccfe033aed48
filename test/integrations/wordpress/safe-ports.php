<?php
/**
 * Test only: the tests' own loopback servers (the token proxy, the recorders) listen on ports the
 * system gives out, which wp_safe_remote_get refuses like any port but 80, 443 and 8080. A site's
 * owner allows a port with this same filter; the tests list theirs in the option tryon_test_safe_ports.
 */

add_filter(
	'http_allowed_safe_ports',
	static function ( $ports ) {
		return array_merge( (array) $ports, array_map( 'intval', (array) get_option( 'tryon_test_safe_ports', array() ) ) );
	}
);
