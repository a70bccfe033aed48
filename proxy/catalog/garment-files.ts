// Each catalog image (a product's or a variant's garment image or reference person image) is
// uploaded to /v1/files once for the whole cluster and remembered by its path, so a variant with a
// picture of its own gets its own upload and one that keeps the product's shares it. The file id
// is kept in the store (the memory store may persist it, so a restart does not upload again), and
// the first upload holds the store's lock on the image, so concurrent first requests on every
// instance share one upload. An image given as a URL is fetched with bounds of its own (fetchImage).
import { ProxyError } from '../http/errors.js';
import { readAtMost } from '../http/streams.js';
import { sniffPhotoType } from '../upstream/image-signatures.js';
import type { Upstream } from '../upstream/client.js';
import type { GarmentIdStore } from './garment-ids.js';

export type ReadAsset = (path: string) => Promise<Uint8Array>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Redirects followed at most, each on the catalog URL's own origin: a moved file, a trailing slash. */
const MOST_REDIRECTS = 3;

/** Why a catalog URL's fetch was given up: said in the log line, never to the shopper. */
class ImageFetchRefused extends Error {}

export class GarmentFiles {
  /** Uploads under way in this instance (the store's lock keeps other instances from starting their own). */
  private readonly uploading = new Map<string, Promise<string>>();

  constructor(
    private readonly upstream: Upstream,
    private readonly store: GarmentIdStore,
    private readonly options: {
      assetsDir?: string | undefined;
      readAsset?: ReadAsset | undefined;
      fetch?: typeof fetch | undefined;
      /** How long one upload may hold the cluster's lock on an image (with catalogImageTimeoutMs). */
      uploadTimeoutMs: number;
      /** The largest image fetched by URL, counted as it arrives. */
      catalogImageBytes: number;
      /** How long fetching an image by URL may take, redirects and body included. */
      catalogImageTimeoutMs: number;
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
      id = this.uploadOnce(key, () => this.upload(path, kind)).finally(() => this.uploading.delete(key));
      this.uploading.set(key, id);
    }
    return id;
  }

  /**
   * The upstream file id of a try-on's output as a person image (an outfit's next piece is rendered
   * on it), uploading it on first use: read from upstream and sent back as `kind=person`, once for
   * the cluster by the same store and lock as a catalog image, so a retry (on any instance) sends
   * the same file id, and so the same idempotency key, again.
   */
  async outputAsPerson(outputFileId: string): Promise<string> {
    const key = `person:output:${outputFileId}`;
    const known = await this.store.garmentId(key);
    if (known) return known;
    let id = this.uploading.get(key);
    if (!id) {
      id = this.uploadOnce(key, () => this.uploadOutput(outputFileId)).finally(() => this.uploading.delete(key));
      this.uploading.set(key, id);
    }
    return id;
  }

  /** Drops a remembered person file of an output (upstream no longer knows it); the next use uploads it again. */
  async forgetOutput(outputFileId: string, fileId: string): Promise<void> {
    await this.store.forgetGarmentId(`person:output:${outputFileId}`, fileId);
  }

  private async uploadOutput(outputFileId: string): Promise<string> {
    const answer = await this.upstream.fileContent(outputFileId);
    // Bounded as a catalog image is: what upstream's /v1/files takes.
    const bytes = await readImageAtMost(answer, this.options.catalogImageBytes).catch(() => undefined);
    const type = bytes && sniffPhotoType(bytes.subarray(0, 64));
    if (!bytes || !type) {
      this.options.log({ level: 'error', event: 'output_not_a_photo', file: outputFileId });
      throw new ProxyError(502, 'upstream_unavailable', 'The try-on service sent a result we cannot use.', true);
    }
    const { id } = await this.upstream.uploadFile(bytes, {
      kind: 'person',
      contentType: type.contentType,
      filename: `person.${type.extension}`,
    });
    this.options.log({ event: 'output_uploaded_as_person' });
    return id;
  }

  /** Drops a remembered id (upstream no longer knows it); the next use uploads again. */
  async forget(path: string, kind: 'garment' | 'person', fileId: string): Promise<void> {
    await this.store.forgetGarmentId(`${kind}:${path}`, fileId);
  }

  /** Uploads under the cluster's lock, or waits for the instance that holds it. */
  private async uploadOnce(key: string, upload: () => Promise<string>): Promise<string> {
    // The lock covers fetching the image (when it is a URL) and uploading it.
    const lockMs = this.options.catalogImageTimeoutMs + this.options.uploadTimeoutMs + 5_000;
    const giveUpAt = Date.now() + 2 * lockMs;
    for (;;) {
      const token = await this.store.lockGarment(key, lockMs);
      if (token) {
        try {
          const saved = await this.store.garmentId(key);
          if (saved) return saved;
          const id = await upload();
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
      if (/^https?:\/\//.test(path)) return await this.fetchImage(path);
      if (!this.options.readAsset) throw new Error('no readAsset option to read catalog images with');
      const base = this.options.assetsDir ? this.options.assetsDir.replace(/\/+$/, '') + '/' : '';
      if (path.split(/[\\/]/).includes('..')) throw new Error('catalog image paths may not contain ".."');
      return await this.options.readAsset(path.startsWith('/') ? path : base + path);
    } catch (error) {
      this.options.log({ level: 'error', event: 'catalog_image_unreadable', path, message: (error as Error).message });
      throw new ProxyError(500, 'internal_error', 'This product’s try-on is not set up correctly.');
    }
  }

  /**
   * A catalog image by URL, with bounds a shop's server (or whoever answers for it) cannot lift:
   * redirects are followed by hand, at most MOST_REDIRECTS and only on the URL's own origin (a CDN
   * that points elsewhere, or a compromised one, cannot send the proxy to an internal address); the
   * body is counted as it streams and the fetch stopped once it passes catalogImageBytes; the whole
   * fetch is aborted after catalogImageTimeoutMs. Web-standard only: it runs on Workers too.
   */
  private async fetchImage(url: string): Promise<Uint8Array> {
    const { catalogImageBytes: most, catalogImageTimeoutMs: ms } = this.options;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), ms);
    const origin = new URL(url).origin;
    let current = url;
    try {
      for (let redirects = 0; ; redirects++) {
        const response = await (this.options.fetch ?? fetch)(current, { redirect: 'manual', signal: abort.signal });
        if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
          await response.body?.cancel().catch(() => undefined);
          const location = response.headers.get('location');
          if (!location) throw new ImageFetchRefused(`HTTP ${response.status} redirect without a Location`);
          const next = new URL(location, current);
          if (!/^https?:$/.test(next.protocol) || next.origin !== origin)
            throw new ImageFetchRefused(`redirect to another origin (${next.origin}) refused`);
          if (redirects >= MOST_REDIRECTS) throw new ImageFetchRefused(`more than ${MOST_REDIRECTS} redirects`);
          current = next.href;
          continue;
        }
        if (!response.ok) {
          await response.body?.cancel().catch(() => undefined);
          throw new ImageFetchRefused(`HTTP ${response.status}`);
        }
        return await readImageAtMost(response, most);
      }
    } catch (error) {
      if (abort.signal.aborted && !(error instanceof ImageFetchRefused))
        throw new ImageFetchRefused(`no whole answer within ${ms} ms`);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A response's body, refused (and its fetch stopped) once it is larger than `most` bytes. */
async function readImageAtMost(response: Response, most: number): Promise<Uint8Array> {
  const tooLarge = () => new ImageFetchRefused(`the image is larger than ${most} bytes`);
  const declared = Number(response.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > most) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  return readAtMost(reader, most, async () => {
    await reader.cancel().catch(() => undefined);
    return tooLarge();
  });
}
