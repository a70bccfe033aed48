// The lift report (GET /usage's `lift`, docs/proxy.md "What the try-on earns"): over a window of
// days, for the treatment (shown the try-on) and the holdout (not shown it), the browsers exposed,
// the browsers that ordered, conversion and revenue per exposed browser; the difference in
// conversion, treatment minus holdout, in percentage points with a 95 % interval; whether there is
// enough data to read it; and the return rate of tried-on lines against other lines of the same
// products.
//
// The interval is Newcombe's hybrid score interval for the difference of two independent
// proportions (Newcombe 1998, Statistics in Medicine 17:873–890, method 10), built from the two
// Wilson score intervals without continuity correction. It keeps its nominal coverage where the
// simple Wald interval does not (small counts, rates near 0, as conversion is), never leaves
// [-1, 1], and needs no iteration, so every store's report is the same arithmetic.
import { GROUPS, type Group, type OrderTally } from './order-book.js';

/** The two-sided 95 % normal quantile. */
const Z95 = 1.959963984540054;

/** The rule for `enough`: at least this many ordering browsers and exposed browsers in each group. */
export const ENOUGH_ORDERING = 30;
export const ENOUGH_EXPOSED = 1000;

/** Wilson's score interval for x successes in n trials (n > 0), without continuity correction. */
export function wilsonInterval(x: number, n: number, z = Z95): { low: number; high: number } {
  const p = x / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At x = 0 or x = n the bound is exactly 0 or 1; rounding must not put it a hair outside.
  return { low: x === 0 ? 0 : Math.max(0, centre - half), high: x === n ? 1 : Math.min(1, centre + half) };
}

/**
 * Newcombe's hybrid score interval (method 10) for p1 − p2, from x1 of n1 and x2 of n2 (both n > 0):
 * low = d − √((p1 − l1)² + (u2 − p2)²), high = d + √((u1 − p1)² + (p2 − l2)²).
 */
export function differenceInterval(
  x1: number,
  n1: number,
  x2: number,
  n2: number,
  z = Z95,
): { difference: number; low: number; high: number } {
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const w1 = wilsonInterval(x1, n1, z);
  const w2 = wilsonInterval(x2, n2, z);
  const d = p1 - p2;
  return {
    difference: d,
    low: d - Math.sqrt((p1 - w1.low) ** 2 + (w2.high - p2) ** 2),
    high: d + Math.sqrt((w1.high - p1) ** 2 + (p2 - w2.low) ** 2),
  };
}

export interface GroupLift {
  exposed: number;
  ordering: number;
  /** ordering / exposed, a fraction (0.031 is 3.1 %); 0 with nobody exposed. */
  conversion: number;
  /** Revenue of the group's orders (in `currency`) per exposed browser; 0 with nobody exposed. */
  revenuePerExposed: number;
}

export interface Lift {
  treatment: GroupLift;
  holdout: GroupLift;
  /** Treatment minus holdout, in percentage points; null bounds while a group has nobody exposed. */
  difference: { points: number | null; low: number | null; high: number | null; level: 0.95 };
  /** Whether both groups reach the stated rule (ENOUGH_ORDERING, ENOUGH_EXPOSED); below it the interval is given but is not to be read as a result. */
  enough: boolean;
  returns: { triedOn: { lines: number; refunded: number }; other: { lines: number; refunded: number } };
  /** The days the report covers, today included. */
  window: number;
  /** The currency of `revenuePerExposed` (the one most orders were in); null before any order. */
  currency: string | null;
  /** Orders counted per group (an ordering browser may order more than once), those with a tried-on line, and orders with no group. */
  orders: { treatment: number; holdout: number; none: number; withTryon: Record<Group, number> };
}

/** Float sums of money (0.1 + 0.2) rounded to what a price can hold. */
const tidy = (n: number) => Math.round(n * 10_000) / 10_000;

/** The report over one window's tally (order-book.ts). */
export function liftReport(tally: OrderTally, window: number): Lift {
  const c = tally.counters;
  const n = (field: string) => c[field] ?? 0;
  const byCurrency = Object.entries(c)
    .filter(([field]) => field.startsWith('oc:'))
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  const currency = byCurrency[0]?.[0].slice(3) ?? null;
  const group = (g: Group): GroupLift => {
    const exposed = tally.exposedBrowsers[g] + n(`xn:${g}`);
    const ordering = tally.orderingBrowsers[g] + n(`on:${g}`);
    const revenue = currency ? n(`r:${g}:${currency}`) : 0;
    return {
      exposed,
      ordering,
      conversion: exposed > 0 ? ordering / exposed : 0,
      revenuePerExposed: exposed > 0 ? tidy(revenue / exposed) : 0,
    };
  };
  const treatment = group('treatment');
  const holdout = group('holdout');
  let difference: Lift['difference'] = { points: null, low: null, high: null, level: 0.95 };
  if (treatment.exposed > 0 && holdout.exposed > 0) {
    // An order may come from a browser whose exposure was not reported (an ad blocker, a report
    // lost): a group's ordering browsers can then exceed its exposed ones, which no proportion can.
    const interval = differenceInterval(
      Math.min(treatment.ordering, treatment.exposed),
      treatment.exposed,
      Math.min(holdout.ordering, holdout.exposed),
      holdout.exposed,
    );
    difference = {
      points: interval.difference * 100,
      low: interval.low * 100,
      high: interval.high * 100,
      level: 0.95,
    };
  }
  const enough = GROUPS.every(
    (g) =>
      (g === 'treatment' ? treatment : holdout).ordering >= ENOUGH_ORDERING &&
      (g === 'treatment' ? treatment : holdout).exposed >= ENOUGH_EXPOSED,
  );
  // Other lines count only for products someone ordered after trying them on: the same products.
  const triedProducts = new Set(
    Object.entries(c)
      .filter(([field, value]) => field.startsWith('l:t:') && value > 0)
      .map(([field]) => field.slice(4)),
  );
  const returns: Lift['returns'] = { triedOn: { lines: 0, refunded: 0 }, other: { lines: 0, refunded: 0 } };
  for (const product of triedProducts) {
    returns.triedOn.lines += n(`l:t:${product}`);
    returns.triedOn.refunded += n(`f:t:${product}`);
    returns.other.lines += n(`l:o:${product}`);
    returns.other.refunded += n(`f:o:${product}`);
  }
  return {
    treatment,
    holdout,
    difference,
    enough,
    returns,
    window,
    currency,
    orders: {
      treatment: n('o:treatment'),
      holdout: n('o:holdout'),
      none: n('o:none'),
      withTryon: { treatment: n('ot:treatment'), holdout: n('ot:holdout') },
    },
  };
}
