// Browser tests: in Chromium, Firefox and WebKit (Debian's chromium, firefox-esr and WebKitGTK;
// scripts/browsers/engines.js, narrowed with TRYON_ENGINES), TypeScript through esbuild.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { engineLaunchers } from './scripts/browsers/engines.js';
import { installEngineCommands, screenshotPlugin } from './scripts/browsers/commands.js';
import { countingReporter } from './scripts/wtr-counting-reporter.js';
import { defaultReporter } from '@web/test-runner';
import { fakeProxyMiddleware } from './test/widget/fake-proxy.js';
import { realProxyMiddleware } from './test/widget/real-proxy.js';
import { heicPhotosMiddleware } from './test/widget/heic-photos.js';
import { cdnBuildMiddleware } from './test/widget/cdn-build.js';
import { photoCheckFilesMiddleware } from './test/widget/photo-check-files.js';

// setViewport and sendKeys in every engine (scripts/browsers/commands.js).
installEngineCommands();

const browsers = engineLaunchers();

// The runner and the browser launchers stop quietly on a signal; the run's output says which came.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.once(signal, () => {
    console.error(`\nweb-test-runner: ${signal} received, stopping`);
    // Alone, this listener would keep the process alive: the signal's own default then applies.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}
process.once('exit', (code) => {
  if (code !== 0) console.error(`web-test-runner: exit code ${code}`);
});

export default {
  files: process.env.WTR_FILES ? process.env.WTR_FILES.split(',') : ['test/widget/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  // Two engines at a time, the runner's default (concurrentBrowsers): all three at once, beside the
  // node suite, overloaded two cores and the tests that count time missed their bounds.
  testFramework: { config: { timeout: 20000 } },
  testsFinishTimeout: 300000,
  browsers,
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
  // The plugin hands esbuild the file's text as it is, without following `extends`: the base is
  // where the options that change the emitted JavaScript (verbatimModuleSyntax, class fields) are.
  // save-screenshot writes the docs' pictures of the widget from each engine (scripts/browsers/commands.js).
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.base.json' }), screenshotPlugin()],
  reporters: [defaultReporter(), countingReporter(process.env.WTR_COUNTS_FILE)],
};
