// Where every instance keeps the upstream file id of each catalog image (garment-files.ts uploads
// each once for the cluster, under a lock): the store's part in it, the same in every store
// (garment-ids-memory.ts, -redis.ts, -durable.ts).

/** The store's part in catalog images: their file ids, and the lock the first upload holds. */
export interface GarmentIdStore {
  garmentId(key: string): Promise<string | undefined>;
  saveGarmentId(key: string, fileId: string): Promise<void>;
  /** Forgets `fileId` (upstream no longer knows it) unless another instance replaced it already. */
  forgetGarmentId(key: string, fileId: string): Promise<void>;
  /** A lock token when granted, undefined while someone else holds the lock. */
  lockGarment(key: string, ms: number): Promise<string | undefined>;
  unlockGarment(key: string, token: string): Promise<void>;
}

/** Where one process keeps its garment file ids across restarts (node.ts: a JSON file beside the catalog). */
export interface FileIdCache {
  load(): Promise<Record<string, string>>;
  save(map: Record<string, string>): Promise<void>;
}
