// Each catalog image (a product's or a variant's garment image or reference person image) is
// uploaded to /v1/files once for the whole cluster and remembered by its path, so a variant with a
// picture of its own gets its own upload and one that keeps the product's shares it. The file id
// is kept in the store (the memory store may persist it, so a restart does not upload again), and
// the first upload holds the store's lock on the image, so concurrent first requests on every
// instance share one upload.
import { ProxyError } from './errors.js';
import { sniffPhotoType } from './image-signatures.js';
import type { Upstream } from './upstream/client.js';
import type { ProxyStore } from './store/store.js';

export interface FileIdCache {
  load(): Promise<Record<string, string>>;
  save(map: Record<string, string>): Promise<void>;
}

export type ReadAsset = (path: string) => Promise<Uint8Array>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class GarmentFiles {
  /** Uploads under way in this instance (the store's lock keeps other instances from starting their own). */
  private readonly uploading = new Map<string, Promise<string>>();

  constructor(
    private readonly upstream: Upstream,
    private readonly store: ProxyStore,
    private readonly options: {
      assetsDir?: string | undefined;
      readAsset?: ReadAsset | undefined;
      fetch?: typeof fetch | undefined;
      /** How long one upload may hold the cluster's lock on an image. */
      uploadTimeoutMs: number;
      log: (entry: Record<string, unknown>) => void;
    },
  ) {}

  /** The upstream file id of a catalog image, uploading it on first use. */
  async fileId(path: string, kind: 'garment' | 'person'): Promise<string> {
    const key = `${kind}:${path}`;
    const known = await this.store.garmentId(key);
    if (known) return known;
    let id = this.uploading.get(key);
    if (!id) {
      // A failed upload is forgotten so the next request tries again.
      id = this.uploadOnce(key, path, kind).finally(() => this.uploading.delete(key));
      this.uploading.set(key, id);
    }
    return id;
  }

  /** Drops a remembered id (upstream no longer knows it); the next use uploads again. */
  async forget(path: string, kind: 'garment' | 'person', fileId: string): Promise<void> {
    await this.store.forgetGarmentId(`${kind}:${path}`, fileId);
  }

  /** Uploads under the cluster's lock, or waits for the instance that holds it. */
  private async uploadOnce(key: string, path: string, kind: 'garment' | 'person'): Promise<string> {
    const lockMs = this.options.uploadTimeoutMs + 5_000;
    const giveUpAt = Date.now() + 2 * lockMs;
    for (;;) {
      const token = await this.store.lockGarment(key, lockMs);
      if (token) {
        try {
          const saved = await this.store.garmentId(key);
          if (saved) return saved;
          const id = await this.upload(path, kind);
          await this.store.saveGarmentId(key, id);
          return id;
        } finally {
          await this.store.unlockGarment(key, token).catch(() => undefined);
        }
      }
      await sleep(100);
      const saved = await this.store.garmentId(key);
      if (saved) return saved;
      if (Date.now() > giveUpAt)
        throw new ProxyError(
          503,
          'upstream_unavailable',
          'The try-on service is slow to set up this product; please try again.',
          true,
        );
    }
  }

  private async upload(path: string, kind: 'garment' | 'person'): Promise<string> {
    const bytes = await this.read(path);
    const type = sniffPhotoType(bytes.subarray(0, 64));
    if (!type) {
      this.options.log({ level: 'error', event: 'catalog_image_not_a_photo', path });
      throw new ProxyError(500, 'internal_error', 'This product’s try-on is not set up correctly.');
    }
    const { id } = await this.upstream.uploadFile(bytes, {
      kind,
      contentType: type.contentType,
      filename: `${kind}.${type.extension}`,
    });
    this.options.log({ event: 'catalog_image_uploaded', path, kind });
    return id;
  }

  /** A catalog image's bytes and type, for the proxy to serve itself (a model's picture in the widget's grid). */
  async picture(path: string): Promise<{ bytes: Uint8Array; contentType: string }> {
    const bytes = await this.read(path);
    const type = sniffPhotoType(bytes.subarray(0, 64));
    if (!type) {
      this.options.log({ level: 'error', event: 'catalog_image_not_a_photo', path });
      throw new ProxyError(500, 'internal_error', 'This product’s try-on is not set up correctly.');
    }
    return { bytes, contentType: type.contentType };
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
}
