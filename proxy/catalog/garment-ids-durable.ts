// Garment file ids (garment-ids.ts) in the shop's Durable Object, both sides of the wire: the
// isolate's calls and the shop object's tables, the ids and the upload lock.
import type { GarmentIdStore } from './garment-ids.js';
import {
  firstRow,
  liveRow,
  type Call,
  type ShopCall,
  type ShopTables,
  type SqlStorage,
} from '../cluster/durable-wire.js';

/** Garment file ids and their upload lock in the shop object, one call each. */
export function durableGarmentIds(call: ShopCall): GarmentIdStore {
  return {
    garmentId: async (key) => (await call<string | null>('garmentId', { key })) ?? undefined,
    saveGarmentId: async (key, fileId) => {
      await call('saveGarmentId', { key, fileId });
    },
    forgetGarmentId: async (key, fileId) => {
      await call('forgetGarmentId', { key, fileId });
    },
    lockGarment: async (key, ms) => (await call<string | null>('lockGarment', { key, ms })) ?? undefined,
    unlockGarment: async (key, token) => {
      await call('unlockGarment', { key, token });
    },
  };
}

/** The garment ids' tables in the shop object. */
export class GarmentTables implements ShopTables {
  readonly schema = [
    'CREATE TABLE IF NOT EXISTS garment (key TEXT PRIMARY KEY, file_id TEXT NOT NULL)',
    'CREATE TABLE IF NOT EXISTS garment_lock (key TEXT PRIMARY KEY, token TEXT NOT NULL, until INTEGER NOT NULL)',
  ];

  readonly operations = {
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
  };

  constructor(private readonly sql: SqlStorage) {}

  sweep(now: number): void {
    this.sql.exec('DELETE FROM garment_lock WHERE until <= ?', now);
  }

  private lockGarment(now: number, key: string, ms: number): string | undefined {
    if (liveRow(this.sql, 'garment_lock', 'key', key, now)) return undefined;
    const token = crypto.randomUUID();
    this.sql.exec('INSERT OR REPLACE INTO garment_lock (key, token, until) VALUES (?, ?, ?)', key, token, now + ms);
    return token;
  }
}
