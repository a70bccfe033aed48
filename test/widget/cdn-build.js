// web-test-runner middleware that serves the real CDN build (scripts/kept-builds.ts, the build
// kept for the sources as they are) under `/cdn-build/`, copied once on first use into a temp folder, with the query a shop's platform adds
// (`?ver=1.2.3`) ignored as a CDN ignores it. Under `/cdn-build-altered/<chunk>/` the same files
// (or `/cdn-build-altered/<chunk>~<name>/`) as a tampered CDN would serve them: the chunk whose name
// is `<chunk>-<hash>.js` with bytes added (test/widget/chunk-integrity.test.ts). Under
// `/cdn-build-missing/<chunk>/` the same files with that chunk answering 404, as a shop's server that
// lost a file would (test/widget/not-opened.test.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
let built;

function build() {
  built ??= new Promise((resolve, reject) => {
    const outDir = mkdtempSync(join(tmpdir(), 'tryon-wtr-cdn-'));
    process.once('exit', () => rmSync(outDir, { recursive: true, force: true }));
    const script = `const { cachedCdnBuild } = await import('./scripts/kept-builds.ts'); await cachedCdnBuild(${JSON.stringify(outDir)});`;
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: root, timeout: 120_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`the CDN build failed: ${stderr || error.message}`));
        else resolve(outDir);
      },
    );
  });
  return built;
}

/** What an altered chunk does first if it runs: a mark the page can see. */
const TAMPER = '\n;globalThis.__tampered = true;\n';

export function cdnBuildMiddleware() {
  return async function cdnBuild(ctx, next) {
    // `<chunk>~<name>` serves the same under a folder of its own: here Chromium kept refusing an
    // altered core's URL in the next frame, without the map, after one frame had refused it.
    const altered = /^\/cdn-build-altered\/([a-z-]+)(?:~\w+)?\//.exec(ctx.path);
    const missing = /^\/cdn-build-missing\/([a-z-]+)\//.exec(ctx.path);
    if (!ctx.path.startsWith('/cdn-build/') && !altered && !missing) return next();
    const outDir = await build();
    const file = normalize(join(outDir, ctx.path.slice((altered?.[0] ?? missing?.[0] ?? '/cdn-build/').length)));
    if (missing && new RegExp(`^${missing[1]}-[\\w-]+\\.js$`).test(file.slice(outDir.length + 1))) {
      ctx.status = 404;
      return;
    }
    // Scripts, and the photo check's models and wasm beside them.
    const type = {
      js: 'text/javascript',
      json: 'application/json',
      bin: 'application/octet-stream',
      wasm: 'application/wasm',
    }[file.split('.').pop()];
    if (!file.startsWith(outDir) || !type) return next();
    try {
      const bytes = readFileSync(file);
      const name = file.slice(outDir.length + 1);
      ctx.body =
        altered && new RegExp(`^${altered[1]}-[\\w-]+\\.js$`).test(name)
          ? Buffer.concat([bytes, Buffer.from(TAMPER)])
          : bytes;
      ctx.type = type;
    } catch {
      ctx.status = 404;
    }
  };
}
