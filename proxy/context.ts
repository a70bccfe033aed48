// What every route shares: options resolved once, the upstream client, handles, the catalog,
// the status board, budgets and the log.
import type { Context } from 'hono';
import type { ProductEntry } from './catalog.js';
import type { GarmentFiles } from './garment-files.js';
import type { HandleSigner } from './handles.js';
import type { ProxyLimits } from './limits.js';
import type { RateLimiter, TryonBudget } from './budget.js';
import type { TryonStatusBoard } from './tryon-status.js';
import type { Upstream } from './upstream.js';

export type ProxyEnv = { Variables: { requestId: string } };
export type ProxyContext = Context<ProxyEnv>;

export type Log = (entry: Record<string, unknown>) => void;

export interface Proxy {
  limits: ProxyLimits;
  upstream: Upstream;
  handles: HandleSigner;
  findProduct: (id: string) => Promise<ProductEntry | undefined>;
  garmentFiles: GarmentFiles;
  board: TryonStatusBoard;
  writes: RateLimiter;
  reads: RateLimiter;
  budget: TryonBudget;
  log: Log;
  now: () => number;
  /** Who is asking, for rate limits and the hashed compliance line. */
  client: (c: ProxyContext) => string;
  /** Salted hash of a client address: the compliance log never holds the address itself. */
  hashClient: (address: string) => Promise<string>;
  /** The idempotency key upstream for one logical try-on. */
  idempotencyKey: (parts: string[]) => Promise<string>;
  webhookSecret?: string | undefined;
  publicUrl?: string | undefined;
  upstreamLabel: 'sandbox' | 'live' | 'test';
}
