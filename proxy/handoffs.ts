// The desktop → phone hand-off: a desktop asks for one (POST /handoffs), shows its code as a QR
// code, and the shopper's phone uploads a photo with that code (POST /photos, field `handoff`).
// Two secrets, two jobs: the desktop holds the `handoff` handle (signed, reads the hand-off), the
// phone holds the `code` (short enough to type, may only give a photo, reads nothing). A code is
// single use and lives 10 minutes; every store takes the photo for a code in one atomic step, so
// two phones (or two instances) racing with one code give exactly one photo.
import { ProxyError } from './errors.js';

/** How long a code may be used. */
export const HANDOFF_TTL_MS = 10 * 60_000;
/** How long a hand-off is remembered after its code ends, so a late phone hears "used" or "expired", not "unknown". */
export const HANDOFF_KEEP_MS = 60 * 60_000;

/** What every instance knows of one hand-off. */
export interface HandoffRecord {
  /** The random id inside the desktop's handle. */
  id: string;
  /** The phone's code, normalised (handoffCodeOf). */
  code: string;
  product: string;
  variant?: string | undefined;
  /** When the code stops working, epoch milliseconds. */
  expiresAt: number;
  /** The photo handle the phone's upload made, once received. */
  photo?: string | undefined;
}

export type HandoffStatus = 'waiting' | 'received' | 'expired';

/** What taking the photo for a code came to: only `received` gave it. */
export type HandoffReceipt = 'received' | 'used' | 'expired' | 'unknown';

export function statusOf(record: HandoffRecord, now: number): HandoffStatus {
  if (record.photo) return 'received';
  return now >= record.expiresAt ? 'expired' : 'waiting';
}

/** Whether a photo may go to this hand-off now (before and at the atomic take: the same rule in every store). */
export function receiptFor(
  record: HandoffRecord | undefined,
  now: number,
): Exclude<HandoffReceipt, 'received'> | 'waiting' {
  if (!record) return 'unknown';
  if (record.photo) return 'used';
  return now >= record.expiresAt ? 'expired' : 'waiting';
}

// No 0/O, 1/I/L, U: a code read aloud or typed from a screen is not misread. 30 letters, 10 of
// them: about 2^49 codes, against a guesser held to the write rate limit (docs/security.md).
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 10;

/** A fresh random code (rejection sampling, so every letter is equally likely). */
export function newHandoffCode(): string {
  let code = '';
  while (code.length < CODE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      if (byte < 240 && code.length < CODE_LENGTH) code += ALPHABET[byte % ALPHABET.length];
    }
  }
  return code;
}

/** A code as typed ("k7qf3-mzd9x", spaces, dashes) in its one stored form; undefined when it cannot be one. */
export function handoffCodeOf(typed: string): string | undefined {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  return code.length === CODE_LENGTH && [...code].every((letter) => ALPHABET.includes(letter)) ? code : undefined;
}

/** The refusal a phone sees for a code that cannot take a photo. */
export function handoffRefusal(receipt: Exclude<HandoffReceipt, 'received'>): ProxyError {
  switch (receipt) {
    case 'used':
      return new ProxyError(
        409,
        'handoff_used',
        'This code has already been used. Ask for a new one on your computer.',
      );
    case 'expired':
      return new ProxyError(410, 'handoff_expired', 'This code has expired. Ask for a new one on your computer.');
    default:
      return new ProxyError(
        404,
        'handoff_unknown',
        'This code is not known. Check it, or ask for a new one on your computer.',
      );
  }
}
