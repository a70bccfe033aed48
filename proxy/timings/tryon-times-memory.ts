// Recent try-on times (tryon-times.ts) for one process: a short list per kind, newest first.
import type { TryonTimeStore } from './tryon-times.js';

export class MemoryTryonTimes implements TryonTimeStore {
  private readonly kinds = new Map<string, number[]>();

  async addTryonTime(kind: string, seconds: number, keep: number): Promise<void> {
    const times = [seconds, ...(this.kinds.get(kind) ?? [])].slice(0, keep);
    this.kinds.set(kind, times);
  }

  async tryonTimes(kinds: readonly string[]): Promise<number[][]> {
    return kinds.map((kind) => [...(this.kinds.get(kind) ?? [])]);
  }
}
