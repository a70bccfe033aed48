// Try-on statuses (status-store.ts) for one process: the default store's. The most recent try-ons
// only, so memory stays bounded; there is no other instance to tell of a new snapshot.
import { mergeStatus, type StatusRecord, type StatusWrite, type TryonStatusStore } from './status-store.js';

/** How many try-ons are remembered; the oldest go first. */
const MAX_TRYONS = 20_000;

export class MemoryTryonStatuses implements TryonStatusStore {
  private readonly statuses = new Map<string, StatusRecord>();
  private readonly polls = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async readStatus(jobId: string): Promise<StatusRecord | undefined> {
    return this.statuses.get(jobId);
  }

  async writeStatus(jobId: string, record: StatusRecord): Promise<StatusWrite> {
    const written = mergeStatus(this.statuses.get(jobId), record);
    this.remember(jobId, written.record);
    return written;
  }

  async seedStatus(jobId: string, record: StatusRecord): Promise<void> {
    if (!this.statuses.has(jobId)) this.remember(jobId, record);
  }

  private remember(jobId: string, record: StatusRecord): void {
    this.statuses.set(jobId, record);
    if (this.statuses.size > MAX_TRYONS) {
      for (const id of this.statuses.keys()) {
        this.statuses.delete(id);
        this.polls.delete(id);
        if (this.statuses.size <= MAX_TRYONS * 0.9) break;
      }
    }
  }

  async claimPoll(jobId: string, ms: number): Promise<boolean> {
    const now = this.now();
    if ((this.polls.get(jobId) ?? -Infinity) > now) return false;
    this.polls.set(jobId, now + ms);
    return true;
  }

  async releasePoll(jobId: string): Promise<void> {
    this.polls.delete(jobId);
  }

  /** One process: the board delivers its own snapshots; there is no other instance to tell. */
  async publish(): Promise<void> {}

  onPublished(): () => void {
    return () => undefined;
  }
}
