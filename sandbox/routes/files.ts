// `POST /v1/files` and `GET /v1/files/{id}/content`: the uploads a try-on names and the outputs it
// makes. An upload is judged by its content (the proxy's own signature list), never its declared
// type, and refused over the size limit with 413, as the hosted API is taken to (docs/upstream-api.md).
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { SandboxError, notFound, validationFailed } from '../api/errors.js';
import { fileRecord } from '../files/store.js';
import { imageSize, sniffImageType } from '../files/file-type.js';
import { tooLarge } from './shared.js';
import type { SandboxEnv, SandboxParts } from './shared.js';

export function mountFiles(app: Hono<SandboxEnv>, { files, maxUploadBytes }: SandboxParts): void {
  app.post(
    '/v1/files',
    bodyLimit({ maxSize: maxUploadBytes + 64 * 1024, onError: tooLarge('file', maxUploadBytes) }),
    async (c) => {
      if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
        throw new SandboxError(400, 'invalid_request', 'Send multipart/form-data with the fields file and kind.');
      }
      let form: FormData;
      try {
        form = await c.req.formData();
      } catch (error) {
        if (error instanceof SandboxError) throw error;
        throw new SandboxError(400, 'invalid_request', 'The multipart body could not be read.');
      }
      const file = form.get('file');
      const kind = form.get('kind');
      const hasFile = file !== null && typeof file !== 'string';
      const hasKind = kind === 'person' || kind === 'garment';
      if (!hasFile || !hasKind) {
        throw validationFailed([
          ...(hasFile ? [] : [{ field: 'file', message: 'is required: the image as a file part' }]),
          ...(hasKind ? [] : [{ field: 'kind', message: 'must be person or garment' }]),
        ]);
      }
      if (file.size > maxUploadBytes) tooLarge('file', maxUploadBytes)();
      const bytes = new Uint8Array(await file.arrayBuffer());
      const contentType = sniffImageType(bytes);
      if (!contentType) {
        throw new SandboxError(
          415,
          'unsupported_media_type',
          'The file is not a PNG, JPEG, WebP or HEIC image (judged by its content, not its declared type).',
        );
      }
      const size = await imageSize(bytes);
      const stored = files.add({
        workspace: c.get('workspace').name,
        kind,
        contentType,
        bytes,
        width: size?.width,
        height: size?.height,
      });
      return c.json(fileRecord(stored), 201);
    },
  );

  app.get('/v1/files/:file_id/content', (c) => {
    const file = files.get(c.get('workspace').name, c.req.param('file_id'));
    if (!file) throw notFound('file');
    return new Response(new Uint8Array(file.bytes), {
      headers: {
        'content-type': file.contentType,
        'content-length': String(file.bytes.byteLength),
        'cache-control': 'private, max-age=3600',
      },
    });
  });
}
