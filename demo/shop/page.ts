// The shop's own script (served as /shop/page.js): a toy cart, and on the showcase page what an
// integrator would write: listen to the widget's events, log them, and offer "add to cart" once
// the shopper has seen a result. A separate file because the pages allow no inline script.

export {}; // a module: its names stay out of the global scope

const CART_KEY = 'kapda-cart-count';
const WIDGET_EVENTS = ['tryon-open', 'tryon-submit', 'tryon-progress', 'tryon-result', 'tryon-error', 'tryon-close'] as const;

function cartCount(): number {
  return Number(sessionStorage.getItem(CART_KEY) ?? '0') || 0;
}

function showCart(): void {
  for (const badge of document.querySelectorAll<HTMLElement>('[data-cart-count]')) badge.textContent = String(cartCount());
}

function addToCart(): void {
  sessionStorage.setItem(CART_KEY, String(cartCount() + 1));
  showCart();
}

/** A short, readable line for an event's detail: handles and URLs are long, so they are clipped. */
function describe(detail: unknown): string {
  if (detail === null || detail === undefined) return '';
  try {
    const text = JSON.stringify(detail, (_key, value: unknown) =>
      typeof value === 'string' && value.length > 28 ? `${value.slice(0, 18)}…` : value);
    return text.length > 160 ? `${text.slice(0, 157)}…` : text;
  } catch {
    return String(detail);
  }
}

function watchWidget(widget: Element): void {
  const log = document.querySelector<HTMLOListElement>('[data-event-log-list]');
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
      if (log) {
        log.querySelector('.empty')?.remove();
        const item = document.createElement('li');
        const time = document.createElement('time');
        time.textContent = new Date().toLocaleTimeString();
        const label = document.createElement('code');
        label.textContent = name;
        item.append(time, ' ', label, detail ? ` ${detail}` : '');
        item.dataset.event = name;
        log.append(item);
        log.scrollTop = log.scrollHeight;
      }
      if (name === 'tryon-result' && offer) offer.hidden = false;
    });
  }
}

function start(): void {
  showCart();
  for (const button of document.querySelectorAll('[data-add-to-cart]')) button.addEventListener('click', addToCart);
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-add-look]')) {
    button.addEventListener('click', () => {
      addToCart();
      button.textContent = 'Added to cart';
      button.disabled = true;
    });
  }
  for (const widget of document.querySelectorAll('tryon-button[data-event-log]')) watchWidget(widget);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
