// Each product's garment image (or reference person image) is uploaded to /v1/files once; its
// file id is cached (and optionally persisted, so a restart does not upload again). Concurrent
// first requests share one upload.
import { ProxyError } from './errors.js';
import { sniffPhotoType } from './image-signatures.js';
import type { Upstream } from './upstream/client.js';

export interface FileIdCache {
  load(): Promise<Record<string, string>>;
  save(map: Record<string, string>): Promise<void>;
}

export type ReadAsset = (path: string) => Promise<Uint8Array>;

export class GarmentFiles {
  private ids = new Map<string, Promise<string>>();
  private loaded?: Promise<void>;

  constructor(
    private readonly upstream: Upstream,
    private readonly options: {
      assetsDir?: string | undefined;
      readAsset?: ReadAsset | undefined;
      cache?: FileIdCache | undefined;
      fetch?: typeof fetch | undefined;
      log: (entry: Record<string, unknown>) => void;
    },
  ) {}

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      if (!this.options.cache) return;
      try {
        const saved = await this.options.cache.load();
        for (const [key, id] of Object.entries(saved)) {
          if (typeof id === 'string' && !this.ids.has(key)) this.ids.set(key, Promise.resolve(id));
        }
      } catch (error) {
        this.options.log({ level: 'warn', event: 'file_id_cache_unreadable', message: (error as Error).message });
      }
    })();
    return this.loaded;
  }

  /** The upstream file id of a catalog image, uploading it on first use. */
  async fileId(path: string, kind: 'garment' | 'person'): Promise<string> {
    await this.load();
    const key = `${kind}:${path}`;
    let id = this.ids.get(key);
    if (!id) {
      id = this.upload(path, kind);
      this.ids.set(key, id);
      // A failed upload is forgotten so the next request tries again.
      id.then(() => this.persist(), () => this.ids.delete(key));
    }
    return id;
  }

  /** Drops a remembered id (upstream no longer knows it); the next use uploads again. */
  forget(path: string, kind: 'garment' | 'person'): void {
    this.ids.delete(`${kind}:${path}`);
    void this.persist();
  }

  private async upload(path: string, kind: 'garment' | 'person'): Promise<string> {
    const bytes = await this.read(path);
    const type = sniffPhotoType(bytes.subarray(0, 64));
    if (!type) {
      this.options.log({ level: 'error', event: 'catalog_image_not_a_photo', path });
      throw new ProxyError(500, 'internal_error', 'This product’s try-on is not set up correctly.');
    }
    const { id } = await this.upstream.uploadFile(bytes, { kind, contentType: type.contentType, filename: `${kind}.${type.extension}` });
    this.options.log({ event: 'catalog_image_uploaded', path, kind });
    return id;
  }

  private async read(path: string): Promise<Uint8Array> {
    try {
      if (/^https?:\/\//.test(path)) {
        const response = await (this.options.fetch ?? fetch)(path);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return new Uint8Array(await response.arrayBuffer());
      }
      if (!this.options.readAsset) throw new Error('no readAsset option to read catalog images with');
      const base = this.options.assetsDir ? this.options.assetsDir.replace(/\/+$/, '') + '/' : '';
      if (path.split(/[\\/]/).includes('..')) throw new Error('catalog image paths may not contain ".."');
      return await this.options.readAsset(path.startsWith('/') ? path : base + path);
    } catch (error) {
      this.options.log({ level: 'error', event: 'catalog_image_unreadable', path, message: (error as Error).message });
      throw new ProxyError(500, 'internal_error', 'This product’s try-on is not set up correctly.');
    }
  }

  private async persist(): Promise<void> {
    if (!this.options.cache) return;
    const map: Record<string, string> = {};
    for (const [key, id] of this.ids) {
      const value = await id.catch(() => undefined);
      if (value) map[key] = value;
    }
    await this.options.cache.save(map).catch((error: Error) =>
      this.options.log({ level: 'warn', event: 'file_id_cache_unwritable', message: error.message }));
  }
}
