// The admin listener: GET /metrics (Prometheus) and GET /usage (the day's spending against the
// budget) for the shop's operator, a Hono app of its own, so it sits with the entries at the
// package's root rather than among the parts they are built from. node.ts serves it on TRYON_ADMIN_PORT
// (loopback by default), never on the public port, so no reverse proxy's prefix stripping can put
// it on the internet; the Workers entry answers /usage with it when a token is bound. Every answer
// needs `Authorization: Bearer <token>`, compared in constant time. The token is checked first: the
// right one is always served. Only a refused attempt is logged (never the token) and counted per
// client, and past the allowance a wrong token is answered 429. The allowance cannot be what keeps
// the right token from refusal, because every process on the machine is the same loopback client:
// one guessing (or misconfigured) would blind Prometheus and the usage page. What stops guessing is
// the token itself (at least 16 characters, config.ts); the 429 keeps a guesser's log lines and
// answers cheap and tells it to stop.
import { Hono, type Context } from 'hono';
import { requestId } from 'hono/request-id';
import { constantTimeEqual } from './security/crypto.js';
import { ProxyError, answerInternalError, isProxyError } from './http/errors.js';
import { loggedPath, redactingLog } from './middleware/request-log.js';
import type { ProxyEnv } from './http/request-facts.js';
import type { Log } from './operator/log.js';
import type { SpendLedger } from './money/spend-ledger.js';
import type { UsageBook, UsageDay } from './money/usage-book.js';
import { ORDER_DAYS } from './orders/order-book.js';
import type { OrderIntake } from './orders/orders-in.js';
import { orderRoutes } from './routes/orders.js';

/** Refused attempts one client may make in any sixty seconds before its wrong tokens are answered 429. */
export const ADMIN_REFUSALS_PER_MINUTE = 10;

export interface AdminMetrics {
  contentType: string;
  text(): Promise<string>;
}

/** GET /usage's answer (docs/proxy.md, "The admin listener"). */
export interface UsageAnswer {
  days: UsageDay[];
  /** null: that limit is switched off (unlimited). */
  budget: {
    dailyTryons: number | null;
    dailyCredits: number | null;
    tryonsLeft: number | null;
    creditsLeft: number | null;
  };
}

export interface AdminOptions {
  /** The bearer token (≥ 16 characters, checked by config.ts). */
  token: string;
  /** Served at GET /metrics when given (Node: prom-client). */
  metrics?: AdminMetrics;
  /** Served at GET /usage when given: the usage book, the spend ledger the proxy reserves against, and its limits. */
  usage?: { book: UsageBook; ledger: SpendLedger; dailyTryons: number; dailyCredits: number };
  /** Who is asking: the socket's address on Node, cf-connecting-ip on Workers. */
  clientAddress: (c: Context<ProxyEnv>) => string | undefined;
  /**
   * The lift report (GET /usage's `lift`) and POST /orders when given: the order book's intake,
   * and TRYON_ORDERS_SECRET, the Standard Webhooks secret the WooCommerce plugin signs with.
   */
  orders?: { intake: OrderIntake; secret?: string | undefined };
  log?: Log;
  now?: () => number;
  refusalsPerMinute?: number;
}

/**
 * Refused attempts per client in the last sixty seconds: a sliding minute, so there is no boundary
 * at which a guesser gets a fresh allowance at once (ten just before it and ten just after).
 * At most `perMinute` times are kept per client; all are forgotten past 10,000 clients.
 */
class Refusals {
  private readonly times = new Map<string, number[]>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  /** The client's refusals of the last minute, oldest first. */
  private recent(client: string): number[] {
    const since = this.now() - 60_000;
    const kept = (this.times.get(client) ?? []).filter((at) => at > since);
    if (kept.length > 0) this.times.set(client, kept);
    else this.times.delete(client);
    return kept;
  }

  /** Seconds to wait when the client has used its allowance, else undefined. */
  exhausted(client: string): number | undefined {
    const recent = this.recent(client);
    return recent.length >= this.perMinute
      ? Math.max(1, Math.ceil((recent[0]! + 60_000 - this.now()) / 1000))
      : undefined;
  }

  add(client: string): void {
    const recent = this.recent(client);
    if (recent.length === 0 && this.times.size >= 10_000) this.times.clear();
    recent.push(this.now());
    if (recent.length > this.perMinute) recent.shift();
    this.times.set(client, recent);
  }
}

/**
 * The last 30 UTC days from the usage book, today first, every day listed (zeros when nothing
 * happened), and what is left of today's budget by the spend ledger: the same reservations the
 * try-ons are guarded by (a failed try-on's credits come back in `days`, as upstream gives them
 * back, but the day's budget counts every try-on started). An unlimited budget is null.
 */
export async function usageAnswer(usage: NonNullable<AdminOptions['usage']>): Promise<UsageAnswer> {
  const [days, today] = await Promise.all([usage.book.days(), usage.ledger.usage()]);
  const limit = (n: number) => (Number.isFinite(n) ? n : null);
  const left = (limit: number, used: number) =>
    Number.isFinite(limit) ? Math.max(0, Math.round((limit - used) * 1000) / 1000) : null;
  return {
    days,
    budget: {
      dailyTryons: limit(usage.dailyTryons),
      dailyCredits: limit(usage.dailyCredits),
      tryonsLeft: left(usage.dailyTryons, today.tryons),
      creditsLeft: left(usage.dailyCredits, today.credits),
    },
  };
}

/** GET /usage's `?window=N`: whole days, 1 to ORDER_DAYS, default 30. */
function liftWindow(text: string | undefined): number {
  if (text === undefined) return 30;
  const days = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(days >= 1 && days <= ORDER_DAYS))
    throw new ProxyError(400, 'invalid_request', `window is a number of days from 1 to ${ORDER_DAYS}.`);
  return days;
}

export function createAdmin(options: AdminOptions): Hono<ProxyEnv> {
  const now = options.now ?? Date.now;
  const log = redactingLog(options.log ?? ((entry) => console.log(JSON.stringify(entry))), [options.token]);
  const refusals = new Refusals(options.refusalsPerMinute ?? ADMIN_REFUSALS_PER_MINUTE, now);
  const expected = `Bearer ${options.token}`;
  const app = new Hono<ProxyEnv>();
  app.use(requestId({ limitLength: 64 }));

  app.use(async (c, next) => {
    const authorization = c.req.header('authorization');
    // The right token first, in constant time, and always served: no count of other clients'
    // failures (on loopback, every local process is one client) may refuse it.
    if (constantTimeEqual(authorization ?? '', expected)) return next();
    const client = options.clientAddress(c) ?? 'unknown';
    const wait = refusals.exhausted(client);
    if (wait !== undefined) {
      log({
        level: 'warn',
        event: 'admin_auth_refused',
        requestId: c.get('requestId'),
        path: loggedPath(c.req.path),
        reason: 'rate_limited',
      });
      throw new ProxyError(
        429,
        'rate_limited',
        'Too many refused attempts; please wait a moment and try again.',
        true,
        wait,
      );
    }
    refusals.add(client);
    log({
      level: 'warn',
      event: 'admin_auth_refused',
      requestId: c.get('requestId'),
      path: loggedPath(c.req.path),
      reason: authorization === undefined ? 'no_token' : 'wrong_token',
    });
    throw new ProxyError(401, 'unauthorized', 'This address answers only to the admin token.');
  });

  const { metrics, usage, orders } = options;
  if (metrics) {
    app.get(
      '/metrics',
      async () =>
        new Response(await metrics.text(), {
          headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' },
        }),
    );
  }
  if (usage) {
    app.get('/usage', async (c) => {
      c.header('cache-control', 'no-store');
      const window = liftWindow(c.req.query('window'));
      const [answer, lift] = await Promise.all([usageAnswer(usage), orders?.intake.lift(window)]);
      return c.json({ ...answer, ...(lift ? { lift } : {}) });
    });
  }
  if (orders) app.route('/', orderRoutes({ intake: orders.intake, secret: orders.secret, log }));
  app.all('*', () => new ProxyError(404, 'not_found', 'There is nothing here.').toResponse());
  app.onError((error, c) => {
    const headers: Record<string, string> = { 'x-request-id': c.get('requestId') ?? '', 'cache-control': 'no-store' };
    if (error instanceof ProxyError && error.status === 401) headers['www-authenticate'] = 'Bearer';
    if (isProxyError(error)) return error.toResponse(headers);
    return answerInternalError(error, c.get('requestId'), log, headers);
  });
  return app;
}
