// web-test-runner middleware serving HEIC photos made by the tests (test/photos/heic.ts: HEVC by
// x265 in a HEIF container, with EXIF, GPS and XMP), since a browser test cannot run an encoder:
//   GET /test-photos/photo.heic?width=480&height=640[&exif=0][&xmp=0][&turn=90]
import { tsImport } from 'tsx/esm/api';

let maker;

export function heicPhotosMiddleware() {
  return async function heicPhotos(ctx, next) {
    if (ctx.path !== '/test-photos/photo.heic') return next();
    maker ??= tsImport('../photos/heic.ts', import.meta.url);
    const { makeHeicPhoto } = await maker;
    const number = (name, fallback) => Number(ctx.query[name] ?? fallback);
    const bytes = await makeHeicPhoto({
      width: number('width', 480),
      height: number('height', 640),
      exif: ctx.query.exif !== '0',
      xmp: ctx.query.xmp !== '0',
      turnClockwise: number('turn', 0),
    });
    ctx.status = 200;
    ctx.type = 'image/heic';
    ctx.set('cache-control', 'no-store');
    ctx.body = Buffer.from(bytes);
  };
}
