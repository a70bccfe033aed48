// web-test-runner middleware serving the photo check's built files (scripts/photo-check-build.ts:
// the worker bundled with TensorFlow.js, the quantized models, the wasm) beside the widget's source,
// at /widget/photo-check-*, where the check's chunk (widget/photo-check.ts) looks for them, as it
// does beside itself in dist/cdn. Built once, on first use, into a temp folder. Also the real
// opencv-doc photos the check's tests use (test/photos/people.ts): /test-photos/people/<name>.jpg.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = fileURLToPath(new URL('../..', import.meta.url));
let built;
let people;

function build() {
  built ??= new Promise((resolve, reject) => {
    const outDir = mkdtempSync(join(tmpdir(), 'tryon-wtr-photo-check-'));
    process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
    const script = `const { buildPhotoCheck } = await import('./scripts/photo-check-build.ts'); await buildPhotoCheck(${JSON.stringify(outDir)});`;
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: root, timeout: 120_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`buildPhotoCheck failed: ${stderr || error.message}`));
        else resolve(outDir);
      },
    );
  });
  return built;
}

const TYPES = {
  js: 'text/javascript',
  json: 'application/json',
  bin: 'application/octet-stream',
  wasm: 'application/wasm',
};

export function photoCheckFilesMiddleware() {
  return async function photoCheckFiles(ctx, next) {
    // The demo shop's sample photo (committed: demo/shop/sample-person.jpg), which the check must accept.
    if (ctx.path === '/test-photos/people/sample.jpg') {
      ctx.body = readFileSync(join(root, 'demo/shop/sample-person.jpg'));
      ctx.type = 'image/jpeg';
      return;
    }
    const photo = /^\/test-photos\/people\/([a-z]+)\.jpg$/.exec(ctx.path);
    if (photo) {
      people ??= tsImport('../photos/people.ts', import.meta.url);
      const { peoplePhoto, PEOPLE_PHOTOS, opencvDataPresent } = await people;
      if (!opencvDataPresent() || !PEOPLE_PHOTOS.includes(photo[1])) {
        ctx.status = 404;
        return;
      }
      ctx.body = await peoplePhoto(photo[1]);
      ctx.type = 'image/jpeg';
      return;
    }
    const file = /^\/widget\/(photo-check-[\w.-]+\.(js|json|bin|wasm))$/.exec(ctx.path);
    if (!file) return next();
    const outDir = await build();
    try {
      ctx.body = readFileSync(join(outDir, file[1]));
      ctx.type = TYPES[file[2]];
    } catch {
      ctx.status = 404;
    }
  };
}
