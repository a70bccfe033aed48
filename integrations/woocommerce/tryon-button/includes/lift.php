<?php
/**
 * The lift report on the settings page: the proxy's `/usage?window=30` `lift` (docs/proxy.md), as a
 * small table and in words ("With the try-on, 3.1 % of shoppers ordered; without, 2.6 %; the
 * difference is between +0.1 and +0.9 points, 95 % sure"), and plainly "not yet enough data" while
 * the proxy says so (`enough: false`). Every figure is printed through esc_html: the answer comes
 * over the network.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/** A number from the answer, or null when it is not one. */
function tryon_button_lift_number( $value ): ?float {
	return is_int( $value ) || is_float( $value ) ? (float) $value : null;
}

/** Whether `lift` has the contract's shape (only what is printed is relied on). */
function tryon_button_lift_shape_ok( $lift ): bool {
	if ( ! is_array( $lift ) || ! is_bool( $lift['enough'] ?? null ) ) {
		return false;
	}
	foreach ( array( 'treatment', 'holdout' ) as $group ) {
		$figures = $lift[ $group ] ?? null;
		if ( ! is_array( $figures ) || null === tryon_button_lift_number( $figures['exposed'] ?? null ) || null === tryon_button_lift_number( $figures['ordering'] ?? null ) ) {
			return false;
		}
	}
	return is_array( $lift['difference'] ?? null );
}

/** A share as a percentage in the site's language: "3.1 %" (`$decimals` places). */
function tryon_button_percent( float $percent, int $decimals = 1 ): string {
	/* translators: %s: a number; the whole is a percentage. */
	return sprintf( __( '%s %%', 'tryon-button' ), number_format_i18n( $percent, $decimals ) );
}

/** Percentage points with their sign: "+0.4", "−0.2". */
function tryon_button_points( float $points ): string {
	$rounded = round( $points, 1 );
	return ( $rounded > 0 ? '+' : ( $rounded < 0 ? '−' : '' ) ) . number_format_i18n( abs( $rounded ), 1 );
}

/** Conversion of one group, in percent, from its counts (the same whatever unit the proxy writes its rate in). */
function tryon_button_conversion( array $figures ): float {
	$exposed = (float) $figures['exposed'];
	return $exposed > 0 ? 100 * (float) $figures['ordering'] / $exposed : 0.0;
}

/**
 * The difference's interval in percentage points. `points` is documented in points; an answer
 * whose `points` matches the difference of the rates as a fraction is read as fractions, so a
 * proxy that writes 0.004 for 0.4 points is not shown as a hundredth of what it measured.
 */
function tryon_button_lift_interval( array $lift ): array {
	$difference = $lift['difference'];
	$points     = tryon_button_lift_number( $difference['points'] ?? null );
	$low        = tryon_button_lift_number( $difference['low'] ?? null );
	$high       = tryon_button_lift_number( $difference['high'] ?? null );
	if ( null === $points || null === $low || null === $high ) {
		return array();
	}
	$in_points = tryon_button_conversion( $lift['treatment'] ) - tryon_button_conversion( $lift['holdout'] );
	$scale     = abs( $points * 100 - $in_points ) < abs( $points - $in_points ) ? 100 : 1;
	$level     = tryon_button_lift_number( $difference['level'] ?? null );
	return array(
		'points' => $points * $scale,
		'low'    => $low * $scale,
		'high'   => $high * $scale,
		'level'  => null === $level ? 95.0 : 100 * $level,
	);
}

/** The lift section's HTML, escaped here; '' for an answer without `lift` (a proxy before it). */
function tryon_button_lift_html( $lift ): string {
	if ( null === $lift ) {
		return '';
	}
	$html = '<h3 id="tryon-button-lift-title">' . esc_html__( 'What the try-on earns, last 30 days', 'tryon-button' ) . '</h3>';
	if ( ! tryon_button_lift_shape_ok( $lift ) ) {
		return $html . '<p class="tryon-lift-problem">' . esc_html__( 'The proxy\'s lift report could not be read.', 'tryon-button' ) . '</p>';
	}
	$groups = array(
		'treatment' => __( 'With the try-on', 'tryon-button' ),
		'holdout'   => __( 'Without (the holdout)', 'tryon-button' ),
	);
	$html  .= '<table class="widefat striped tryon-lift"><caption>' . esc_html__( 'Shoppers who saw a try-on product, and who ordered', 'tryon-button' ) . '</caption>';
	$html  .= '<thead><tr><th scope="col">' . esc_html__( 'Group', 'tryon-button' ) . '</th><th scope="col">' . esc_html__( 'Shoppers', 'tryon-button' ) . '</th><th scope="col">' . esc_html__( 'Ordered', 'tryon-button' ) . '</th><th scope="col">' . esc_html__( 'Conversion', 'tryon-button' ) . '</th><th scope="col">' . esc_html__( 'Revenue per shopper', 'tryon-button' ) . '</th></tr></thead><tbody>';
	// The currency most orders were in (the proxy's `currency`), when it says.
	$currency = is_string( $lift['currency'] ?? null ) && 1 === preg_match( '/^[A-Z]{3}$/', $lift['currency'] ) ? $lift['currency'] : '';
	foreach ( $groups as $group => $label ) {
		$figures = $lift[ $group ];
		$revenue = tryon_button_lift_number( $figures['revenuePerExposed'] ?? null );
		$html   .= '<tr><th scope="row">' . esc_html( $label ) . '</th><td>' . esc_html( number_format_i18n( (float) $figures['exposed'] ) ) . '</td><td>' . esc_html( number_format_i18n( (float) $figures['ordering'] ) ) . '</td><td>' . esc_html( tryon_button_percent( tryon_button_conversion( $figures ) ) ) . '</td><td>' . esc_html( null === $revenue ? '–' : trim( number_format_i18n( $revenue, 2 ) . ' ' . $currency ) ) . '</td></tr>';
	}
	$html .= '</tbody></table>';

	if ( true !== $lift['enough'] ) {
		/* translators: 1: shoppers with the try-on, 2: shoppers without. */
		$html .= '<p class="tryon-lift-words tryon-lift-not-enough">' . esc_html( sprintf( __( 'Not yet enough data to say whether the try-on sells more (last 30 days: %1$s shoppers with the try-on, %2$s without). The report says more once more shoppers have ordered in both groups.', 'tryon-button' ), number_format_i18n( (float) $lift['treatment']['exposed'] ), number_format_i18n( (float) $lift['holdout']['exposed'] ) ) ) . '</p>';
	} else {
		$interval = tryon_button_lift_interval( $lift );
		$with     = tryon_button_percent( tryon_button_conversion( $lift['treatment'] ) );
		$without  = tryon_button_percent( tryon_button_conversion( $lift['holdout'] ) );
		if ( $interval ) {
			/* translators: 1: conversion with the try-on, 2: conversion without, 3: the interval's low end in points, 4: its high end, 5: the confidence level (95 %). */
			$words = sprintf( __( 'With the try-on, %1$s of shoppers ordered; without, %2$s; the difference is between %3$s and %4$s points, %5$s sure.', 'tryon-button' ), $with, $without, tryon_button_points( $interval['low'] ), tryon_button_points( $interval['high'] ), tryon_button_percent( $interval['level'], 0 ) );
			if ( $interval['low'] > 0 ) {
				$words .= ' ' . __( 'The try-on sells more.', 'tryon-button' );
			} elseif ( $interval['high'] < 0 ) {
				$words .= ' ' . __( 'Shoppers with the try-on order less.', 'tryon-button' );
			} else {
				$words .= ' ' . __( 'No clear difference yet: the interval includes zero.', 'tryon-button' );
			}
		} else {
			/* translators: 1: conversion with the try-on, 2: conversion without. */
			$words = sprintf( __( 'With the try-on, %1$s of shoppers ordered; without, %2$s.', 'tryon-button' ), $with, $without );
		}
		$html .= '<p class="tryon-lift-words">' . esc_html( $words ) . '</p>';
	}

	$returns = is_array( $lift['returns'] ?? null ) ? $lift['returns'] : array();
	$tried   = is_array( $returns['triedOn'] ?? null ) ? $returns['triedOn'] : array();
	$other   = is_array( $returns['other'] ?? null ) ? $returns['other'] : array();
	$tried_lines = (float) ( tryon_button_lift_number( $tried['lines'] ?? null ) ?? 0 );
	$other_lines = (float) ( tryon_button_lift_number( $other['lines'] ?? null ) ?? 0 );
	if ( $tried_lines > 0 && $other_lines > 0 ) {
		$rate = static function ( array $figures, float $lines ): string {
			return tryon_button_percent( 100 * (float) ( tryon_button_lift_number( $figures['refunded'] ?? null ) ?? 0 ) / $lines );
		};
		/* translators: 1: share of tried-on lines refunded, 2: tried-on lines, 3: share of the same products' other lines refunded, 4: those lines. */
		$html .= '<p class="tryon-lift-returns">' . esc_html( sprintf( __( 'Refunded: %1$s of %2$s tried-on lines, %3$s of %4$s other lines of the same products.', 'tryon-button' ), $rate( $tried, $tried_lines ), number_format_i18n( $tried_lines ), $rate( $other, $other_lines ), number_format_i18n( $other_lines ) ) ) . '</p>';
	}
	return $html;
}
