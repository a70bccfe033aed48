// Browser tests: in Chromium, Firefox and WebKit (Debian's chromium, firefox-esr and WebKitGTK;
// scripts/browsers/engines.js, narrowed with TRYON_ENGINES), TypeScript through esbuild.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { engineLaunchers } from './scripts/browsers/engines.js';
import { installEngineCommands } from './scripts/browsers/commands.js';
import { countingReporter } from './scripts/wtr-counting-reporter.js';
import { defaultReporter } from '@web/test-runner';
import { fakeProxyMiddleware } from './test/widget/fake-proxy.js';
import { realProxyMiddleware } from './test/widget/real-proxy.js';
import { heicPhotosMiddleware } from './test/widget/heic-photos.js';
import { cdnBuildMiddleware } from './test/widget/cdn-build.js';
import { photoCheckFilesMiddleware } from './test/widget/photo-check-files.js';

// setViewport and sendKeys in every engine (scripts/browsers/commands.js).
installEngineCommands();

export default {
  files: process.env.WTR_FILES ? process.env.WTR_FILES.split(',') : ['test/widget/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  // Two engines at a time, the runner's default (concurrentBrowsers): all three at once, beside the
  // node suite, overloaded two cores and the tests that count time missed their bounds.
  testFramework: { config: { timeout: 20000 } },
  testsFinishTimeout: 300000,
  browsers: engineLaunchers(),
  // A fake of the token proxy's public API for the widget's tests (test/widget/fake-proxy.js),
  // the real proxy + sandbox under /real/ (test/widget/real-proxy.js), started on first use, the
  // real CDN build under /cdn-build/ (test/widget/cdn-build.js), built on first use, and HEIC photos
  // made by the tests under /test-photos/ (test/widget/heic-photos.js), and the photo check's worker
  // and models beside the widget's source with real photos of people (test/widget/photo-check-files.js).
  middleware: [
    fakeProxyMiddleware(),
    realProxyMiddleware(),
    cdnBuildMiddleware(),
    heicPhotosMiddleware(),
    photoCheckFilesMiddleware(),
  ],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' })],
  reporters: [defaultReporter(), countingReporter(process.env.WTR_COUNTS_FILE)],
};
