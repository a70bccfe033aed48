// Recent try-on times (tryon-times.ts) in the shop's Durable Object, both sides of the wire: the
// isolate's calls and the shop object's table, where adding a time and trimming its kind to the
// window is one step.
import type { TryonTimeStore } from './tryon-times.js';
import type { Call, ShopCall, ShopTables, SqlStorage } from '../cluster/durable-wire.js';

export function durableTryonTimes(call: ShopCall): TryonTimeStore {
  return {
    addTryonTime: async (kind, seconds, keep) => {
      await call('tryonTimeAdd', { kind, seconds, keep });
    },
    tryonTimes: (kinds) => call<number[][]>('tryonTimes', { kinds }),
  };
}

/** The try-on times' table in the shop object: bounded per kind when written, so nothing to sweep. */
export class TryonTimeTables implements ShopTables {
  readonly schema = [
    'CREATE TABLE IF NOT EXISTS tryon_time (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, seconds REAL NOT NULL)',
    'CREATE INDEX IF NOT EXISTS tryon_time_kind ON tryon_time (kind, seq)',
  ];

  readonly operations = {
    tryonTimeAdd: ({ kind, seconds, keep }: Call & { kind: string; seconds: number; keep: number }) =>
      this.add(kind, seconds, keep),
    tryonTimes: ({ kinds }: Call & { kinds: string[] }) => kinds.map((kind) => this.times(kind)),
  };

  constructor(private readonly sql: SqlStorage) {}

  sweep(): void {}

  private add(kind: string, seconds: number, keep: number): void {
    this.sql.exec('INSERT INTO tryon_time (kind, seconds) VALUES (?, ?)', kind, seconds);
    this.sql.exec(
      'DELETE FROM tryon_time WHERE kind = ? AND seq NOT IN (SELECT seq FROM tryon_time WHERE kind = ? ORDER BY seq DESC LIMIT ?)',
      kind,
      kind,
      keep,
    );
  }

  private times(kind: string): number[] {
    return [
      ...this.sql.exec<{ seconds: number }>('SELECT seconds FROM tryon_time WHERE kind = ? ORDER BY seq DESC', kind),
    ].map((row) => row.seconds);
  }
}
