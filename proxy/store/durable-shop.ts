// The Durable Object of the shop (one per deployment, binding TRYON_SHOP): one SQLite database
// holding each feature's tables, which the features' Durable Object adapters define: the spend
// ledger (money/spend-ledger-durable.ts), the usage book (money/usage-book-durable.ts), forgotten
// photos and their submits under way (photos/revocations-durable.ts), hand-offs
// (photos/phone-handoffs-durable.ts), garment file ids and their upload lock
// (catalog/garment-ids-durable.ts), webhook ids already seen (upstream/webhook-ids-durable.ts) and
// per-client rate limits (limits/rate-buckets-durable.ts) and recent try-on times
// (timings/tryon-times-durable.ts) and the order book (orders/order-book-durable.ts). An object runs one event at a time and
// every operation is synchronous SQL, so each is atomic across all isolates: N free slots give at
// most N try-ons however the burst is spread. Rows that have outlived their use are swept on use,
// at most once a minute, every part's at once.
import {
  answerCall,
  type Call,
  type DurableObjectState,
  type ShopTables,
  type SqlStorage,
} from '../cluster/durable-wire.js';
import { SpendTables } from '../money/spend-ledger-durable.js';
import { UsageTables } from '../money/usage-book-durable.js';
import { RevocationTables } from '../photos/revocations-durable.js';
import { HandoffTables } from '../photos/phone-handoffs-durable.js';
import { GarmentTables } from '../catalog/garment-ids-durable.js';
import { WebhookTables } from '../upstream/webhook-ids-durable.js';
import { RateTables } from '../limits/rate-buckets-durable.js';
import { TryonTimeTables } from '../timings/tryon-times-durable.js';
import { OrderTables } from '../orders/order-book-durable.js';
import type { RateBucket } from '../limits/rate-limit.js';

const SWEEP_EVERY_MS = 60_000;

export class ShopObject {
  private readonly sql: SqlStorage;
  private sweptAt = 0;
  private readonly revocations: RevocationTables;
  private readonly rates: RateTables;
  private readonly parts: readonly ShopTables[];

  constructor(state: DurableObjectState) {
    this.sql = state.storage.sql;
    const sweep = (now: number) => this.sweep(now);
    this.revocations = new RevocationTables(this.sql, sweep);
    this.rates = new RateTables(this.sql, sweep);
    this.parts = [
      new SpendTables(this.sql, sweep),
      this.revocations,
      new WebhookTables(this.sql, sweep),
      new GarmentTables(this.sql),
      new HandoffTables(this.sql, sweep),
      this.rates,
      new UsageTables(this.sql, sweep),
      new TryonTimeTables(this.sql),
      new OrderTables(this.sql, sweep),
    ];
    for (const part of this.parts) for (const statement of part.schema) this.sql.exec(statement);
    for (const part of this.parts) part.migrate?.();
  }

  async fetch(request: Request): Promise<Response> {
    return answerCall(request, {
      ...Object.assign({}, ...this.parts.map((part) => part.operations)),
      // One read: its allowance first (a limited client is told so whatever its photo), then its
      // photo, in one step across the two parts.
      takeReadAndCheck: ({
        now,
        rateNow,
        bucket,
        client,
        perMinute,
        photoId,
      }: Call & { rateNow: number; bucket: RateBucket; client: string; perMinute: number; photoId: string }) => {
        const waitSeconds = this.rates.take(rateNow, bucket, client, perMinute);
        return {
          waitSeconds: waitSeconds ?? null,
          revoked: waitSeconds === undefined && this.revocations.isRevoked(photoId, now),
        };
      },
      ping: () => true,
    });
  }

  /** Drops what no request can need any more, in every part's tables. */
  private sweep(now: number): void {
    if (now - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    for (const part of this.parts) part.sweep(now);
  }
}
