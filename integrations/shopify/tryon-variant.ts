// The theme block's variant follower, built into the extension as assets/tryon-variant.js: when
// the shopper picks another colour or size in the theme's own variant picker, every try-on button
// of that product gets the new `variant` attribute, and the widget does the rest ("Try this
// colour"). Themes announce a variant change in different ways, so it listens to all the common
// ones; a variant id that is not among a button's data-variant-ids (a quick view of another
// product on the same page) leaves that button alone.

/** Events that themes dispatch with the selected variant in `detail`, and where they put it. */
const VARIANT_EVENTS: Record<string, (detail: unknown) => unknown> = {
  // Archetype (Impulse, Motion…), Maestrooo (Impact, Prestige…): detail.variant.
  'variant:change': (detail) => field(field(detail, 'variant'), 'id'),
  // Clean Canvas (Symmetry, Showcase, Canopy…): detail.variant.
  'on:variant:change': (detail) => field(field(detail, 'variant'), 'id'),
  // Pipeline, Broadcast and others of that family: detail.variant.
  'theme:variant:change': (detail) => field(field(detail, 'variant'), 'id'),
  // Horizon, Shopify's current reference theme: detail.resource is the variant.
  'variant:update': (detail) => field(field(detail, 'resource'), 'id'),
};

/** The widget's rule for a variant id (the shop's own ids: Shopify's are numbers). */
const VARIANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function variantIdOf(value: unknown): string | undefined {
  const id = typeof value === 'number' ? String(value) : value;
  return typeof id === 'string' && VARIANT_ID.test(id) ? id : undefined;
}

function follow(value: unknown): void {
  const id = variantIdOf(value);
  if (!id) return;
  for (const button of document.querySelectorAll<HTMLElement>('tryon-button[data-variant-ids]')) {
    const ids = (button.dataset.variantIds ?? '').split(' ');
    if (ids.includes(id) && button.getAttribute('variant') !== id) button.setAttribute('variant', id);
  }
}

/** The variant in the address, which themes rewrite (history.replaceState) without an event. */
function variantInAddress(): string | null {
  return new URLSearchParams(location.search).get('variant');
}

// The address is only a fallback: it is followed when it changes, so a theme that never updates
// it cannot undo a change announced by an event or the product form.
let lastAddressVariant = variantInAddress();

function followAddress(): void {
  const id = variantInAddress();
  if (id === lastAddressVariant) return;
  lastAddressVariant = id;
  follow(id);
}

// Capture on the document: it also sees events dispatched without bubbles on the picker itself.
for (const [name, variantOf] of Object.entries(VARIANT_EVENTS)) {
  document.addEventListener(name, (event) => follow(variantOf((event as CustomEvent<unknown>).detail)), true);
}

document.addEventListener(
  'change',
  (event) => {
    // Every product form has a field named "id" holding the selected variant; Dawn-family themes
    // set it and dispatch change, simpler themes let the shopper change a <select name="id">.
    const target = event.target;
    if (
      (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) &&
      target.name === 'id' &&
      target.form
    ) {
      follow(target.value);
    }
    // Themes that only rewrite the address do it in their own change handlers: look once they ran.
    setTimeout(followAddress, 0);
  },
  true,
);

addEventListener('popstate', followAddress);

export {};
