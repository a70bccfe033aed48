// Orders, refunds and exposures into the order book (order-book.ts), and the lift report out of it:
// the one place that turns a source's facts (order-marks.ts) into what the book keeps. Every id
// is hashed here with a key derived from the proxy's secret (the same on every instance, never
// stored), so the book holds no order number, no line id and no browser id, and a hash cannot be
// reversed by someone who reads the store without the secret.
import { hmac, hmacKey, toBase64Url, toHex } from '../security/crypto.js';
import {
  windowDays,
  type BookOutcome,
  type Group,
  type OrderBook,
  type OrderCounters,
  type OrderEntry,
} from './order-book.js';
import { liftReport, type Lift } from './lift.js';
import type { OrderFacts, RefundFacts } from './order-marks.js';

/** Where an order came from: its ids are hashed under its source, so two sources' ids never meet. */
export type OrderSource = 'shopify' | 'shop';

export class OrderIntake {
  private readonly key: Promise<CryptoKey>;

  constructor(
    private readonly book: OrderBook,
    secret: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = hmacKey(secret).then(async (root) => hmacKey(await hmac(root, 'tryon-proxy/orders')));
  }

  /** A keyed hash of one id: 128 bits, hex. */
  private async hash(...parts: string[]): Promise<string> {
    return toHex((await hmac(await this.key, parts.join('|'))).subarray(0, 16));
  }

  /** A browser's hash: 96 bits, base64url (16 characters), small in the per-day sets. */
  private async browserHash(browser: string): Promise<string> {
    return toBase64Url((await hmac(await this.key, `browser|${browser}`)).subarray(0, 12));
  }

  private day(): string {
    return new Date(this.now()).toISOString().slice(0, 10);
  }

  async exposure(group: Group, browser: string | null | undefined): Promise<void> {
    await this.book.addExposure(this.day(), group, browser ? await this.browserHash(browser) : undefined);
  }

  async order(source: OrderSource, delivery: string, order: OrderFacts): Promise<BookOutcome> {
    const group = order.group ?? 'none';
    const counters: OrderCounters = { [`o:${group}`]: 1 };
    const add = (field: string, n: number) => (counters[field] = (counters[field] ?? 0) + n);
    if (order.currency) {
      add(`oc:${order.currency}`, 1);
      add(`r:${group}:${order.currency}`, order.total);
    }
    if (order.lines.some((line) => line.tryon !== null)) add(`ot:${group}`, 1);
    if (order.group && !order.browser) add(`on:${order.group}`, 1);
    const entry: OrderEntry = { d: this.day(), l: {} };
    for (const line of order.lines) {
      const triedOn = line.tryon !== null;
      add(`l:${triedOn ? 't' : 'o'}:${line.product}`, line.quantity);
      entry.l[await this.lineKey(source, order.id, line.key)] = [line.product, line.quantity, triedOn ? 1 : 0, 0];
    }
    return this.book.addOrder({
      delivery: `${source}:${delivery}`,
      order: await this.hash(source, 'order', order.id),
      day: entry.d,
      counters,
      browser:
        order.group && order.browser ? { group: order.group, hash: await this.browserHash(order.browser) } : undefined,
      entry,
    });
  }

  async refund(source: OrderSource, delivery: string, refund: RefundFacts): Promise<BookOutcome> {
    return this.book.addRefund({
      delivery: `${source}:${delivery}`,
      order: await this.hash(source, 'order', refund.order),
      refund: await this.hash(source, 'refund', refund.order, refund.refund),
      lines: await Promise.all(
        refund.lines.map(async (line) => ({
          key: await this.lineKey(source, refund.order, line.key),
          product: line.product,
          quantity: line.quantity,
          triedOn: line.tryon !== null,
        })),
      ),
    });
  }

  /** The lift report over the last `window` UTC days, today included. */
  async lift(window: number): Promise<Lift> {
    return liftReport(await this.book.tally(windowDays(this.now(), window)), window);
  }

  /** A line's key in the entry: short, as it only tells an order's lines apart. */
  private async lineKey(source: OrderSource, order: string, line: string): Promise<string> {
    return (await this.hash(source, 'line', order, line)).slice(0, 12);
  }
}
