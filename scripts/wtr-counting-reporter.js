// A web-test-runner reporter that writes the run's counts to a file, for the whole run and for
// each engine ({passed, failed, skipped, engines: {Chromium: {…}, Firefox: {…}, WebKit: {…}}}), so
// that `npm test` can print each engine's counts and one plain summary line for every suite together.
import { writeFileSync } from 'node:fs';

function count(suite, totals) {
  for (const test of suite.tests ?? []) {
    if (test.skipped) totals.skipped++;
    else if (test.passed) totals.passed++;
    else totals.failed++;
  }
  for (const child of suite.suites ?? []) count(child, totals);
}

export function countingReporter(file) {
  return {
    onTestRunFinished({ sessions }) {
      if (!file) return;
      const totals = { passed: 0, failed: 0, skipped: 0, engines: {} };
      for (const session of sessions) {
        const engine = (totals.engines[session.browser.name] ??= { passed: 0, failed: 0, skipped: 0 });
        const before = { ...engine };
        if (session.testResults) count(session.testResults, engine);
        // A file that failed to load or threw outside a test counts as one failure.
        if (!session.passed && (session.errors?.length ?? 0) > 0) engine.failed++;
        for (const key of ['passed', 'failed', 'skipped']) totals[key] += engine[key] - before[key];
      }
      writeFileSync(file, JSON.stringify(totals));
    },
  };
}
