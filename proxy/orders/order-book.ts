// The order book: what the lift report (lift.ts) is made of, per UTC day, kept in the store
// (memory: one process; Redis and Durable Objects: every instance, across restarts:
// order-book-memory.ts, -redis.ts, -durable.ts). It holds no name, address, e-mail or order
// number: orders, refunds, deliveries and browsers are known only by keyed hashes (orders-in.ts
// makes them), and an order's lines only by product, quantity and whether they were tried on.
//
// A day is flat counters (the same increment in memory, in a Redis hash and in a SQLite row) and
// two sets of browser hashes per group: the browsers exposed that day and the browsers that
// ordered. A window's browsers are the union of its days' sets, so a browser counts once however
// many days it came back. Counter names:
//   `xn:<group>`  exposures without a browser id (each counted, an overcount the shop avoids by allowing measurement)
//   `on:<group>`  orders without a browser id (each counted as one ordering browser)
//   `o:<group>`   orders (group `none` for an order with no try-on group)
//   `ot:<group>`  orders with at least one tried-on line
//   `r:<group>:<currency>`, `oc:<currency>`  revenue by group and currency; orders by currency
//   `l:t:<product>`, `l:o:<product>`  units ordered on tried-on lines and on other lines
//   `f:t:<product>`, `f:o:<product>`  units refunded on them, counted on the order's day

/** The two arms of the holdout the widget draws per browser. */
export const GROUPS = ['treatment', 'holdout'] as const;
export type Group = (typeof GROUPS)[number];

/** How many days the book keeps, and so the longest window /usage?window=N may ask for. */
export const ORDER_DAYS = 90;
const DAY_MS = 86_400_000;

/** How long a delivery's id is remembered, so a redelivery or a replay is counted once (Shopify retries for 48 hours). */
export const DELIVERY_KEEP_MS = 3 * DAY_MS;
/** How long an order's entry is kept: as long as its day, so a refund within the window pairs with it. */
export const ORDER_KEEP_MS = ORDER_DAYS * DAY_MS;

export type OrderCounters = Record<string, number>;

/** One line of an order as the book keeps it: product, units, tried on (1) or not (0), units refunded. */
export type EntryLine = [product: string, quantity: number, triedOn: 0 | 1, refunded: number];

/** What the book keeps of an order: its day and its lines by hashed line key. */
export interface OrderEntry {
  d: string;
  l: Record<string, EntryLine>;
}

/** A counted order: its increments on its day, its browser for its group's set, its entry. */
export interface OrderWrite {
  /** The delivery's id (the webhook's), hashed or prefixed by source. */
  delivery: string;
  /** The order's hash. */
  order: string;
  day: string;
  counters: OrderCounters;
  /** The ordering browser's hash, counted in `group`'s set for the day. */
  browser?: { group: Group; hash: string } | undefined;
  entry: OrderEntry;
}

/** A refunded line: its hashed key when the source names it, its product, units, whether tried on. */
export interface RefundLine {
  key?: string | undefined;
  product: string;
  quantity: number;
  triedOn: boolean;
}

export interface RefundWrite {
  delivery: string;
  order: string;
  /** The refund's hash: the same refund delivered under another id is counted once. */
  refund: string;
  lines: RefundLine[];
}

/** `counted`; `duplicate`: this delivery, order or refund was counted before; `unknown_order`: a refund of an order the book never saw. */
export type BookOutcome = 'counted' | 'duplicate' | 'unknown_order';

/** A window's sums: distinct browsers per group (union of the days' sets) and every counter summed. */
export interface OrderTally {
  exposedBrowsers: Record<Group, number>;
  orderingBrowsers: Record<Group, number>;
  counters: OrderCounters;
}

export interface OrderBook {
  /** A browser (or, without an id, an anonymous shopper) shown a product page in `group` on `day`. */
  addExposure(day: string, group: Group, browser: string | undefined): Promise<void>;
  /** An order, in one atomic step: counted unless its delivery or its order was seen before. */
  addOrder(order: OrderWrite): Promise<BookOutcome>;
  /** A refund, in one atomic step on its order's entry: refunded units counted on the order's day, never more than were ordered. */
  addRefund(refund: RefundWrite): Promise<BookOutcome>;
  /** The sums over `days` (UTC dates). */
  tally(days: readonly string[]): Promise<OrderTally>;
}

/** The dates of the last `count` UTC days, today first. */
export function windowDays(now: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => new Date(now - i * DAY_MS).toISOString().slice(0, 10));
}

/** The oldest date the book keeps. */
export const oldestOrderDay = (now: number): string =>
  new Date(now - (ORDER_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);

/** Adds `more` into `into`. */
export function addCounters(into: OrderCounters, more: OrderCounters): OrderCounters {
  for (const [field, n] of Object.entries(more)) into[field] = (into[field] ?? 0) + n;
  return into;
}

/**
 * What a refund does to its order's entry: each refunded line takes units off its own line (by key,
 * else the first line of the same product and kind with units left), never more than were ordered;
 * the counters are the refunded units, for the order's day. Pure, so every store applies it alike.
 */
export function refundOutcome(
  entry: OrderEntry,
  lines: readonly RefundLine[],
): { entry: OrderEntry; counters: OrderCounters } {
  const next: OrderEntry = {
    d: entry.d,
    l: Object.fromEntries(Object.entries(entry.l).map(([k, v]) => [k, [...v] as EntryLine])),
  };
  const counters: OrderCounters = {};
  for (const line of lines) {
    let kept = line.key !== undefined ? next.l[line.key] : undefined;
    kept ??= Object.values(next.l).find(
      ([product, quantity, triedOn, refunded]) =>
        product === line.product && triedOn === (line.triedOn ? 1 : 0) && refunded < quantity,
    );
    if (!kept) continue;
    const units = Math.min(line.quantity, kept[1] - kept[3]);
    if (units <= 0) continue;
    kept[3] += units;
    addCounters(counters, { [`f:${kept[2] ? 't' : 'o'}:${kept[0]}`]: units });
  }
  return { entry: next, counters };
}
