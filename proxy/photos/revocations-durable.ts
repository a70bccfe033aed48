// Forgotten photos (revocations.ts) in the shop's Durable Object, both sides of the wire: the
// isolate's calls, each decided by the caller's clock as the memory store's are, and the shop
// object's tables, forgotten photo ids and the submits under way from each, where the fence is one
// synchronous step (a submit is let out and counted only while its photo is not forgotten).
import type { RateBucket } from '../limits/rate-limit.js';
import type { PhotoRevocations } from './revocations.js';
import {
  firstRow,
  liveRow,
  type Call,
  type ShopCall,
  type ShopTables,
  type SqlStorage,
} from '../cluster/durable-wire.js';

/**
 * Forgotten photos and their submits under way in the shop object. `storeNow` is the store's own
 * clock, which the rate limit of a read is taken by (as every other take of the store's).
 */
export function durableRevocations(call: ShopCall, now: () => number, storeNow: () => number): PhotoRevocations {
  return {
    revoke: async (photoId, until) => {
      await call('revoke', { photoId, until, now: now() });
    },
    isRevoked: async (photoId) => call<boolean>('isRevoked', { photoId, now: now() }),
    beginSubmit: async (photoId, ms) =>
      (await call<string | null>('beginSubmit', { photoId, ms, now: now() })) ?? undefined,
    endSubmit: async (photoId, ticket) => {
      await call('endSubmit', { photoId, ticket, now: now() });
    },
    submitsUnderWay: async (photoId) => call<number>('submitsUnderWay', { photoId, now: now() }),
    // A status or file read asks the shop object once, not once for its allowance and again for its
    // photo: the object answers it from both parts (store/durable-shop.ts).
    takeReadAndCheck: async ({ bucket, perMinute }: { bucket: RateBucket; perMinute: number }, client, photoId) => {
      const answer = await call<{ waitSeconds: number | null; revoked: boolean }>('takeReadAndCheck', {
        bucket,
        client,
        perMinute,
        photoId,
        rateNow: storeNow(),
        now: now(),
      });
      return { waitSeconds: answer.waitSeconds ?? undefined, revoked: answer.revoked };
    },
  };
}

/** The forgotten photos' tables in the shop object. */
export class RevocationTables implements ShopTables {
  readonly schema = [
    'CREATE TABLE IF NOT EXISTS forgotten (photo_id TEXT PRIMARY KEY, until INTEGER NOT NULL)',
    'CREATE TABLE IF NOT EXISTS submitting (photo_id TEXT NOT NULL, ticket TEXT NOT NULL, until INTEGER NOT NULL, PRIMARY KEY (photo_id, ticket))',
  ];

  readonly operations = {
    revoke: ({ now, photoId, until }: Call & { photoId: string; until: number }) => this.revoke(now, photoId, until),
    isRevoked: ({ now, photoId }: Call & { photoId: string }) => this.isRevoked(photoId, now),
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
  };

  constructor(
    private readonly sql: SqlStorage,
    /** The shop object's sweep of every part (at most once a minute), which a submit asks for first. */
    private readonly sweepAll: (now: number) => void,
  ) {}

  sweep(now: number): void {
    for (const table of ['forgotten', 'submitting']) this.sql.exec(`DELETE FROM ${table} WHERE until <= ?`, now);
  }

  /** Whether the photo is forgotten now (also the second half of a read's one step, takeReadAndCheck). */
  isRevoked(photoId: string, now: number): boolean {
    return liveRow(this.sql, 'forgotten', 'photo_id', photoId, now);
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
    this.sweepAll(now);
    if (this.isRevoked(photoId, now)) return undefined;
    const ticket = crypto.randomUUID();
    this.sql.exec('INSERT INTO submitting (photo_id, ticket, until) VALUES (?, ?, ?)', photoId, ticket, now + ms);
    return ticket;
  }
}
