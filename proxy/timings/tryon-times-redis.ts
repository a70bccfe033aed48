// Recent try-on times (tryon-times.ts) on Redis, shared by every instance: a list per kind, pushed
// and trimmed in one MULTI so it never holds more than its window, and every kind a product needs
// read in one pipeline. The lists share one hash tag ({tryon:tryon-time}), so on Redis Cluster
// that pipeline is one slot's.
import type { Redis } from 'ioredis';
import { taggedGroup } from '../cluster/redis-keys.js';
import type { StoreRun } from '../cluster/outages.js';
import type { TryonTimeStore } from './tryon-times.js';

export class RedisTryonTimes implements TryonTimeStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Turns a Redis failure into the store's answer (503 store_unavailable). */
    private readonly run: StoreRun,
  ) {}

  private key(kind: string): string {
    return `${taggedGroup(this.prefix, 'tryon-time')}:${kind}`;
  }

  async addTryonTime(kind: string, seconds: number, keep: number): Promise<void> {
    await this.run('tryon_time', async () => {
      const key = this.key(kind);
      const answers = await this.redis
        .multi()
        .lpush(key, String(seconds))
        .ltrim(key, 0, keep - 1)
        .exec();
      const failed = answers?.find(([error]) => error)?.[0];
      if (!answers || failed) throw failed ?? new Error('the try-on time was not written');
    });
  }

  async tryonTimes(kinds: readonly string[]): Promise<number[][]> {
    return this.run('tryon_times', async () => {
      const pipeline = this.redis.pipeline();
      for (const kind of kinds) pipeline.lrange(this.key(kind), 0, -1);
      const answers = (await pipeline.exec()) ?? [];
      return kinds.map((_, i) => {
        const [error, values] = answers[i] ?? [new Error('no answer')];
        if (error) throw error;
        return (values as string[]).map(Number).filter((value) => Number.isFinite(value) && value > 0);
      });
    });
  }
}
