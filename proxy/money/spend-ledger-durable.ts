// The spend ledger (spend-ledger.ts) in the shop's Durable Object, both sides of the wire: the
// isolate's ledger, one call per reserve and settle, and the shop object's tables, where each is
// one synchronous step (the same checks in the same order as spend-ledger-memory.ts and the Redis
// script), so N free slots give at most N try-ons however the burst is spread over isolates.
import {
  utcDay,
  type HeldKind,
  type Reservation,
  type SpendClaim,
  type SpendLedger,
  type SpendLimits,
  type SpendRefusal,
  type SpendUsage,
  type SubmitOutcome,
} from './spend-ledger.js';
import {
  firstRow,
  limitFromWire,
  limitToWire,
  type Call,
  type ShopCall,
  type ShopTables,
  type SqlStorage,
} from '../cluster/durable-wire.js';

/** The ledger's limits as they travel (null: unlimited). */
export interface WireLimits {
  dailyTryons: number | null;
  dailyCredits: number | null;
  tryonsPerPhoto: number | null;
  clientDailyTryons: number | null;
}

/** The spend ledger in the shop object: each reserve and settle one atomic step there. */
export function durableSpendLedger(call: ShopCall, limits: SpendLimits, now: () => number): SpendLedger {
  const wire: WireLimits = {
    dailyTryons: limitToWire(limits.dailyTryons),
    dailyCredits: limitToWire(limits.dailyCredits),
    tryonsPerPhoto: limitToWire(limits.tryonsPerPhoto),
    clientDailyTryons: limitToWire(limits.clientDailyTryons),
  };
  return {
    reserve: (claim) => call('reserve', { claim, limits: wire, now: now() }),
    settle: async (key, outcome) => {
      await call('settle', { key, outcome, now: now() });
    },
    usage: () => call('usage', { now: now() }),
  };
}

interface Held {
  kind: HeldKind;
  day: string;
  photo_id: string;
  client: string;
  credits: number;
  keep_until: number;
  holders: number;
  confirmed: number;
}

const DAY_MS = 86_400_000;

/** The ledger's tables in the shop object: reservations held, and each day's counts, the shop's and each client's. */
export class SpendTables implements ShopTables {
  readonly schema = [
    `CREATE TABLE IF NOT EXISTS held (key TEXT PRIMARY KEY, day TEXT NOT NULL, photo_id TEXT NOT NULL, client TEXT NOT NULL,
     credits REAL NOT NULL, keep_until INTEGER NOT NULL, holders INTEGER NOT NULL, confirmed INTEGER NOT NULL)`,
    'CREATE INDEX IF NOT EXISTS held_by_photo ON held (photo_id)',
    'CREATE TABLE IF NOT EXISTS spend_day (day TEXT PRIMARY KEY, tryons INTEGER NOT NULL, credits REAL NOT NULL)',
    'CREATE TABLE IF NOT EXISTS spend_client (day TEXT NOT NULL, client TEXT NOT NULL, tryons INTEGER NOT NULL, PRIMARY KEY (day, client))',
  ];

  readonly operations = {
    reserve: ({ now, claim, limits }: Call & { claim: SpendClaim; limits: WireLimits }) =>
      this.reserve(now, claim, limits),
    settle: ({ now, key, outcome }: Call & { key: string; outcome: SubmitOutcome }) => this.settle(now, key, outcome),
    usage: ({ now }: Call) => this.usage(now),
  };

  constructor(
    private readonly sql: SqlStorage,
    /** The shop object's sweep of every part (at most once a minute), which a reservation asks for first. */
    private readonly sweepAll: (now: number) => void,
  ) {}

  /**
   * What a reservation counts in (spend-ledger.ts HeldKind): an object made before colour drafts
   * and first looks has held only try-ons, and gains the column once.
   */
  migrate(): void {
    try {
      this.sql.exec('SELECT kind FROM held LIMIT 0');
    } catch {
      this.sql.exec("ALTER TABLE held ADD COLUMN kind TEXT NOT NULL DEFAULT 'tryon'");
    }
  }

  sweep(now: number): void {
    this.sql.exec('DELETE FROM held WHERE keep_until <= ?', now);
    const yesterday = utcDay(now - DAY_MS);
    this.sql.exec('DELETE FROM spend_day WHERE day < ?', yesterday);
    this.sql.exec('DELETE FROM spend_client WHERE day < ?', yesterday);
  }

  /** spend-ledger.ts MemorySpendLedger.reserve, on tables. */
  private reserve(now: number, claim: SpendClaim, limits: WireLimits): Reservation {
    this.sweepAll(now);
    const day = utcDay(now);
    const known = firstRow(
      this.sql.exec<{ keep_until: number }>('SELECT keep_until FROM held WHERE key = ?', claim.key),
    );
    if (known && known.keep_until > now) {
      this.sql.exec(
        'UPDATE held SET holders = holders + 1, keep_until = MAX(keep_until, ?) WHERE key = ?',
        claim.keepUntil,
        claim.key,
      );
      // A retry charges nothing new: its first look only if that is still held.
      return { granted: true, retry: true, ...this.holdAgain(now, claim) };
    }
    if (known) this.sql.exec('DELETE FROM held WHERE key = ?', claim.key);
    const refuse = (refusal: SpendRefusal): Reservation => ({ granted: false, refusal });
    const kind = claim.kind ?? 'tryon';
    const photoCount = firstRow(
      this.sql.exec<{ n: number }>(
        'SELECT COUNT(*) AS n FROM held WHERE photo_id = ? AND kind = ?',
        claim.photoId,
        kind,
      ),
    )!.n;
    if (kind === 'colour_preview') {
      if (photoCount >= (claim.colourPreviewCap ?? 0)) return refuse('colour_preview_limit');
    } else if (photoCount >= limitFromWire(limits.tryonsPerPhoto)) return refuse('photo_limit');
    const clientTryons =
      firstRow(
        this.sql.exec<{ tryons: number }>(
          'SELECT tryons FROM spend_client WHERE day = ? AND client = ?',
          day,
          claim.client,
        ),
      )?.tryons ?? 0;
    if (clientTryons >= limitFromWire(limits.clientDailyTryons)) return refuse('client_daily');
    const spent = this.spent(day);
    if (spent.tryons >= limitFromWire(limits.dailyTryons)) return refuse('daily_tryons');
    if (spent.credits + claim.credits > limitFromWire(limits.dailyCredits)) return refuse('daily_credits');

    this.sql.exec(
      `INSERT INTO spend_day (day, tryons, credits) VALUES (?, 1, ?)
      ON CONFLICT (day) DO UPDATE SET tryons = tryons + 1, credits = credits + excluded.credits`,
      day,
      claim.credits,
    );
    this.sql.exec(
      `INSERT INTO spend_client (day, client, tryons) VALUES (?, ?, 1)
      ON CONFLICT (day, client) DO UPDATE SET tryons = tryons + 1`,
      day,
      claim.client,
    );
    this.sql.exec(
      'INSERT INTO held (key, day, photo_id, client, credits, keep_until, holders, confirmed, kind) VALUES (?, ?, ?, ?, ?, ?, 1, 0, ?)',
      claim.key,
      day,
      claim.photoId,
      claim.client,
      claim.credits,
      claim.keepUntil,
      kind,
    );
    // The first look, in the same step: only what the day's credits still cover.
    const again = this.holdAgain(now, claim);
    if (again.preview || !claim.preview) return { granted: true, retry: false, ...again };
    if (spent.credits + claim.credits + claim.preview.credits > limitFromWire(limits.dailyCredits))
      return { granted: true, retry: false };
    this.sql.exec('DELETE FROM held WHERE key = ?', claim.preview.key);
    this.sql.exec('UPDATE spend_day SET credits = credits + ? WHERE day = ?', claim.preview.credits, day);
    this.sql.exec(
      'INSERT INTO held (key, day, photo_id, client, credits, keep_until, holders, confirmed, kind) VALUES (?, ?, ?, ?, ?, ?, 1, 0, ?)',
      claim.preview.key,
      day,
      claim.photoId,
      claim.client,
      claim.preview.credits,
      claim.keepUntil,
      'preview',
    );
    return { granted: true, retry: false, preview: { retry: false } };
  }

  /** The claim's first look, if it is held already (a retry's): one more holder, nothing counted. */
  private holdAgain(now: number, claim: SpendClaim): { preview?: { retry: boolean } } {
    if (!claim.preview) return {};
    const held = firstRow(
      this.sql.exec<{ keep_until: number }>('SELECT keep_until FROM held WHERE key = ?', claim.preview.key),
    );
    if (!held || held.keep_until <= now) return {};
    this.sql.exec(
      'UPDATE held SET holders = holders + 1, keep_until = MAX(keep_until, ?) WHERE key = ?',
      claim.keepUntil,
      claim.preview.key,
    );
    return { preview: { retry: true } };
  }

  /** spend-ledger.ts MemorySpendLedger.settle, on tables. */
  private settle(now: number, key: string, outcome: SubmitOutcome): void {
    const held = firstRow(this.sql.exec<Held>('SELECT * FROM held WHERE key = ?', key));
    if (!held) return;
    const holders = Math.max(0, held.holders - 1);
    // `confirmed` (its stored name) is 1 once the try-on may have started upstream: accepted, or a
    // submit that ended unknown. Such a reservation is never given back.
    const mayHaveStarted = held.confirmed === 1 || outcome !== 'refused';
    if (mayHaveStarted || holders > 0) {
      this.sql.exec('UPDATE held SET holders = ?, confirmed = ? WHERE key = ?', holders, mayHaveStarted ? 1 : 0, key);
      return;
    }
    this.sql.exec('DELETE FROM held WHERE key = ?', key);
    if (held.day !== utcDay(now)) return;
    // A first look counts in the credits only.
    if (held.kind === 'preview') {
      this.sql.exec('UPDATE spend_day SET credits = credits - ? WHERE day = ?', held.credits, held.day);
      return;
    }
    this.sql.exec(
      'UPDATE spend_day SET tryons = tryons - 1, credits = credits - ? WHERE day = ?',
      held.credits,
      held.day,
    );
    this.sql.exec('UPDATE spend_client SET tryons = tryons - 1 WHERE day = ? AND client = ?', held.day, held.client);
    this.sql.exec('DELETE FROM spend_client WHERE day = ? AND client = ? AND tryons <= 0', held.day, held.client);
  }

  private usage(now: number): SpendUsage {
    const day = utcDay(now);
    return { day, ...this.spent(day) };
  }

  private spent(day: string): { tryons: number; credits: number } {
    return (
      firstRow(
        this.sql.exec<{ tryons: number; credits: number }>('SELECT tryons, credits FROM spend_day WHERE day = ?', day),
      ) ?? { tryons: 0, credits: 0 }
    );
  }
}
