// The shop's HTML, server-rendered from template strings. No inline script anywhere: the pages
// run under `script-src 'self'`, as a careful shop would.
import { SAMPLE_PHOTO } from './images.js';
import { colourImage, colourOf, formatPrice, products, type Colour, type Product } from './products.js';
import catalog from './catalog.json' with { type: 'json' };

const SHOP_NAME = 'Kapda & Co.';

/** The shop's privacy page, linked from the try-on's consent step (`privacy-url`). */
export const PRIVACY_PATH = '/privacy';

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

interface LayoutOptions {
  title: string;
  /** the widget's script: left out on pages rendered with ?widget=off (a baseline for page-impact measurements) */
  widget: boolean;
  description?: string;
}

function layout(body: string, { title, widget, description }: LayoutOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${SHOP_NAME}</title>
<meta name="description" content="${escapeHtml(description ?? 'A demo shop for the <tryon-button> virtual try-on element.')}">
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="stylesheet" href="/shop/style.css">
<script type="module" src="/shop/page.js"></script>
${widget ? '<script type="module" src="/widget/tryon-button.js"></script>' : ''}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="masthead">
  <a class="brand" href="/"><span class="brand-mark" aria-hidden="true">K</span>${SHOP_NAME}</a>
  <nav aria-label="Shop">
    <a href="/">All products</a>
    <a href="/images/${SAMPLE_PHOTO}" download="sample-person.jpg">Sample photo</a>
    <span class="cart" aria-live="polite">Cart <span class="cart-count" data-cart-count>0</span></span>
  </nav>
</header>
<main id="main">
${body}
</main>
<footer class="footer">
  <p>${SHOP_NAME} is a demo shop. Try-ons here run against a local sandbox of the try-on API: no key, no cost, every render marked “sandbox”.</p>
  <p>No photo to hand? <a href="/images/${SAMPLE_PHOTO}" download="sample-person.jpg">Download a sample shopper photo</a> and choose it in the try-on.</p>
</footer>
</body>
</html>
`;
}

function badges(product: Product): string {
  return `<ul class="badges" aria-label="Try-on offers">${product.offers.map((offer) => `<li>${escapeHtml(offer)}</li>`).join('')}</ul>`;
}

/**
 * The pieces the try-on catalog pairs with a product (its `pairsWith`: "Complete the look" on a
 * result), linked to their own pages, so the shop names them where the shopper reads the product.
 */
function piecesOf(product: Product): string {
  const listed = (catalog.products as Record<string, { pairsWith?: string[] }>)[product.id]?.pairsWith ?? [];
  const pieces = listed.map((id) => products.find((each) => each.id === id)).filter((each) => each !== undefined);
  if (pieces.length === 0) return '';
  const links = pieces.map(
    (piece) =>
      `<a href="/products/${encodeURIComponent(piece.id)}">${escapeHtml(piece.name)}</a> (${formatPrice(piece.price)})`,
  );
  return `<p class="hint" data-pieces>Complete the look: ${links.join(', ')}. Try it on over your result.</p>`;
}

function card(product: Product): string {
  return `<li class="card">
  <a href="/products/${encodeURIComponent(product.id)}">
    <span class="card-photo"><img src="/images/${escapeHtml(product.image)}" alt="" width="600" height="800" loading="lazy"></span>
    <span class="card-name">${escapeHtml(product.name)}</span>
  </a>
  <span class="card-style">${escapeHtml(product.style)}</span>
  <span class="card-price">${formatPrice(product.price)}</span>
  ${badges(product)}
</li>`;
}

export function homePage(options: { widget: boolean }): string {
  const body = `<section class="hero">
  <div>
    <p class="eyebrow">Virtual try-on demo</p>
    <h1>See it on you before it ships.</h1>
    <p class="lede">Every product page carries one tag, <code>&lt;tryon-button&gt;</code>. Press “Try it on”, give your photo, and see yourself in a saree draped four ways, a bridal lehenga, a sherwani (with a twirl video) and more.</p>
    <p class="calls"><a class="button" href="/products/saree-bengali-haveli">Try the 4-view saree</a>
       <a class="button ghost" href="/images/${SAMPLE_PHOTO}" download="sample-person.jpg">Get a sample photo</a></p>
  </div>
</section>
<section aria-labelledby="range">
  <h2 id="range" class="section-title">The range</h2>
  <ul class="grid">
${products.map(card).join('\n')}
  </ul>
</section>`;
  return layout(body, { title: 'Try it on', widget: options.widget });
}

function tryonTag(product: Product, colour: Colour, holdout: string | undefined): string {
  const attributes = [
    `product="${escapeHtml(product.id)}"`,
    'endpoint="/tryon"',
    `variant="${escapeHtml(colour.id)}"`,
    `privacy-url="${PRIVACY_PATH}"`,
    // The result's "Add to cart" fires tryon-add-to-cart; the shop's script (page.ts) adds to its toy cart.
    'add-to-cart="event"',
  ];
  // ?holdout=0.1 runs the page as an experiment with a holdout (the widget validates the share).
  if (holdout !== undefined) attributes.push(`holdout="${escapeHtml(holdout)}"`);
  if (product.offers.includes('Video')) attributes.push('video');
  if (product.showcase) {
    // The showcase page also shows what analytics would receive: the button pushes to dataLayer.
    attributes.push('analytics="dataLayer"', 'class="themed"', 'data-event-log');
    return `<tryon-button ${attributes.join(' ')}>${escapeHtml(product.showcase.label)}</tryon-button>`;
  }
  return `<tryon-button ${attributes.join(' ')}></tryon-button>`;
}

function showcase(product: Product): string {
  if (!product.showcase) return '';
  return `<section class="integrator" aria-labelledby="integrator-title">
  <h2 id="integrator-title">For integrators: this page themes the button and listens to its events</h2>
  <p>The button above uses <code>--tryon-accent: ${escapeHtml(product.showcase.accent)}</code>, a pill shape through <code>::part(button)</code> and its own label, “${escapeHtml(product.showcase.label)}”, given as the element's content. The shop's script listens to <code>tryon-open</code>, <code>tryon-submit</code>, <code>tryon-progress</code>, <code>tryon-result</code>, <code>tryon-error</code> and <code>tryon-close</code>. With <code>analytics="dataLayer"</code> the button also pushes <code>tryon_open</code>, <code>tryon_submit</code>, <code>tryon_result</code>, <code>tryon_error</code> and <code>tryon_close</code> to <code>window.dataLayer</code> for Google Tag Manager; the log shows each push as <code>dataLayer</code>. Choosing a colour sets the button's <code>variant</code>.</p>
  <div class="cart-offer" data-cart-offer hidden>
    <p><strong>Looks good on you.</strong> Add the ${escapeHtml(product.name)} in your size?</p>
    <button type="button" class="button" data-add-look>Add this look to cart</button>
  </div>
  <h3 id="event-log-title">Event log</h3>
  <!-- A log (read politely as lines arrive) that takes focus, so arrow and page keys scroll it. -->
  <div class="event-log" role="log" tabindex="0" aria-labelledby="event-log-title" data-event-log-box>
    <ol data-event-log-list><li class="empty">No events yet: press “${escapeHtml(product.showcase.label)}”.</li></ol>
  </div>
</section>`;
}

/** The colours as one radio group: arrow keys move between them, and the choice sets the try-on's variant. */
function colourChoices(product: Product, chosen: Colour): string {
  const choices = product.colours
    .map(
      (colour) => `<label class="colour-choice">
      <input type="radio" name="colour" value="${escapeHtml(colour.id)}" data-image="/images/${escapeHtml(colourImage(product, colour))}" data-alt="${escapeHtml(`${product.name}, ${colour.name}`)}"${colour.id === chosen.id ? ' checked' : ''}>
      <span class="swatch" style="background:${escapeHtml(colour.hex)}" aria-hidden="true"></span>
      <span class="colour-name">${escapeHtml(colour.name)}</span>
    </label>`,
    )
    .join('\n    ');
  return `<fieldset class="colours" data-colours>
    <legend class="label">Colour</legend>
    ${choices}
  </fieldset>`;
}

export function productPage(
  product: Product,
  options: { widget: boolean; variant?: string | undefined; holdout?: string | undefined },
): string {
  const colour = colourOf(product, options.variant);
  const body = `<nav class="crumbs" aria-label="Breadcrumb"><a href="/">All products</a> <span aria-hidden="true">/</span> <span aria-current="page">${escapeHtml(product.name)}</span></nav>
<article class="product">
  <figure class="product-photo">
    <img src="/images/${escapeHtml(colourImage(product, colour))}" alt="${escapeHtml(`${product.name}, ${colour.name}`)}" width="600" height="800" data-product-photo>
  </figure>
  <div class="product-info">
    <p class="eyebrow">${escapeHtml(product.style)}</p>
    <h1>${escapeHtml(product.name)}</h1>
    <p class="price">${formatPrice(product.price)} <span class="tax">incl. taxes</span></p>
    ${colourChoices(product, colour)}
    <div class="actions">
      <button type="button" class="button" data-add-to-cart>Add to cart</button>
      ${options.widget ? tryonTag(product, colour, options.holdout) : ''}
    </div>
    <p class="description">${escapeHtml(product.description)}</p>
    ${badges(product)}
    ${piecesOf(product)}
    <p class="hint">No photo to hand? <a href="/images/${SAMPLE_PHOTO}" download="sample-person.jpg">Download a sample shopper photo</a>, then choose it in the try-on.</p>
  </div>
</article>
${showcase(product)}`;
  return layout(body, { title: product.name, widget: options.widget, description: product.description });
}

export function notFoundPage(): string {
  return layout(
    `<section class="hero"><div><h1>Not found</h1><p class="lede">We have no such product. <a href="/">See the whole range</a>.</p></div></section>`,
    {
      title: 'Not found',
      widget: false,
    },
  );
}

/** What the shop does with a try-on photo: the page the consent step's "How we handle your photo" opens. */
export function privacyPage(): string {
  const body = `<section class="prose" aria-labelledby="privacy-title">
  <h1 id="privacy-title">How we handle your photo</h1>
  <p>When you use “Try it on”, your photo goes from your browser to our try-on service only after you agree to it, and only to make that try-on. Before it leaves your browser, the photo is turned upright, made smaller and saved again without its hidden details (camera, date, place).</p>
  <p>The try-on service keeps your photo for a limited time, and your try-on a little longer; the try-on tells you both times before you agree. “Forget my photo” deletes them sooner.</p>
  <p>Nothing else is kept: no account, no name. This demo shop runs against a local sandbox, so here your photo never leaves this computer.</p>
  <p><a href="/">Back to the shop</a></p>
</section>`;
  return layout(body, { title: 'How we handle your photo', widget: false });
}
