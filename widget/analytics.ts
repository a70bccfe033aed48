// Conversion events for the analytics a shop already has: the element's own events, renamed and
// reduced to a few GA4-style parameters, sent to Shopify's customer events and/or Google Tag
// Manager's dataLayer. Opt-in (the `analytics` attribute), and only what is listed here ever
// leaves: never the photo, a handle, a requestId or a URL. Tiny on purpose: it ships in the
// first script so no event can fire before it listens.
import type { TryonEventMap, TryonStatus } from './events.js';

/** The parameters of one conversion event; absent keys are not sent at all. */
export interface ConversionParams {
  product: string;
  variant?: string;
  views?: string;
  output?: 'image' | 'video';
  outcome?: 'result' | 'error' | 'closed';
  error_code?: string;
  duration_ms?: number;
}

export type ConversionName = 'tryon_open' | 'tryon_submit' | 'tryon_result' | 'tryon_error' | 'tryon_close';

interface ShopifyAnalytics { analytics?: { publish?: (name: string, params: ConversionParams) => unknown } }

declare global {
  interface Window {
    Shopify?: ShopifyAnalytics;
    dataLayer?: unknown[];
  }
}

/** How a closed dialog ended, from the step it was on. */
const outcomeOf = (status: TryonStatus): ConversionParams['outcome'] =>
  status === 'result' ? 'result' : status === 'error' ? 'error' : 'closed';

/**
 * Forwards `element`'s events to the destinations named in `destinations` (space-separated:
 * `shopify`, `dataLayer`; case does not matter, others are ignored). Returns the function that
 * stops it. With no known destination nothing listens at all.
 */
export function forwardConversions(element: HTMLElement, destinations: string | null): () => void {
  // A removed attribute reads null.
  const to = new Set((destinations ?? '').toLowerCase().split(/\s+/));
  const shopify = to.has('shopify');
  const dataLayer = to.has('datalayer');
  if (!shopify && !dataLayer) return () => undefined;

  let openedAt = 0;
  let submit: { at: number; requestId: string; views: string; output: 'image' | 'video' } | undefined;
  const since = (at: number) => Math.max(0, Math.round(performance.now() - at));

  const send = (name: ConversionName, params: ConversionParams) => {
    // Looked up at each event: Shopify's and GTM's scripts may load after the widget.
    if (shopify) window.Shopify?.analytics?.publish?.(name, params);
    if (dataLayer) (window.dataLayer ||= []).push({ event: name, ...params });
  };

  const listeners: { [K in keyof TryonEventMap]?: (event: TryonEventMap[K]) => void } = {
    'tryon-open': ({ detail }) => {
      openedAt = performance.now();
      send('tryon_open', subject(detail));
    },
    'tryon-submit': ({ detail }) => {
      submit = { at: performance.now(), requestId: detail.requestId, views: detail.views.join(','), output: detail.output };
      send('tryon_submit', { ...subject(detail), views: submit.views, output: submit.output });
    },
    'tryon-result': ({ detail }) => {
      // A try-on resumed after a reload was submitted on the page before: its views come from its outputs.
      const made = submit?.requestId === detail.requestId ? submit : undefined;
      const views = made?.views ?? [...new Set(detail.outputs.filter((o) => o.type === 'image').map((o) => o.view))].join(',');
      const output = made?.output ?? (detail.outputs.some((o) => o.type === 'video') ? 'video' : 'image');
      send('tryon_result', {
        ...subject(detail), views, output, outcome: 'result', ...(made ? { duration_ms: since(made.at) } : {}),
      });
      submit = undefined;
    },
    'tryon-error': ({ detail }) => {
      send('tryon_error', {
        ...subject(detail), outcome: 'error', error_code: detail.code, ...(submit ? { duration_ms: since(submit.at) } : {}),
      });
    },
    'tryon-close': ({ detail }) => {
      send('tryon_close', { ...subject(detail), outcome: outcomeOf(detail.status), duration_ms: since(openedAt) });
      submit = undefined;
    },
  };
  const entries = Object.entries(listeners) as [string, EventListener][];
  // Only the element's own events: a page may nest other widgets that use the same names.
  const own = new Map(entries.map(([type, listener]) => [type, (event: Event) => {
    if (event.target === element) listener(event);
  }]));
  for (const [type, listener] of own) element.addEventListener(type, listener);
  return () => {
    for (const [type, listener] of own) element.removeEventListener(type, listener);
  };
}

/** The product and variant, copied by name so nothing else of a detail can slip through. */
function subject(detail: { product: string; variant?: string }): ConversionParams {
  return { product: detail.product, ...(detail.variant ? { variant: detail.variant } : {}) };
}
