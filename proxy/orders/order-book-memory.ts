// The order book (order-book.ts) of one process: the default store's. Every method does its work
// before its first await, so each is atomic on one event loop.
import {
  GROUPS,
  DELIVERY_KEEP_MS,
  ORDER_KEEP_MS,
  addCounters,
  oldestOrderDay,
  refundOutcome,
  type BookOutcome,
  type Group,
  type OrderBook,
  type OrderCounters,
  type OrderEntry,
  type OrderTally,
  type OrderWrite,
  type RefundWrite,
} from './order-book.js';

interface Day {
  counters: OrderCounters;
  exposed: Record<Group, Set<string>>;
  ordering: Record<Group, Set<string>>;
}

export class MemoryOrderBook implements OrderBook {
  private readonly days = new Map<string, Day>();
  private readonly orders = new Map<string, { entry: OrderEntry; until: number }>();
  /** Deliveries and refunds already counted, until when. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async addExposure(day: string, group: Group, browser: string | undefined): Promise<void> {
    const kept = this.day(day);
    if (browser) kept.exposed[group].add(browser);
    else addCounters(kept.counters, { [`xn:${group}`]: 1 });
  }

  async addOrder(order: OrderWrite): Promise<BookOutcome> {
    const now = this.now();
    const first = !this.known(`w:${order.delivery}`, now) && !this.liveOrder(order.order, now);
    this.seen.set(`w:${order.delivery}`, now + DELIVERY_KEEP_MS);
    if (!first) return 'duplicate';
    this.orders.set(order.order, { entry: order.entry, until: now + ORDER_KEEP_MS });
    const day = this.day(order.day);
    addCounters(day.counters, order.counters);
    if (order.browser) day.ordering[order.browser.group].add(order.browser.hash);
    return 'counted';
  }

  async addRefund(refund: RefundWrite): Promise<BookOutcome> {
    const now = this.now();
    if (this.known(`w:${refund.delivery}`, now) || this.known(`f:${refund.refund}`, now)) return 'duplicate';
    const order = this.liveOrder(refund.order, now);
    if (!order) return 'unknown_order';
    const { entry, counters } = refundOutcome(order.entry, refund.lines);
    order.entry = entry;
    this.seen.set(`w:${refund.delivery}`, now + DELIVERY_KEEP_MS);
    this.seen.set(`f:${refund.refund}`, order.until);
    addCounters(this.day(entry.d).counters, counters);
    return 'counted';
  }

  async tally(days: readonly string[]): Promise<OrderTally> {
    const counters: OrderCounters = {};
    const exposed = { treatment: new Set<string>(), holdout: new Set<string>() };
    const ordering = { treatment: new Set<string>(), holdout: new Set<string>() };
    for (const date of days) {
      const day = this.days.get(date);
      if (!day) continue;
      addCounters(counters, day.counters);
      for (const group of GROUPS) {
        for (const browser of day.exposed[group]) exposed[group].add(browser);
        for (const browser of day.ordering[group]) ordering[group].add(browser);
      }
    }
    return {
      exposedBrowsers: { treatment: exposed.treatment.size, holdout: exposed.holdout.size },
      orderingBrowsers: { treatment: ordering.treatment.size, holdout: ordering.holdout.size },
      counters,
    };
  }

  private known(key: string, now: number): boolean {
    return (this.seen.get(key) ?? 0) > now;
  }

  private liveOrder(hash: string, now: number): { entry: OrderEntry; until: number } | undefined {
    const order = this.orders.get(hash);
    return order && order.until > now ? order : undefined;
  }

  /** A day's record, made on first use; what is past keeping is forgotten as days are made. */
  private day(date: string): Day {
    let day = this.days.get(date);
    if (!day) {
      day = {
        counters: {},
        exposed: { treatment: new Set(), holdout: new Set() },
        ordering: { treatment: new Set(), holdout: new Set() },
      };
      this.days.set(date, day);
      this.forgetOld();
    }
    return day;
  }

  private forgetOld(): void {
    const now = this.now();
    const oldest = oldestOrderDay(now);
    for (const date of this.days.keys()) if (date < oldest) this.days.delete(date);
    for (const [key, until] of this.seen) if (until <= now) this.seen.delete(key);
    for (const [hash, order] of this.orders) if (order.until <= now) this.orders.delete(hash);
  }
}
