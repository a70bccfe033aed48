// ProxyServices: what every route shares, built once by createProxy (app.ts) from its options:
// the upstream client, handles, the catalog, the status board, rate limits, budgets, the shared
// store, metrics and the log. With the routes, the one layer that uses all of it: the features
// below each name the few parts they need themselves, so none of them imports this bag.
import type { ProductEntry } from '../catalog/catalog.js';
import type { GarmentFiles } from '../catalog/garment-files.js';
import type { HandleSigner } from '../security/handles.js';
import type { ProxyLimits } from '../limits/limits.js';
import type { PhotoRevocations } from '../photos/revocations.js';
import type { PriceTable } from '../money/prices.js';
import type { SpendLedger } from '../money/spend-ledger.js';
import type { UsageBook } from '../money/usage-book.js';
import type { BudgetAlerts } from '../money/budget-alerts.js';
import type { RateLimit } from '../limits/rate-limit.js';
import type { ProxyMetrics } from '../operator/metrics.js';
import type { ProxyStore } from '../store/store.js';
import type { TryonStatusBoard } from '../tryons/status-board.js';
import type { TryonTimes } from '../timings/tryon-times.js';
import type { Upstream } from '../upstream/client.js';
import type { Log } from '../operator/log.js';
import type { ProxyContext } from '../http/request-facts.js';
import type { OrderIntake } from '../orders/orders-in.js';

export interface ProxyServices {
  limits: ProxyLimits;
  upstream: Upstream;
  handles: HandleSigner;
  /** Photos the shopper asked to forget: their handles, try-ons and files answer 404. */
  revocations: PhotoRevocations;
  findProduct: (id: string) => Promise<ProductEntry | undefined>;
  garmentFiles: GarmentFiles;
  board: TryonStatusBoard;
  /** How long a try-on usually takes, measured by the board and kept in the store (GET /products' typicalSeconds). */
  times: TryonTimes;
  writes: RateLimit;
  reads: RateLimit;
  /** What the instances share (store/): memory for one process, Redis for many. */
  store: ProxyStore;
  metrics: ProxyMetrics;
  /** Reserves each try-on in every daily limit before upstream is asked (spend-ledger.ts; kept in the store). */
  spend: SpendLedger;
  /** What was spent, day by day, for GET /usage (usage-book.ts; kept in the store). */
  usage: UsageBook;
  /** Signed POSTs at 80 % and 100 % of the day's budget (TRYON_BUDGET_ALERT_URL), when set. */
  alerts?: BudgetAlerts | undefined;
  /** Runs work after the answer: waitUntil on Workers, simply left running elsewhere; a failure is logged. */
  background: (c: ProxyContext, work: Promise<unknown>, event: string) => void;
  /** Credits per view and per video by tier, for the credit budget. */
  prices: PriceTable;
  log: Log;
  now: () => number;
  /** Who is asking, for rate limits and the hashed compliance line. */
  client: (c: ProxyContext) => string;
  /** Salted hash of a client address: the compliance log never holds the address itself. */
  hashClient: (address: string) => Promise<string>;
  /** The idempotency key upstream for one logical try-on. */
  idempotencyKey: (parts: string[]) => Promise<string>;
  webhookSecret?: string | undefined;
  /** Orders, refunds and exposures into the order book, and the lift report out of it (orders/). */
  orders: OrderIntake;
  /** The Shopify app's client secret: POST /shopify/webhooks verifies Shopify's HMAC with it. */
  shopifyAppSecret?: string | undefined;
  publicUrl?: string | undefined;
  upstreamLabel: 'sandbox' | 'live' | 'test';
}
