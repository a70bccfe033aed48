// Hand-offs (phone-handoffs.ts) in the shop's Durable Object, both sides of the wire: the isolate's
// calls and the shop object's table, where taking a code's photo and judging a typed number are
// each one synchronous step (receiptFor and confirmationFor, as every store judges them).
import {
  confirmationFor,
  receiptFor,
  type HandoffConfirmation,
  type HandoffPairing,
  type HandoffReceipt,
  type HandoffRecord,
  type HandoffStore,
} from './phone-handoffs.js';
import { firstRow, type Call, type ShopCall, type ShopTables, type SqlStorage } from '../cluster/durable-wire.js';

/** Hand-offs in the shop object, one call each. */
export function durableHandoffs(call: ShopCall): HandoffStore {
  return {
    createHandoff: async (record, keepMs) => {
      await call('createHandoff', { record, keepMs });
    },
    readHandoff: async (id) => (await call<HandoffRecord | null>('readHandoff', { id })) ?? undefined,
    handoffByCode: async (code) => (await call<HandoffRecord | null>('handoffByCode', { code })) ?? undefined,
    receiveHandoff: (code, photo, pairing, now) =>
      call<HandoffReceipt>('receiveHandoff', { code, photo, pairing, now }),
    confirmHandoff: (id, number, now) => call<HandoffConfirmation>('confirmHandoff', { id, number, now }),
  };
}

/** The hand-off's pairing columns, each added once to a table made before pairing existed. */
const HANDOFF_PAIRING = [
  ['confirmation', 'TEXT'],
  ['tries_left', 'INTEGER'],
  ['confirm_by', 'INTEGER'],
  ['confirmed', 'INTEGER NOT NULL DEFAULT 0'],
] as const;

/** The hand-offs' table in the shop object: one row per code, dropped at `until`, some time after its code ends. */
export class HandoffTables implements ShopTables {
  readonly schema = [
    // The pairing columns (the phone's number, tries left, its deadline, confirmed) are added to
    // older objects' tables by HANDOFF_PAIRING, in migrate().
    `CREATE TABLE IF NOT EXISTS handoff (code TEXT PRIMARY KEY, id TEXT NOT NULL UNIQUE, product TEXT NOT NULL, variant TEXT,
     expires_at INTEGER NOT NULL, photo TEXT, until INTEGER NOT NULL)`,
  ];

  readonly operations = {
    createHandoff: ({ now, record, keepMs }: Call & { record: HandoffRecord; keepMs: number }) => {
      this.sweepAll(now);
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
  };

  constructor(
    private readonly sql: SqlStorage,
    /** The shop object's sweep of every part (at most once a minute), which a new hand-off asks for first. */
    private readonly sweepAll: (now: number) => void,
  ) {}

  migrate(): void {
    for (const [column, type] of HANDOFF_PAIRING) {
      try {
        this.sql.exec(`SELECT ${column} FROM handoff LIMIT 0`);
      } catch {
        this.sql.exec(`ALTER TABLE handoff ADD COLUMN ${column} ${type}`);
      }
    }
  }

  sweep(now: number): void {
    this.sql.exec('DELETE FROM handoff WHERE until <= ?', now);
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
}
