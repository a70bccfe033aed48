<?php
/**
 * One template for every page: each post in a div with its post classes (a product's is
 * "product", as WooCommerce's templates have it), its content, then the footer's scripts.
 */
?><!doctype html>
<html <?php language_attributes(); ?>>
<head>
<meta charset="<?php bloginfo( 'charset' ); ?>">
<?php wp_head(); ?>
</head>
<body <?php body_class(); ?>>
<main>
<?php
while ( have_posts() ) {
	the_post();
	echo '<div id="post-' . esc_attr( (string) get_the_ID() ) . '" class="' . esc_attr( implode( ' ', get_post_class() ) ) . '">';
	echo '<h1>' . esc_html( get_the_title() ) . '</h1>';
	the_content();
	echo '</div>';
}
?>
</main>
<?php wp_footer(); ?>
</body>
</html>
