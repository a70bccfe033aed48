// Whether the proxy says a product can be tried on today (GET /products/{id}: `available` and
// `unavailableReason`), read one way by the button before it shows and by the run each time the
// dialog opens.

/** Why a product cannot be tried on now; empty while it can. */
export type Unavailable = '' | 'disabled' | 'daily_budget_reached';

/** An older proxy sends no `available`: that is available. */
export const unavailableReasonOf = (answer: { available?: boolean; unavailableReason?: string }): Unavailable =>
  answer.available === false ? (answer.unavailableReason === 'disabled' ? 'disabled' : 'daily_budget_reached') : '';

/** The proxy's address for an endpoint, relative to the page and ending in `/`, so routes resolve under it. */
export function proxyBase(endpoint: string): URL {
  const base = new URL(endpoint || '/tryon', location.href);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return base;
}
