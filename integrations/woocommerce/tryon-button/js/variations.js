/**
 * Variable products: the try-on follows the variation the shopper picks. WooCommerce's variations
 * form announces a complete choice with the jQuery event found_variation (with the variation) and
 * a cleared one with reset_data; the product's buttons then carry the variation's id as their
 * `variant` (the proxy's catalog lists the variations it knows by these ids).
 *
 * The handlers are bound as soon as this runs, not on DOM ready: WooCommerce announces a
 * preselected variation from its own ready handler.
 */
(function ($) {
  'use strict';

  function buttonsOf(form) {
    var product = form.closest('.product') || form;
    return Array.prototype.slice.call(product.querySelectorAll('tryon-button'));
  }

  $(document)
    .on('found_variation', 'form.variations_form', function (event, variation) {
      var id = variation && variation.variation_id ? String(variation.variation_id) : '';
      buttonsOf(this).forEach(function (button) {
        if (id) {
          button.setAttribute('variant', id);
        } else {
          button.removeAttribute('variant');
        }
      });
    })
    .on('reset_data', 'form.variations_form', function () {
      buttonsOf(this).forEach(function (button) {
        button.removeAttribute('variant');
      });
    });
})(jQuery);
