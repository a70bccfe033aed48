// Forgotten photos for one process (revocations.ts says what forgetting means): the default
// store's. Each method does its work before its first await, so a forget and a submit's check
// are each one step on the event loop.
import type { PhotoRevocations } from './revocations.js';

/** How often, at most, the in-memory revocations sweep out records that have outlived their handles. */
const SWEEP_EVERY_MS = 60_000;

export class PhotoRevocationsInMemory implements PhotoRevocations {
  private readonly until = new Map<string, number>();
  /** Per photo, the tickets of submits under way and when each lapses. */
  private readonly submits = new Map<string, Map<string, number>>();
  private nextSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async revoke(photoId: string, until: number): Promise<void> {
    this.sweep();
    if (until <= this.now()) return;
    this.until.set(photoId, Math.max(this.until.get(photoId) ?? 0, until));
  }

  async isRevoked(photoId: string): Promise<boolean> {
    return this.revoked(photoId);
  }

  /** Synchronous, so beginSubmit checks and counts in one step on the event loop. */
  private revoked(photoId: string): boolean {
    const until = this.until.get(photoId);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(photoId);
    return false;
  }

  async beginSubmit(photoId: string, ms: number): Promise<string | undefined> {
    if (this.revoked(photoId)) return undefined;
    const ticket = crypto.randomUUID();
    const tickets = this.submits.get(photoId) ?? new Map<string, number>();
    tickets.set(ticket, this.now() + ms);
    this.submits.set(photoId, tickets);
    return ticket;
  }

  async endSubmit(photoId: string, ticket: string): Promise<void> {
    const tickets = this.submits.get(photoId);
    tickets?.delete(ticket);
    if (tickets?.size === 0) this.submits.delete(photoId);
  }

  async submitsUnderWay(photoId: string): Promise<number> {
    const tickets = this.submits.get(photoId);
    if (!tickets) return 0;
    const now = this.now();
    for (const [ticket, lapses] of tickets) if (lapses <= now) tickets.delete(ticket);
    if (tickets.size === 0) this.submits.delete(photoId);
    return tickets.size;
  }

  /** Records held now (for tests and metrics). */
  get size(): number {
    return this.until.size;
  }

  private sweep(): void {
    const now = this.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    for (const [photoId, until] of this.until) if (until <= now) this.until.delete(photoId);
  }
}
