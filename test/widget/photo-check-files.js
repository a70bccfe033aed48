// web-test-runner middleware serving the widget's built worker files: the photo check's (scripts/photo-check-build.ts:
// the worker bundled with TensorFlow.js, the quantized models, the wasm) and the photo preparation's
// (scripts/worker-build.ts: photo-prep-worker.js and its libheif chunk) beside the widget's source,
// at /widget/photo/check/photo-check-* and /widget/photo/photo-prep-*, where the chunks that start
// them (widget/photo/check/photo-check.ts, widget/photo/photo.ts) look for them, as they do beside
// themselves in dist/cdn. Built once, on first use, into a temp folder. Also the real
// opencv-doc photos the check's tests use (test/photos/people.ts): /test-photos/people/<name>.jpg.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = fileURLToPath(new URL('../..', import.meta.url));
const built = new Map();
let people;

/** Builds once, into a temp folder, with `call` of `module` (a script of scripts/), e.g. buildPhotoCheck. */
function build(module, call) {
  if (!built.has(call))
    built.set(
      call,
      new Promise((resolve, reject) => {
        const outDir = mkdtempSync(join(tmpdir(), `tryon-wtr-${call}-`));
        process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
        const script = `const { ${call} } = await import('./scripts/${module}'); await ${call}(${JSON.stringify(outDir)});`;
        execFile(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', script],
          { cwd: root, timeout: 120_000 },
          (error, stdout, stderr) => {
            if (error) reject(new Error(`${call} failed: ${stderr || error.message}`));
            else resolve(outDir);
          },
        );
      }),
    );
  return built.get(call);
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
    const file = /^\/widget\/photo\/(?:check\/)?(photo-(check|prep)-[\w.-]+\.(js|json|bin|wasm))$/.exec(ctx.path);
    if (!file) return next();
    const outDir = await (file[2] === 'prep'
      ? build('worker-build.ts', 'buildPhotoPrepWorker')
      : build('photo-check-build.ts', 'buildPhotoCheck'));
    try {
      ctx.body = readFileSync(join(outDir, file[1]));
      ctx.type = TYPES[file[3]];
    } catch {
      ctx.status = 404;
    }
  };
}
