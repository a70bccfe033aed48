// Hand-offs (phone-handoffs.ts) for one process: the default store's. Kept by code, and each one's
// code by its id; every method does its work before its first await, so taking a code's photo and
// judging a number are each one step on the event loop.
import {
  confirmationFor,
  receiptFor,
  type HandoffConfirmation,
  type HandoffPairing,
  type HandoffReceipt,
  type HandoffRecord,
  type HandoffStore,
} from './phone-handoffs.js';

export class MemoryHandoffs implements HandoffStore {
  /** Hand-offs by code, and each one's code by its id, with when each is dropped. */
  private readonly handoffs = new Map<string, { record: HandoffRecord; until: number }>();
  private readonly handoffCodes = new Map<string, string>();

  constructor(private readonly now: () => number = Date.now) {}

  async createHandoff(record: HandoffRecord, keepMs: number): Promise<void> {
    this.sweepHandoffs();
    this.handoffs.set(record.code, { record: { ...record }, until: record.expiresAt + keepMs });
    this.handoffCodes.set(record.id, record.code);
  }

  async readHandoff(id: string): Promise<HandoffRecord | undefined> {
    const code = this.handoffCodes.get(id);
    return code === undefined ? undefined : this.handoffByCode(code);
  }

  async handoffByCode(code: string): Promise<HandoffRecord | undefined> {
    const held = this.handoffs.get(code);
    return held && held.until > this.now() ? { ...held.record } : undefined;
  }

  async receiveHandoff(code: string, photo: string, pairing: HandoffPairing, now: number): Promise<HandoffReceipt> {
    const held = this.handoffs.get(code);
    const receipt = receiptFor(held && held.until > now ? held.record : undefined, now);
    if (receipt !== 'waiting') return receipt;
    Object.assign(held!.record, { photo, ...pairing });
    return 'received';
  }

  async confirmHandoff(id: string, number: string, now: number): Promise<HandoffConfirmation> {
    const code = this.handoffCodes.get(id);
    const held = code === undefined ? undefined : this.handoffs.get(code);
    const { confirmation, write } = confirmationFor(held && held.until > now ? held.record : undefined, number, now);
    if (write) Object.assign(held!.record, write);
    return confirmation;
  }

  /** Hand-offs past their keeping are dropped as new ones come, so memory stays bounded by the rate limit. */
  private sweepHandoffs(): void {
    const now = this.now();
    for (const [code, held] of this.handoffs) {
      if (held.until > now) continue;
      this.handoffs.delete(code);
      this.handoffCodes.delete(held.record.id);
    }
  }
}
