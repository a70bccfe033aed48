// The try-on's mark on a cart line, so that an order says which of its lines were tried on:
// Shopify's line item property `_tryon` (the underscore hides it from the shopper in Shopify's cart
// and checkout), WooCommerce's cart item data (`tryon`, posted with the add; the plugin keeps it as
// the order line's `_tryon`). The value is the catalog product tried on. The cart's own marks (group
// and browser id) are measuring's (analytics/measurement.ts), since the holdout marks them too.

/** The line item properties of a tried-on line on Shopify. */
export function shopifyLineProperties(tryon: string | undefined): { properties?: { _tryon: string } } {
  return tryon ? { properties: { _tryon: tryon } } : {};
}

/** The fields a WooCommerce add posts for a tried-on line (the plugin reads `tryon`). */
export function wooCommerceLineFields(tryon: string | undefined): Record<string, string> {
  return tryon ? { tryon } : {};
}
