// The Durable Object of the shop (one per deployment, binding TRYON_SHOP): the spend ledger
// (budgets, credits, per-photo and per-client caps, with the same checks in the same order as
// spend-ledger.ts and redis-ledger.ts), forgotten photos and their submits under way, garment file ids and their upload lock,
// webhook ids already seen, and per-client rate limits. An object runs one event at a time and
// every operation here is synchronous SQL, so each is atomic across all isolates: N free slots
// give at most N try-ons however the burst is spread. Storage is the object's own SQLite; rows
// that have outlived their use are swept on use, at most once a minute.
// Over 300 lines (about 490): one Durable Object class is one SQLite database, and its table
// definitions, the operations that must run as one event and their wire names have to be read
// together; splitting the class would split each atomic step from the table it guards.
import {
  utcDay,
  type HeldKind,
  type Reservation,
  type SpendClaim,
  type SpendRefusal,
  type SpendUsage,
  type SubmitOutcome,
} from '../money/spend-ledger.js';
import type { RateBucket } from './store.js';
import {
  confirmationFor,
  receiptFor,
  type HandoffConfirmation,
  type HandoffPairing,
  type HandoffReceipt,
  type HandoffRecord,
} from '../photos/handoffs.js';
import { oldestKept, refundCounters, type JobEntry, type UsageCounters } from '../money/usage-book.js';
import {
  answerCall,
  firstRow,
  limitFromWire,
  type Call,
  type DurableObjectState,
  type SqlStorage,
} from './durable-wire.js';

/** The ledger's limits as they travel (null: unlimited). */
export interface WireLimits {
  dailyTryons: number | null;
  dailyCredits: number | null;
  tryonsPerPhoto: number | null;
  clientDailyTryons: number | null;
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS held (key TEXT PRIMARY KEY, day TEXT NOT NULL, photo_id TEXT NOT NULL, client TEXT NOT NULL,
     credits REAL NOT NULL, keep_until INTEGER NOT NULL, holders INTEGER NOT NULL, confirmed INTEGER NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS held_by_photo ON held (photo_id)',
  'CREATE TABLE IF NOT EXISTS spend_day (day TEXT PRIMARY KEY, tryons INTEGER NOT NULL, credits REAL NOT NULL)',
  'CREATE TABLE IF NOT EXISTS spend_client (day TEXT NOT NULL, client TEXT NOT NULL, tryons INTEGER NOT NULL, PRIMARY KEY (day, client))',
  'CREATE TABLE IF NOT EXISTS forgotten (photo_id TEXT PRIMARY KEY, until INTEGER NOT NULL)',
  'CREATE TABLE IF NOT EXISTS submitting (photo_id TEXT NOT NULL, ticket TEXT NOT NULL, until INTEGER NOT NULL, PRIMARY KEY (photo_id, ticket))',
  'CREATE TABLE IF NOT EXISTS webhook (id TEXT PRIMARY KEY, until INTEGER NOT NULL)',
  'CREATE TABLE IF NOT EXISTS garment (key TEXT PRIMARY KEY, file_id TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS garment_lock (key TEXT PRIMARY KEY, token TEXT NOT NULL, until INTEGER NOT NULL)',
  // Hand-offs (photos/handoffs.ts) by code; a row is dropped at `until`, some time after its code ends.
  // The pairing columns (the phone's number, tries left, its deadline, confirmed) are added to
  // older objects' tables by HANDOFF_PAIRING below.
  `CREATE TABLE IF NOT EXISTS handoff (code TEXT PRIMARY KEY, id TEXT NOT NULL UNIQUE, product TEXT NOT NULL, variant TEXT,
     expires_at INTEGER NOT NULL, photo TEXT, until INTEGER NOT NULL)`,
  'CREATE TABLE IF NOT EXISTS rate (bucket TEXT NOT NULL, client TEXT NOT NULL, tokens REAL NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (bucket, client))',
  // The usage book (usage-book.ts): a day's counters, started jobs (to give a failed one's credits back), alerts sent.
  'CREATE TABLE IF NOT EXISTS usage_counter (day TEXT NOT NULL, field TEXT NOT NULL, n REAL NOT NULL, PRIMARY KEY (day, field))',
  'CREATE TABLE IF NOT EXISTS usage_job (job_id TEXT PRIMARY KEY, day TEXT NOT NULL, product TEXT NOT NULL, credits REAL NOT NULL, until INTEGER NOT NULL)',
  'CREATE TABLE IF NOT EXISTS usage_alert (day TEXT NOT NULL, threshold INTEGER NOT NULL, PRIMARY KEY (day, threshold))',
];

/** The hand-off's pairing columns, each added once to a table made before pairing existed. */
const HANDOFF_PAIRING = [
  ['confirmation', 'TEXT'],
  ['tries_left', 'INTEGER'],
  ['confirm_by', 'INTEGER'],
  ['confirmed', 'INTEGER NOT NULL DEFAULT 0'],
] as const;

const SWEEP_EVERY_MS = 60_000;
/** How long a take from a rate bucket may stay in memory only (takeRequest, saveBuckets). */
const BUCKETS_SAVED_EVERY_MS = 1_000;
const DAY_MS = 86_400_000;

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

/** A client's rate bucket: tokens left at `at`. */
interface Bucket {
  bucket: RateBucket;
  client: string;
  tokens: number;
  at: number;
}

export class ShopObject {
  private readonly sql: SqlStorage;
  private sweptAt = 0;
  /** The rate buckets in use, by bucket and client: authoritative while this object lives. */
  private readonly buckets = new Map<string, Bucket>();
  /** Buckets taken from since their rows were last written. */
  private readonly unsaved = new Set<string>();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(state: DurableObjectState) {
    this.sql = state.storage.sql;
    for (const statement of SCHEMA) this.sql.exec(statement);
    // What a reservation counts in (spend-ledger.ts HeldKind): an object made before colour
    // previews and first looks has held only try-ons, and gains the column once.
    try {
      this.sql.exec('SELECT kind FROM held LIMIT 0');
    } catch {
      this.sql.exec("ALTER TABLE held ADD COLUMN kind TEXT NOT NULL DEFAULT 'tryon'");
    }
    for (const [column, type] of HANDOFF_PAIRING) {
      try {
        this.sql.exec(`SELECT ${column} FROM handoff LIMIT 0`);
      } catch {
        this.sql.exec(`ALTER TABLE handoff ADD COLUMN ${column} ${type}`);
      }
    }
  }

  async fetch(request: Request): Promise<Response> {
    return answerCall(request, {
      reserve: ({ now, claim, limits }: Call & { claim: SpendClaim; limits: WireLimits }) =>
        this.reserve(now, claim, limits),
      settle: ({ now, key, outcome }: Call & { key: string; outcome: SubmitOutcome }) => this.settle(now, key, outcome),
      usage: ({ now }: Call) => this.usage(now),
      revoke: ({ now, photoId, until }: Call & { photoId: string; until: number }) => this.revoke(now, photoId, until),
      isRevoked: ({ now, photoId }: Call & { photoId: string }) => this.live('forgotten', 'photo_id', photoId, now),
      beginSubmit: ({ now, photoId, ms }: Call & { photoId: string; ms: number }) => this.beginSubmit(now, photoId, ms),
      endSubmit: ({ photoId, ticket }: Call & { photoId: string; ticket: string }) => {
        this.sql.exec('DELETE FROM submitting WHERE photo_id = ? AND ticket = ?', photoId, ticket);
      },
      submitsUnderWay: ({ now, photoId }: Call & { photoId: string }) =>
        firstRow(
          this.sql.exec<{ n: number }>(
            'SELECT COUNT(*) AS n FROM submitting WHERE photo_id = ? AND until > ?',
            photoId,
            now,
          ),
        )!.n,
      firstDelivery: ({ now, id, ttlMs }: Call & { id: string; ttlMs: number }) => this.firstDelivery(now, id, ttlMs),
      garmentId: ({ key }: Call & { key: string }) =>
        firstRow(this.sql.exec<{ file_id: string }>('SELECT file_id FROM garment WHERE key = ?', key))?.file_id,
      saveGarmentId: ({ key, fileId }: Call & { key: string; fileId: string }) => {
        this.sql.exec('INSERT OR REPLACE INTO garment (key, file_id) VALUES (?, ?)', key, fileId);
      },
      forgetGarmentId: ({ key, fileId }: Call & { key: string; fileId: string }) => {
        this.sql.exec('DELETE FROM garment WHERE key = ? AND file_id = ?', key, fileId);
      },
      lockGarment: ({ now, key, ms }: Call & { key: string; ms: number }) => this.lockGarment(now, key, ms),
      unlockGarment: ({ key, token }: Call & { key: string; token: string }) => {
        this.sql.exec('DELETE FROM garment_lock WHERE key = ? AND token = ?', key, token);
      },
      takeRequest: ({
        now,
        bucket,
        client,
        perMinute,
      }: Call & { bucket: RateBucket; client: string; perMinute: number }) =>
        this.takeRequest(now, bucket, client, perMinute),
      // One read: its allowance first (a limited client is told so whatever its photo), then its photo.
      takeReadAndCheck: ({
        now,
        rateNow,
        bucket,
        client,
        perMinute,
        photoId,
      }: Call & { rateNow: number; bucket: RateBucket; client: string; perMinute: number; photoId: string }) => {
        const waitSeconds = this.takeRequest(rateNow, bucket, client, perMinute);
        return {
          waitSeconds: waitSeconds ?? null,
          revoked: waitSeconds === undefined && this.live('forgotten', 'photo_id', photoId, now),
        };
      },
      usageAdd: ({
        now,
        day,
        counters,
        job,
      }: Call & {
        day: string;
        counters: UsageCounters;
        job?: { id: string; product: string; credits: number; keepMs: number };
      }) => this.usageAdd(now, day, counters, job),
      usageFailed: ({ now, jobId, code }: Call & { jobId: string; code: string }) => this.usageFailed(now, jobId, code),
      usageDays: ({ dates }: Call & { dates: string[] }) =>
        dates.map((date) =>
          Object.fromEntries(
            [
              ...this.sql.exec<{ field: string; n: number }>('SELECT field, n FROM usage_counter WHERE day = ?', date),
            ].map((row) => [row.field, row.n]),
          ),
        ),
      usageAlert: ({ day, threshold }: Call & { day: string; threshold: number }) => {
        if (
          firstRow(
            this.sql.exec<{ n: number }>(
              'SELECT COUNT(*) AS n FROM usage_alert WHERE day = ? AND threshold = ?',
              day,
              threshold,
            ),
          )!.n > 0
        )
          return false;
        this.sql.exec('INSERT INTO usage_alert (day, threshold) VALUES (?, ?)', day, threshold);
        return true;
      },
      createHandoff: ({ now, record, keepMs }: Call & { record: HandoffRecord; keepMs: number }) => {
        this.sweep(now);
        this.sql.exec(
          'INSERT INTO handoff (code, id, product, variant, expires_at, photo, until) VALUES (?, ?, ?, ?, ?, NULL, ?)',
          record.code,
          record.id,
          record.product,
          record.variant ?? null,
          record.expiresAt,
          record.expiresAt + keepMs,
        );
      },
      readHandoff: ({ now, id }: Call & { id: string }) => this.handoff(now, 'id', id),
      handoffByCode: ({ now, code }: Call & { code: string }) => this.handoff(now, 'code', code),
      // One event at a time in the object: the read and the write below are one step.
      receiveHandoff: ({
        now,
        code,
        photo,
        pairing,
      }: Call & { code: string; photo: string; pairing: HandoffPairing }): HandoffReceipt => {
        const receipt = receiptFor(this.handoff(now, 'code', code), now);
        if (receipt !== 'waiting') return receipt;
        this.sql.exec(
          'UPDATE handoff SET photo = ?, confirmation = ?, tries_left = ?, confirm_by = ? WHERE code = ?',
          photo,
          pairing.confirmation,
          pairing.triesLeft,
          pairing.confirmBy,
          code,
        );
        return 'received';
      },
      // Also one step: the read, the judging and the write of the tries left or the confirmation.
      confirmHandoff: ({ now, id, number }: Call & { id: string; number: string }): HandoffConfirmation => {
        const { confirmation, write } = confirmationFor(this.handoff(now, 'id', id), number, now);
        if (write && 'confirmed' in write) this.sql.exec('UPDATE handoff SET confirmed = 1 WHERE id = ?', id);
        else if (write) this.sql.exec('UPDATE handoff SET tries_left = ? WHERE id = ?', write.triesLeft, id);
        return confirmation;
      },
      ping: () => true,
    });
  }

  private usageCount(day: string, counters: UsageCounters): void {
    for (const [field, n] of Object.entries(counters)) {
      this.sql.exec(
        'INSERT INTO usage_counter (day, field, n) VALUES (?, ?, ?) ON CONFLICT (day, field) DO UPDATE SET n = n + excluded.n',
        day,
        field,
        n,
      );
    }
  }

  private usageAdd(
    now: number,
    day: string,
    counters: UsageCounters,
    job?: { id: string; product: string; credits: number; keepMs: number },
  ): void {
    this.sweep(now);
    this.usageCount(day, counters);
    if (job)
      this.sql.exec(
        'INSERT OR REPLACE INTO usage_job (job_id, day, product, credits, until) VALUES (?, ?, ?, ?, ?)',
        job.id,
        day,
        job.product,
        job.credits,
        now + job.keepMs,
      );
  }

  /** The job's credits come off the day they were counted on (once: its row goes), its error is today's. */
  private usageFailed(now: number, jobId: string, code: string): void {
    const job = firstRow(
      this.sql.exec<JobEntry>('SELECT day, product, credits FROM usage_job WHERE job_id = ?', jobId),
    );
    if (job) {
      this.sql.exec('DELETE FROM usage_job WHERE job_id = ?', jobId);
      this.usageCount(job.day, refundCounters(job));
    }
    this.usageCount(utcDay(now), { [`e:${code}`]: 1 });
  }

  /** spend-ledger.ts MemorySpendLedger.reserve, on tables. */
  private reserve(now: number, claim: SpendClaim, limits: WireLimits): Reservation {
    this.sweep(now);
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

  /** Forgotten until `until`, or longer if asked before. */
  private revoke(now: number, photoId: string, until: number): void {
    if (until <= now) return;
    this.sql.exec(
      'INSERT INTO forgotten (photo_id, until) VALUES (?, ?) ON CONFLICT (photo_id) DO UPDATE SET until = MAX(until, excluded.until)',
      photoId,
      until,
    );
  }

  /** A submit from the photo let out, unless it is forgotten: checked and counted in one step. */
  private beginSubmit(now: number, photoId: string, ms: number): string | undefined {
    this.sweep(now);
    if (this.live('forgotten', 'photo_id', photoId, now)) return undefined;
    const ticket = crypto.randomUUID();
    this.sql.exec('INSERT INTO submitting (photo_id, ticket, until) VALUES (?, ?, ?)', photoId, ticket, now + ms);
    return ticket;
  }

  private firstDelivery(now: number, id: string, ttlMs: number): boolean {
    this.sweep(now);
    if (this.live('webhook', 'id', id, now)) return false;
    this.sql.exec('INSERT OR REPLACE INTO webhook (id, until) VALUES (?, ?)', id, now + ttlMs);
    return true;
  }

  private lockGarment(now: number, key: string, ms: number): string | undefined {
    if (this.live('garment_lock', 'key', key, now)) return undefined;
    const token = crypto.randomUUID();
    this.sql.exec('INSERT OR REPLACE INTO garment_lock (key, token, until) VALUES (?, ?, ?)', key, token, now + ms);
    return token;
  }

  private handoff(now: number, column: 'id' | 'code', value: string): HandoffRecord | undefined {
    const row = firstRow(
      this.sql.exec<{
        code: string;
        id: string;
        product: string;
        variant: string | null;
        expires_at: number;
        photo: string | null;
        until: number;
        confirmation: string | null;
        tries_left: number | null;
        confirm_by: number | null;
        confirmed: number;
      }>(
        `SELECT code, id, product, variant, expires_at, photo, until, confirmation, tries_left, confirm_by, confirmed
           FROM handoff WHERE ${column} = ?`,
        value,
      ),
    );
    if (!row || row.until <= now) return undefined;
    return {
      id: row.id,
      code: row.code,
      product: row.product,
      expiresAt: row.expires_at,
      ...(row.variant !== null ? { variant: row.variant } : {}),
      ...(row.photo !== null ? { photo: row.photo } : {}),
      ...(row.confirmation !== null ? { confirmation: row.confirmation } : {}),
      ...(row.tries_left !== null ? { triesLeft: row.tries_left } : {}),
      ...(row.confirm_by !== null ? { confirmBy: row.confirm_by } : {}),
      ...(row.confirmed === 1 ? { confirmed: true } : {}),
    };
  }

  /** Whether `table` holds a row for `id` that has not expired. */
  private live(table: 'forgotten' | 'webhook' | 'garment_lock', column: string, id: string, now: number): boolean {
    return (
      (firstRow(this.sql.exec<{ until: number }>(`SELECT until FROM ${table} WHERE ${column} = ?`, id))?.until ?? 0) >
      now
    );
  }

  /**
   * A token bucket per client, refilled smoothly, as the memory store's. The bucket lives in this
   * object's memory, which is authoritative while the object lives (one instance, one event at a
   * time: every take is exact across isolates); its row is only where a restarted object starts
   * from. Writing the row on every read made each read wait for a storage commit (the output gate
   * holds the answer until it is durable), most of what a read cost here, so rows are
   * written in one batch at most BUCKETS_SAVED_EVERY_MS after a take (saveBuckets).
   */
  private takeRequest(now: number, bucket: RateBucket, client: string, perMinute: number): number | undefined {
    if (perMinute <= 0) return undefined;
    this.sweep(now);
    const refillPerMs = perMinute / 60_000;
    const key = `${bucket}\n${client}`;
    const held = this.buckets.get(key) ?? this.bucketRow(bucket, client);
    const tokens = held ? Math.min(perMinute, held.tokens + (now - held.at) * refillPerMs) : perMinute;
    const left = tokens < 1 ? tokens : tokens - 1;
    this.buckets.set(key, { bucket, client, tokens: left, at: now });
    this.unsaved.add(key);
    this.saveTimer ??= setTimeout(() => this.saveBuckets(), BUCKETS_SAVED_EVERY_MS);
    return tokens < 1 ? Math.ceil((1 - tokens) / refillPerMs / 1000) : undefined;
  }

  /** The bucket as last saved: where an object that was evicted or restarted starts from. */
  private bucketRow(bucket: RateBucket, client: string): Bucket | undefined {
    const row = firstRow(
      this.sql.exec<{ tokens: number; at: number }>(
        'SELECT tokens, at FROM rate WHERE bucket = ? AND client = ?',
        bucket,
        client,
      ),
    );
    return row && { bucket, client, tokens: row.tokens, at: row.at };
  }

  /**
   * Writes the buckets taken from since the last save, in one event: its statements are one
   * transaction, and the reads answered meanwhile wait for one commit, not one each. An object
   * evicted for being idle has saved long before (Cloudflare evicts after 10 s or more without
   * events; the save comes within 1 s); one that stops abruptly (a crash, a deploy
   * restarting it mid-burst) loses at most the takes of its last BUCKETS_SAVED_EVERY_MS, so a
   * client may read that many times again, never more than one minute's allowance.
   */
  private saveBuckets(): void {
    this.saveTimer = undefined;
    for (const key of this.unsaved) {
      const held = this.buckets.get(key);
      if (!held) continue;
      this.sql.exec(
        'INSERT OR REPLACE INTO rate (bucket, client, tokens, at) VALUES (?, ?, ?, ?)',
        held.bucket,
        held.client,
        held.tokens,
        held.at,
      );
    }
    this.unsaved.clear();
  }

  /** Drops what no request can need any more. A bucket idle for a minute is full again, as if absent. */
  private sweep(now: number): void {
    if (now - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    this.sql.exec('DELETE FROM held WHERE keep_until <= ?', now);
    for (const table of ['forgotten', 'submitting', 'webhook', 'garment_lock', 'handoff'])
      this.sql.exec(`DELETE FROM ${table} WHERE until <= ?`, now);
    this.sql.exec('DELETE FROM rate WHERE at <= ?', now - 60_000);
    for (const [key, held] of this.buckets)
      if (held.at <= now - 60_000) {
        this.buckets.delete(key);
        this.unsaved.delete(key);
      }
    const yesterday = utcDay(now - DAY_MS);
    this.sql.exec('DELETE FROM spend_day WHERE day < ?', yesterday);
    this.sql.exec('DELETE FROM spend_client WHERE day < ?', yesterday);
    const oldest = oldestKept(now);
    this.sql.exec('DELETE FROM usage_counter WHERE day < ?', oldest);
    this.sql.exec('DELETE FROM usage_alert WHERE day < ?', oldest);
    this.sql.exec('DELETE FROM usage_job WHERE until <= ?', now);
  }
}
