// Conversion events for the analytics a shop already has: the element's own events, renamed and
// reduced to a few GA4-style parameters, sent to Shopify's customer events and/or Google Tag
// Manager's dataLayer. Opt-in (the `analytics` attribute), and only what is listed here ever
// leaves: never the photo, a handle, a requestId or a URL. It lives in the panel's chunk: every
// event comes from the panel, and a page without analytics pays nothing in its first script.
import type { TryonEventMap, TryonStatus } from '../core/events.js';
import type { PanelHost } from '../core/panel-host.js';

/** The parameters of one conversion event; absent keys are not sent at all. */
export interface ConversionParams {
  product: string;
  variant?: string;
  views?: string;
  output?: 'image' | 'video';
  outcome?: 'result' | 'error' | 'closed' | 'background';
  error_code?: string;
  duration_ms?: number;
  /** tryon_exposure: this browser's group, and the share held out on the page. */
  group?: 'treatment' | 'holdout';
  holdout?: number;
  /** tryon_add_to_cart: how it was added (`shopify`, `woocommerce`, `event`). */
  cart?: 'shopify' | 'woocommerce' | 'event';
  /** tryon_photo_check: the verdict, its reason codes (comma-separated), the mode, and whether the shopper went on anyway. */
  result?: 'pass' | 'fail' | 'skipped' | 'unavailable';
  reasons?: string;
  mode?: 'warn' | 'strict' | 'off';
  overridden?: boolean;
  /** tryon_fidelity: the check's verdict, and the largest colour difference (CIEDE2000) of the views checked. */
  verdict?: 'true' | 'differs' | 'unchecked';
  delta_e?: number;
  /** tryon_outfit_piece: how many pieces the outfit has with this one, the base counted. */
  pieces?: number;
}

export type ConversionName =
  | 'tryon_open'
  | 'tryon_submit'
  | 'tryon_preview'
  | 'tryon_result'
  | 'tryon_error'
  | 'tryon_close'
  | 'tryon_add_to_cart'
  | 'tryon_exposure'
  | 'tryon_photo_check'
  | 'tryon_fidelity'
  | 'tryon_outfit_piece';

/**
 * The two globals read here, typed locally: augmenting `Window` would clash with a shop's own
 * declarations of them (GTM's and Shopify's typings declare them differently).
 */
interface AnalyticsGlobals {
  Shopify?: { analytics?: { publish?: (name: string, params: ConversionParams) => unknown } };
  dataLayer?: unknown;
}

/** Said once a page: a page that made `dataLayer` something else keeps it, and the try-on goes on. */
let toldDataLayer = false;
function sayNotADataLayer(value: unknown): void {
  if (toldDataLayer) return;
  toldDataLayer = true;
  console.error(
    `<tryon-button>: window.dataLayer is ${value === null ? 'null' : typeof value}, not an array, so no conversion events are pushed to it ` +
      '(analytics="dataLayer"). Leave dataLayer to Google Tag Manager, or drop dataLayer from the analytics attribute.',
  );
}

/**
 * Hands an event to the page's own analytics script. Those scripts are the shop's, not ours (GTM
 * wraps `dataLayer.push`, apps wrap Shopify's publish): one that throws must not end a shopper's
 * try-on, so the throw is said in the console, once per destination a page, and the try-on goes on.
 */
const toldThrow = new Set<string>();
function hand(destination: string, send: () => unknown): void {
  try {
    send();
  } catch (error) {
    if (toldThrow.has(destination)) return;
    toldThrow.add(destination);
    console.error(
      `<tryon-button>: ${destination} threw, so this conversion event was not recorded there: ${String(error)}`,
    );
  }
}

/**
 * How a closed dialog ended, from the step it was on. Closed while the try-on was queued or
 * rendering, it was already sent (and charged): it is watched on in the background, and its
 * `tryon_result` or `tryon_error` follows, so that close is "background", not "closed".
 */
const outcomeOf = (status: TryonStatus): ConversionParams['outcome'] =>
  status === 'result'
    ? 'result'
    : status === 'error'
      ? 'error'
      : status === 'queued' || status === 'rendering'
        ? 'background'
        : 'closed';

/**
 * Sends the element's events, as conversion events, to the destinations the page named in its
 * `analytics` attribute (space-separated: `shopify`, `dataLayer`; case does not matter, others are
 * ignored), read afresh at each event so the page may change it at any time. The panel hands it
 * every event it dispatches: the panel is the only source of them, so nothing is missed and the
 * first script carries none of this.
 */
export class Conversions {
  /** Where the element's `analytics` attribute is read, at each event (its host is set after the dialog is made). */
  readonly #context: { readonly host?: Pick<PanelHost, 'analytics'> | undefined };
  #openedAt = 0;
  #submit: { at: number; requestId: string; views: string; output: 'image' | 'video' } | undefined;

  constructor(context: { readonly host?: Pick<PanelHost, 'analytics'> | undefined }) {
    this.#context = context;
  }

  record<K extends keyof TryonEventMap>(type: K, detail: TryonEventMap[K]['detail']): void {
    const now = performance.now();
    const since = (at: number) => Math.max(0, Math.round(now - at));
    // Timing is kept whether or not anything is sent, so an attribute set mid-run still measures right.
    switch (type) {
      case 'tryon-open': {
        this.#openedAt = now;
        this.#send('tryon_open', subject(detail));
        break;
      }
      case 'tryon-submit': {
        const { requestId, views, output } = detail as TryonEventMap['tryon-submit']['detail'];
        this.#submit = { at: now, requestId, views: views.join(','), output };
        this.#send('tryon_submit', { ...subject(detail), views: this.#submit.views, output });
        break;
      }
      case 'tryon-result': {
        const { requestId, outputs } = detail as TryonEventMap['tryon-result']['detail'];
        // A try-on resumed after a reload was submitted on the page before: its views come from its outputs.
        const made = this.#submit?.requestId === requestId ? this.#submit : undefined;
        const views =
          made?.views ?? [...new Set(outputs.filter((o) => o.type === 'image').map((o) => o.view))].join(',');
        const output = made?.output ?? (outputs.some((o) => o.type === 'video') ? 'video' : 'image');
        this.#send('tryon_result', {
          ...subject(detail),
          views,
          output,
          outcome: 'result',
          ...(made ? { duration_ms: since(made.at) } : {}),
        });
        this.#submit = undefined;
        break;
      }
      case 'tryon-error': {
        const { code } = detail as TryonEventMap['tryon-error']['detail'];
        const submit = this.#submit;
        this.#send('tryon_error', {
          ...subject(detail),
          outcome: 'error',
          error_code: code,
          ...(submit ? { duration_ms: since(submit.at) } : {}),
        });
        break;
      }
      case 'tryon-preview': {
        // The first look: how long the shopper waited to see themselves, from the submit.
        const { ms } = detail as TryonEventMap['tryon-preview']['detail'];
        this.#send('tryon_preview', { ...subject(detail), duration_ms: Math.max(0, Math.round(ms)) });
        break;
      }
      case 'tryon-close': {
        const { status } = detail as TryonEventMap['tryon-close']['detail'];
        const outcome = outcomeOf(status);
        this.#send('tryon_close', { ...subject(detail), outcome, duration_ms: since(this.#openedAt) });
        // A try-on going on in the background keeps its submit: its result is still timed from it.
        if (outcome !== 'background') this.#submit = undefined;
        break;
      }
      case 'tryon-photo-check': {
        // A refused photo is a credit the shop did not spend: counted with its reasons. With the
        // check off (`skipped`) there is nothing to count, and a page's reports stay as they were.
        const { result, reasons, mode, overridden, ms } = detail as TryonEventMap['tryon-photo-check']['detail'];
        if (result === 'skipped') break;
        this.#send('tryon_photo_check', {
          ...subject(detail),
          result,
          reasons: reasons.join(','),
          mode,
          ...(overridden ? { overridden } : {}),
          ...(ms !== undefined ? { duration_ms: Math.round(ms) } : {}),
        });
        break;
      }
      case 'tryon-fidelity': {
        // How often a shopper is told the colours may differ, by product and variant: the merchant's fix list.
        const { verdict, views } = detail as TryonEventMap['tryon-fidelity']['detail'];
        const deltaE = Math.max(...views.map((v) => v.colour?.deltaE).filter(Number.isFinite));
        this.#send('tryon_fidelity', {
          ...subject(detail),
          verdict,
          views: views.map((v) => v.view).join(','),
          ...(verdict !== 'unchecked' && deltaE >= 0 ? { delta_e: Math.round(deltaE * 10) / 10 } : {}),
        });
        break;
      }
      default:
      // tryon-progress is not a conversion; tryon-outfit's piece added is sent by the look (outfit/look.ts).
    }
  }

  /** The variant tried on is in the shop's cart (after the add succeeded, not when pressed). */
  addedToCart(what: { product: string; variant?: string }, cart: NonNullable<ConversionParams['cart']>): void {
    this.#send('tryon_add_to_cart', { ...subject(what), cart });
  }

  #send(name: ConversionName, params: ConversionParams): void {
    sendConversion(this.#context.host?.analytics, name, params);
  }
}

/**
 * Sends one conversion event to the destinations named (the `analytics` attribute's value). Also
 * used by the button itself, for `tryon_exposure`, which happens whether or not the panel loads.
 */
export function sendConversion(
  destinations: string | null | undefined,
  name: ConversionName,
  params: ConversionParams,
): void {
  const to = new Set((destinations ?? '').toLowerCase().split(/\s+/));
  // Looked up at each event: Shopify's and GTM's scripts may load after the widget.
  const page = window as AnalyticsGlobals;
  if (to.has('shopify')) hand('Shopify.analytics.publish', () => page.Shopify?.analytics?.publish?.(name, params));
  if (to.has('datalayer')) {
    page.dataLayer ??= [];
    const layer = page.dataLayer;
    if (Array.isArray(layer)) hand('dataLayer.push', () => layer.push({ event: name, ...params }));
    else sayNotADataLayer(layer);
  }
}

/** The product and variant, copied by name so nothing else of a detail can slip through. */
function subject(detail: { product: string; variant?: string }): ConversionParams {
  return { product: detail.product, ...(detail.variant ? { variant: detail.variant } : {}) };
}
