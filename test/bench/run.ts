// `npm run bench`: every benchmark in turn, one report printed and written to
// test/bench/report-<date>.txt; a full run of all of them also refreshes test/bench/latest.md,
// which the README quotes. An enforced goal missed (page weight, the LCP delta, the longest
// task of photo preparation) or a guarded benchmark that could not run exits non-zero; any
// other benchmark that cannot run says why in the report instead of stopping the run.
//
//   npm run bench                      full run (about 5 minutes on 2 cores)
//   npm run bench -- --quick           smoke run: a few seconds each, few connections
//   npm run bench -- --only=page-weight,photo-prep
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Benchmark, BenchContext } from './harness.js';
import { root, scratchDir } from './harness.js';
import type { Outcome } from './report.js';
import { Unavailable, enforcedFailures, toMarkdown, toText } from './report.js';
import { pageWeight } from './page-weight.js';
import { pageImpact } from './page-impact.js';
import { photoPrep } from './photo-prep.js';
import { proxyOverhead } from './proxy-overhead.js';
import { upstreamEconomy } from './upstream-economy.js';
import { timeToShow } from './time-to-show.js';
import { clusterScale } from './cluster-scale.js';
import { workersRuntime } from './workers-runtime.js';
import { firstLook } from './first-look.js';
import { photoCheck } from './photo-check.js';
import { sandboxRender } from './sandbox-render.js';
import { fidelityCheck } from './fidelity-check.js';

const ALL: Benchmark[] = [
  pageWeight,
  pageImpact,
  photoPrep,
  proxyOverhead,
  upstreamEconomy,
  timeToShow,
  clusterScale,
  workersRuntime,
  firstLook,
  photoCheck,
  sandboxRender,
  fidelityCheck,
];

/** Benchmarks whose figures guard a budget: one that cannot run fails the bench instead of passing it silently. */
const GUARDED = [pageWeight.id, pageImpact.id, photoPrep.id];

const args = process.argv.slice(2);
const quick = args.includes('--quick') || process.env.BENCH_QUICK === '1';
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
  .filter(Boolean);
const unknown = only?.filter((id) => !ALL.some((b) => b.id === id)) ?? [];
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; known: ${ALL.map((b) => b.id).join(', ')}`);
  process.exit(2);
}
const chosen = only ? ALL.filter((b) => only.includes(b.id)) : ALL;

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (
    message
      // eslint-disable-next-line no-control-regex -- ANSI colour codes from the child's output
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .slice(0, 3)
      .join(' ')
      .slice(0, 400)
  );
}

async function runOne(bench: Benchmark): Promise<Outcome> {
  const started = performance.now();
  const cleanups: (() => unknown)[] = [];
  const ctx: BenchContext = {
    quick,
    scratch: (prefix) => {
      const dir = scratchDir(prefix);
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
    log: (line) => console.log(`  [${bench.id}] ${line}`),
    defer: (cleanup) => {
      cleanups.push(cleanup);
    },
  };
  console.log(`▶ ${bench.title}`);
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`stopped after its ${bench.limitSeconds} s limit`)),
      bench.limitSeconds * 1000,
    );
  });
  let outcome: Outcome;
  try {
    const result = await Promise.race([bench.run(ctx), limit]);
    outcome = { id: bench.id, title: bench.title, ...result, seconds: 0 };
  } catch (error) {
    const reason = error instanceof Unavailable ? describe(error) : `failed: ${describe(error)}`;
    if (!(error instanceof Unavailable)) console.error(error);
    outcome = { id: bench.id, title: bench.title, figures: [], notes: [], unavailable: reason, seconds: 0 };
  } finally {
    clearTimeout(timer);
  }
  // Later resources depend on earlier ones (a proxy on its sandbox): close in reverse.
  for (const cleanup of cleanups.reverse()) {
    try {
      await Promise.race([cleanup(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
    } catch (error) {
      outcome.notes.push(`clean-up failed: ${describe(error)}`);
    }
  }
  outcome.seconds = (performance.now() - started) / 1000;
  return outcome;
}

const startedAt = new Date();
const outcomes: Outcome[] = [];
for (const bench of chosen) outcomes.push(await runOne(bench));
const info = { startedAt, quick, seconds: (Date.now() - startedAt.getTime()) / 1000 };

const text = toText(outcomes, info);
console.log(`\n${text}`);
const stamp = startedAt.toISOString().replace(/[:.]/g, '').slice(0, 15);
const reportPath = join(root, 'test/bench', `report-${stamp}Z.txt`);
writeFileSync(reportPath, text);
console.log(`Report written to ${reportPath}`);
if (!quick && !only) {
  writeFileSync(join(root, 'test/bench/latest.md'), toMarkdown(outcomes, info));
  console.log('Figures written to test/bench/latest.md');
}

// Enforced: page weight, the LCP delta and the photo's longest main-thread task (the
// regression guards). A guarded benchmark that could not run fails the run too, when chosen.
const failures = enforcedFailures(outcomes, GUARDED);
for (const failure of failures) console.error(`Enforced goal missed: ${failure}`);
if (failures.length > 0) console.error('The bench fails.');
// Servers and browsers were closed by each benchmark; exit anyway so a stray handle cannot keep the run alive.
process.exit(failures.length > 0 ? 1 : 0);
