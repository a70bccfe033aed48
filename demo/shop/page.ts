// The shop's own script (served as /shop/page.js): a toy cart, the colour choice (which sets the
// try-on's variant and the product picture), and on the showcase page what an integrator would
// write: listen to the widget's events, log them beside what analytics would receive (dataLayer
// pushes), and offer "add to cart" once the shopper has seen a result. A separate file because
// the pages allow no inline script.

export {}; // a module: its names stay out of the global scope

/** The toy cart: its lines (a product and its colour), kept for the tab. */
const CART_KEY = 'kapda-cart';
const WIDGET_EVENTS = [
  'tryon-open',
  'tryon-submit',
  'tryon-progress',
  'tryon-result',
  'tryon-error',
  'tryon-close',
  'tryon-add-to-cart',
  'tryon-outfit',
  'tryon-exposure',
] as const;

interface CartLine {
  product: string;
  variant?: string;
}

function cartLines(): CartLine[] {
  try {
    const lines: unknown = JSON.parse(sessionStorage.getItem(CART_KEY) ?? '[]');
    return Array.isArray(lines) ? (lines as CartLine[]) : [];
  } catch {
    return [];
  }
}

function showCart(): void {
  const lines = cartLines();
  for (const badge of document.querySelectorAll<HTMLElement>('[data-cart-count]')) {
    badge.textContent = String(lines.length);
    // What is in it, for whoever asks (a tooltip; the end-to-end tests read it).
    badge.title = lines.map((line) => (line.variant ? `${line.product} (${line.variant})` : line.product)).join(', ');
  }
}

/** Adds lines to the toy cart: the page's own button adds the product shown, the widget's every line it names. */
function addToCart(lines: CartLine[] = [pageLine()]): void {
  sessionStorage.setItem(CART_KEY, JSON.stringify([...cartLines(), ...lines]));
  showCart();
}

/** The product on this page in the colour chosen. */
function pageLine(): CartLine {
  const widget = document.querySelector('tryon-button');
  const product = widget?.getAttribute('product') ?? location.pathname.split('/').pop() ?? '';
  const variant = widget?.getAttribute('variant') ?? undefined;
  return variant ? { product, variant } : { product };
}

/** A short, readable line for an event's detail: handles and URLs are long, so they are clipped. */
function describe(detail: unknown): string {
  if (detail === null || detail === undefined) return '';
  try {
    const text = JSON.stringify(detail, (_key, value: unknown) =>
      typeof value === 'string' && value.length > 28 ? `${value.slice(0, 18)}…` : value,
    );
    return text.length > 160 ? `${text.slice(0, 157)}…` : text;
  } catch {
    return String(detail);
  }
}

/** One line in the showcase page's event log. */
function logLine(kind: string, label: string, detail: string): void {
  const log = document.querySelector<HTMLOListElement>('[data-event-log-list]');
  if (!log) return;
  log.querySelector('.empty')?.remove();
  const item = document.createElement('li');
  const time = document.createElement('time');
  time.textContent = new Date().toLocaleTimeString();
  const name = document.createElement('code');
  name.textContent = label;
  item.append(time, ' ', name, detail ? ` ${detail}` : '');
  item.dataset[kind] = label;
  log.append(item);
  // The box around the list scrolls (and takes focus for keyboard scrolling): keep the newest line in view.
  const box = log.closest<HTMLElement>('[data-event-log-box]') ?? log;
  box.scrollTop = box.scrollHeight;
}

function watchWidget(widget: Element): void {
  const offer = document.querySelector<HTMLElement>('[data-cart-offer]');
  let lastProgress = '';
  for (const name of WIDGET_EVENTS) {
    widget.addEventListener(name, (event) => {
      const detail = describe((event as CustomEvent).detail);
      // Progress fires often; log a line only when its content changes.
      if (name === 'tryon-progress') {
        if (detail === lastProgress) return;
        lastProgress = detail;
      }
      logLine('event', name, detail);
      if (name === 'tryon-result' && offer) offer.hidden = false;
    });
  }
}

type DataLayer = Record<string, unknown>[];

/**
 * Shows each `window.dataLayer` push in the log, as Google Tag Manager would receive it. Set up
 * before the widget runs (this script comes first), so the button's own pushes pass through here.
 */
function watchDataLayer(): void {
  const holder = window as unknown as { dataLayer?: DataLayer };
  const layer = (holder.dataLayer ??= []);
  const push = layer.push.bind(layer);
  layer.push = (...items: Record<string, unknown>[]) => {
    for (const item of items) {
      const { event, ...params } = item;
      logLine('analytics', `dataLayer ${String(event)}`, describe(params));
    }
    return push(...items);
  };
}

/** Choosing a colour shows its picture and makes it the try-on's variant. */
function watchColours(): void {
  const photo = document.querySelector<HTMLImageElement>('[data-product-photo]');
  for (const input of document.querySelectorAll<HTMLInputElement>('[data-colours] input[name="colour"]')) {
    input.addEventListener('change', () => {
      if (!input.checked) return;
      if (photo && input.dataset.image) {
        photo.src = input.dataset.image;
        photo.alt = input.dataset.alt ?? photo.alt;
      }
      for (const widget of document.querySelectorAll('tryon-button')) widget.setAttribute('variant', input.value);
    });
  }
}

/**
 * The widget's "Add to cart" (add-to-cart="event"): this shop's cart is the toy one above, so its
 * script adds every line the widget names (the product tried on, or each piece of an outfit with its
 * colour), and hands the widget that work (`waitUntil`) so the result step says "Added to cart" only
 * once it is in. Bound on the document: every button on the page.
 */
function takeWidgetAdds(): void {
  document.addEventListener('tryon-add-to-cart', (event) => {
    const detail = (event as CustomEvent<{ lines: CartLine[]; waitUntil(work: Promise<unknown>): void }>).detail;
    const lines = detail.lines.map(({ product, variant }) => (variant ? { product, variant } : { product }));
    detail.waitUntil(Promise.resolve().then(() => addToCart(lines)));
  });
}

function start(): void {
  showCart();
  takeWidgetAdds();
  for (const button of document.querySelectorAll('[data-add-to-cart]'))
    button.addEventListener('click', () => addToCart());
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-add-look]')) {
    button.addEventListener('click', () => {
      addToCart();
      button.textContent = 'Added to cart';
      button.disabled = true;
    });
  }
  watchColours();
  for (const widget of document.querySelectorAll('tryon-button[data-event-log]')) watchWidget(widget);
}

// At once: this module runs after the page is parsed and before the widget's, so the log sees
// the widget's first push.
if (document.querySelector('[data-event-log-list]')) watchDataLayer();

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
