// The desktop → phone hand-off: a desktop asks for one (POST /handoffs), shows its code as a QR
// code, and the shopper's phone uploads a photo with that code (POST /photos, field `handoff`).
// Two secrets, two jobs: the desktop holds the `handoff` handle (signed, reads the hand-off), the
// phone holds the `code` (short enough to type, may only give a photo, reads nothing). A code is
// single use and lives 10 minutes; every store takes the photo for a code in one atomic step, so
// two phones (or two instances) racing with one code give exactly one photo.
//
// The pairing is mutual: a link with a code can come from anyone (an attacker starts a hand-off
// and sends the phone link), so the phone alone cannot know whose computer it sends to. After the
// upload the phone shows a confirmation number, and the desktop gets the photo only once that
// number is typed there (POST /handoffs/{h}/confirm). The number travels the other way from the
// code on purpose: one shown on the desktop could be sent along with the link. Wrong numbers are
// counted down in one atomic step of every store; when the tries are used up the hand-off ends.
import { constantTimeEqual } from '../security/crypto.js';
import { ProxyError } from '../http/errors.js';

/** How long a code may be used. */
export const HANDOFF_TTL_MS = 10 * 60_000;
/** How long a hand-off is remembered after its code ends, so a late phone hears "used" or "expired", not "unknown". */
export const HANDOFF_KEEP_MS = 60 * 60_000;

/** How long the desktop has to type the phone's number once the photo has come. */
export const HANDOFF_CONFIRM_MS = 5 * 60_000;
/**
 * Wrong numbers allowed before the hand-off ends. With 6 digits a guesser's chance is 5 in a
 * million per hand-off, and each hand-off needs a shopper's own upload to be worth guessing at.
 */
export const HANDOFF_TRIES = 5;
const NUMBER_LENGTH = 6;

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
  /** The photo handle the phone's upload made, once it came (given to the desktop only once confirmed). */
  photo?: string | undefined;
  /** The number the phone showed with its upload, which the desktop must type. */
  confirmation?: string | undefined;
  /** Wrong numbers still allowed; 0 ends the hand-off. */
  triesLeft?: number | undefined;
  /** Until when the number may be typed, epoch milliseconds. */
  confirmBy?: number | undefined;
  /** The right number was typed on the desktop: the photo is the desktop's. */
  confirmed?: boolean | undefined;
}

/** What the phone's upload leaves on a hand-off besides its photo. */
export type HandoffPairing = Required<Pick<HandoffRecord, 'confirmation' | 'triesLeft' | 'confirmBy'>>;

/** The pairing of an upload received at `now`: a fresh number, every try, the time to type it. */
export const newPairing = (now: number): HandoffPairing => ({
  confirmation: newConfirmationNumber(),
  triesLeft: HANDOFF_TRIES,
  confirmBy: now + HANDOFF_CONFIRM_MS,
});

export type HandoffStatus = 'waiting' | 'confirming' | 'received' | 'expired';

/**
 * What typing a number on the desktop came to: `received` (right, the photo is now the
 * desktop's), `wrong` (tries remain), `locked` (no tries remain: this or an earlier guess used the
 * last); or the hand-off was not confirming (`waiting`, `expired`, already `confirmed`, `unknown`).
 */
export type HandoffConfirmation =
  | { outcome: 'received'; photo: string }
  | { outcome: 'wrong'; triesLeft: number }
  | { outcome: 'locked' | 'waiting' | 'expired' | 'confirmed' | 'unknown' };

/** What taking the photo for a code came to: only `received` gave it. */
export type HandoffReceipt = 'received' | 'used' | 'expired' | 'unknown';

/**
 * The store's part in hand-offs, the same in every store (phone-handoffs-memory.ts, -redis.ts,
 * -durable.ts): every instance sees each one, kept until `keepMs` after its code ends.
 */
export interface HandoffStore {
  /** Keeps a new hand-off, by its code and by its id, until `keepMs` after its code ends. */
  createHandoff(record: HandoffRecord, keepMs: number): Promise<void>;
  /** The hand-off of a desktop's handle id. */
  readHandoff(id: string): Promise<HandoffRecord | undefined>;
  /** The hand-off of a phone's code (checked before an upload is let through, and again by receiveHandoff). */
  handoffByCode(code: string): Promise<HandoffRecord | undefined>;
  /**
   * Gives `photo` (with the phone's confirmation number, its tries and deadline) to the waiting
   * hand-off of `code` in one atomic step: exactly one call per code in the cluster is `received`.
   */
  receiveHandoff(code: string, photo: string, pairing: HandoffPairing, now: number): Promise<HandoffReceipt>;
  /**
   * Judges a number typed on the desktop of hand-off `id` in one atomic step (confirmationFor,
   * below): a right number confirms, a wrong one takes a try, so parallel guesses on any instances
   * never get more than the tries allowed.
   */
  confirmHandoff(id: string, number: string, now: number): Promise<HandoffConfirmation>;
}

/**
 * A photo without a confirmation (one stored before pairing existed) never counts as confirming:
 * no photo reaches a desktop that did not type the phone's number.
 */
export function statusOf(record: HandoffRecord, now: number): HandoffStatus {
  if (record.confirmed && record.photo) return 'received';
  if (record.photo)
    return record.confirmation && (record.triesLeft ?? 0) > 0 && now < (record.confirmBy ?? 0)
      ? 'confirming'
      : 'expired';
  return now >= record.expiresAt ? 'expired' : 'waiting';
}

/** Until when the hand-off's present state lasts: the code's end while waiting, the number's while confirming. */
export const stateEndsAt = (record: HandoffRecord): number =>
  record.photo ? (record.confirmBy ?? record.expiresAt) : record.expiresAt;

/**
 * Judges a typed number against the record, as every store does inside its one atomic step (the
 * Redis store mirrors it in Lua): the counter goes down by one on each wrong number, never below 0.
 */
export function confirmationFor(
  record: HandoffRecord | undefined,
  number: string,
  now: number,
): { confirmation: HandoffConfirmation; write?: { confirmed: true } | { triesLeft: number } } {
  if (!record) return { confirmation: { outcome: 'unknown' } };
  if (record.confirmed) return { confirmation: { outcome: 'confirmed' } };
  if (!record.photo) return { confirmation: { outcome: now >= record.expiresAt ? 'expired' : 'waiting' } };
  const tries = record.triesLeft ?? 0;
  if (!record.confirmation || tries <= 0) return { confirmation: { outcome: 'locked' } };
  if (now >= (record.confirmBy ?? 0)) return { confirmation: { outcome: 'expired' } };
  if (constantTimeEqual(record.confirmation, number))
    return { confirmation: { outcome: 'received', photo: record.photo }, write: { confirmed: true } };
  const left = tries - 1;
  return {
    confirmation: left > 0 ? { outcome: 'wrong', triesLeft: left } : { outcome: 'locked' },
    write: { triesLeft: left },
  };
}

/** A fresh confirmation number, `NUMBER_LENGTH` decimal digits, every one equally likely (rejection sampling). */
export function newConfirmationNumber(): string {
  let number = '';
  while (number.length < NUMBER_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      if (byte < 250 && number.length < NUMBER_LENGTH) number += String(byte % 10);
    }
  }
  return number;
}

/** A number as typed ("123 456", "123-456") in its one form; undefined when it cannot be one. */
export function confirmationNumberOf(typed: unknown): string | undefined {
  if (typeof typed !== 'string') return undefined;
  const number = typed.replace(/[\s-]/g, '');
  return number.length === NUMBER_LENGTH && /^[0-9]+$/.test(number) ? number : undefined;
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

/** A wrong number on the desktop: the answer says how many tries are left. */
export class WrongConfirmation extends ProxyError {
  constructor(readonly triesLeft: number) {
    super(
      422,
      'handoff_wrong_number',
      `That is not the number your phone shows. ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`,
    );
    this.name = 'WrongConfirmation';
  }

  override body(): ReturnType<ProxyError['body']> & { error: { triesLeft: number } } {
    const body = super.body();
    return { error: { ...body.error, triesLeft: this.triesLeft } };
  }
}

/** The refusal a desktop sees for a number that confirmed nothing. */
export function confirmationRefusal(confirmation: HandoffConfirmation): ProxyError {
  switch (confirmation.outcome) {
    case 'wrong':
      return new WrongConfirmation(confirmation.triesLeft);
    case 'locked':
      return new ProxyError(
        410,
        'handoff_tries_used',
        'Too many wrong numbers: this hand-off has ended and its photo will not be given. Start again.',
      );
    case 'waiting':
      return new ProxyError(409, 'handoff_waiting', 'No photo has come from the phone yet.');
    case 'confirmed':
      return new ProxyError(409, 'handoff_confirmed', 'This hand-off is already confirmed.');
    case 'expired':
      return new ProxyError(410, 'handoff_expired', 'This hand-off has expired. Start again.');
    default:
      return new ProxyError(404, 'invalid_handle', 'This hand-off link is not valid.');
  }
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
