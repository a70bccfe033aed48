// Garment file ids (garment-ids.ts) on Redis, so the cluster uploads each catalog image once: the
// id under `garment:<key>`, the upload lock under `garment-lock:<key>` (SET NX PX), both released
// only by their holder (DELETE_IF).
import type { Redis } from 'ioredis';
import { DELETE_IF, keyOf } from '../cluster/redis-keys.js';
import type { StoreRun } from '../cluster/outages.js';
import type { GarmentIdStore } from './garment-ids.js';

interface Scripts {
  tryonDeleteIf(key: string, value: string): Promise<number>;
}

export class RedisGarmentIds implements GarmentIdStore {
  private readonly scripts: Scripts;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Turns a Redis failure into the store's answer (503 store_unavailable). */
    private readonly run: StoreRun,
  ) {
    redis.defineCommand('tryonDeleteIf', { numberOfKeys: 1, lua: DELETE_IF });
    this.scripts = redis as unknown as Scripts;
  }

  private key(kind: string, id: string): string {
    return keyOf(this.prefix, kind, id);
  }

  async garmentId(key: string): Promise<string | undefined> {
    return this.run('garment_id', async () => (await this.redis.get(this.key('garment', key))) ?? undefined);
  }

  async saveGarmentId(key: string, fileId: string): Promise<void> {
    await this.run('garment_id', async () => {
      await this.redis.set(this.key('garment', key), fileId);
    });
  }

  async forgetGarmentId(key: string, fileId: string): Promise<void> {
    await this.run('garment_id', async () => {
      await this.scripts.tryonDeleteIf(this.key('garment', key), fileId);
    });
  }

  async lockGarment(key: string, ms: number): Promise<string | undefined> {
    const token = crypto.randomUUID();
    return this.run('garment_lock', async () =>
      (await this.redis.set(this.key('garment-lock', key), token, 'PX', Math.max(1, Math.round(ms)), 'NX')) === 'OK'
        ? token
        : undefined,
    );
  }

  async unlockGarment(key: string, token: string): Promise<void> {
    await this.run('garment_lock', async () => {
      await this.scripts.tryonDeleteIf(this.key('garment-lock', key), token);
    });
  }
}
