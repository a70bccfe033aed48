// Garment file ids (garment-ids.ts) for one process: the default store's. They may be kept in a
// FileIdCache (node.ts: a JSON file), so a restart does not upload the catalog's images again.
import type { Log } from '../operator/log.js';
import type { FileIdCache, GarmentIdStore } from './garment-ids.js';

export class MemoryGarmentIds implements GarmentIdStore {
  private readonly garments = new Map<string, string>();
  private readonly garmentLocks = new Map<string, { token: string; until: number }>();
  private garmentsLoaded?: Promise<void>;

  constructor(
    private readonly now: () => number,
    private readonly options: { fileIdCache?: FileIdCache | undefined; log?: Log | undefined } = {},
  ) {}

  async garmentId(key: string): Promise<string | undefined> {
    await this.loadGarments();
    return this.garments.get(key);
  }

  async saveGarmentId(key: string, fileId: string): Promise<void> {
    await this.loadGarments();
    this.garments.set(key, fileId);
    await this.persistGarments();
  }

  async forgetGarmentId(key: string, fileId: string): Promise<void> {
    await this.loadGarments();
    if (this.garments.get(key) !== fileId) return;
    this.garments.delete(key);
    await this.persistGarments();
  }

  async lockGarment(key: string, ms: number): Promise<string | undefined> {
    const now = this.now();
    const held = this.garmentLocks.get(key);
    if (held && held.until > now) return undefined;
    const token = crypto.randomUUID();
    this.garmentLocks.set(key, { token, until: now + ms });
    return token;
  }

  async unlockGarment(key: string, token: string): Promise<void> {
    if (this.garmentLocks.get(key)?.token === token) this.garmentLocks.delete(key);
  }

  private loadGarments(): Promise<void> {
    this.garmentsLoaded ??= (async () => {
      if (!this.options.fileIdCache) return;
      try {
        const saved = await this.options.fileIdCache.load();
        for (const [key, id] of Object.entries(saved)) {
          if (typeof id === 'string' && !this.garments.has(key)) this.garments.set(key, id);
        }
      } catch (error) {
        this.options.log?.({ level: 'warn', event: 'file_id_cache_unreadable', message: (error as Error).message });
      }
    })();
    return this.garmentsLoaded;
  }

  private async persistGarments(): Promise<void> {
    if (!this.options.fileIdCache) return;
    // A try-on output's person file (an outfit's base) lives as long as the try-on, not the
    // catalog: kept in memory, never written to the cache beside the catalog.
    await this.options.fileIdCache
      .save(Object.fromEntries([...this.garments].filter(([key]) => !key.startsWith('person:output:'))))
      .catch((error: Error) =>
        this.options.log?.({ level: 'warn', event: 'file_id_cache_unwritable', message: error.message }),
      );
  }
}
