// `npm test`: type check, lint (ESLint and Prettier), node suites (sandbox, proxy, integrations, bench logic), browser suites
// (web-test-runner in Chromium, Firefox and WebKit, two engines at a time, each engine's
// counts printed) and end-to-end suites (playwright-core, Chromium), then a table of each suite's
// tests and seconds, and one plain summary line for the whole run: "N passed, N failed".
//
// The proxy's and the sandbox's files run again under Node 22 and 24 (suites node22 and node24;
// their binaries come from npm into .cache/node-<major>/, scripts/prerequisites.ts), each with its
// own counts; the rest runs on the Node that runs this script (20, the floor, or newer).
//
// The plugin's real-WordPress files run again on WordPress 7.1, the current release (suite
// wordpress71; Debian sid's package unpacked into .cache/wordpress-7.1/), after the node suite
// ran them on the floor the plugin claims, Debian bookworm's 6.1.
//
// Narrow a run with suite names: `npm test -- node widget` (typecheck, lint, node, node22, node24,
// wordpress71, widget, e2e), and the widget suite's engines with TRYON_ENGINES:
// `TRYON_ENGINES=firefox npm test -- widget`.
//
// Suites run side by side, up to TRYON_TEST_SUITES at once (default 2), and a node suite runs up to
// TRYON_TEST_FILES of its files at once (default 4; e2e and wordpress71 at most 2): most of a proxy
// or sandbox file's time is spent waiting on sockets and timers, not on the two cores, so one file
// at a time (node --test's default on two cores) left the machine idle. Each suite's output is held
// and printed whole when it ends, so suites never interleave; a line says when each starts.
//
// Before any suite runs, the programs the chosen suites start (Chromium, Firefox, WebKitGTK's
// driver and Xvfb, PHP, Redis, nginx, MariaDB, WordPress) are found or installed
// (scripts/prerequisites.ts); a missing one ends the run at once, never a suite waiting on it.
// Their paths reach the suites as CHROME_PATH, FIREFOX_PATH, WEBKIT_DRIVER_PATH, XVFB_PATH,
// PHP_PATH, REDIS_SERVER_PATH, NGINX_PATH, MARIADBD_PATH and WORDPRESS_PATH.
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { OTHER_NODE_MAJORS, nodeBinary, nodeEnv } from './node-lines.js';
import { engineNames, ensurePrograms, programsFor, type Engine } from './prerequisites.js';
import { timingTable, type SuiteTiming } from './suite-timings.js';
import { CURRENT_WORDPRESS_ENV, currentWordPress } from './wordpress-current.js';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** A suite's own output, held until it ends (suites run side by side). */
type Output = Buffer[];

const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'tryon-test-'));
const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const runs = (suite: string) => wanted.length === 0 || wanted.includes(suite);

/** A whole number ≥ 1 from the environment, or the default; anything else ends the run saying so. */
function countFromEnv(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`${name} must be a whole number of at least 1, not "${value}".`);
  return count;
}

let outputFiles = 0;

/**
 * Runs a command with its stdout and stderr going to one file, read into `output` when it ends.
 * A file, not a pipe: a process's writes to a pipe nobody reads fast enough (two busy cores) are
 * queued, and a process.exit drops what is queued, so a runner that ended early lost the very
 * lines saying why. Writes to a file are synchronous; every process the command starts that
 * inherits the file appends to it as well.
 */
function run(command: string, args: string[], output: Output, env: NodeJS.ProcessEnv = {}): Promise<number> {
  const file = join(work, `output-${++outputFiles}.txt`);
  const fd = openSync(file, 'a');
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['ignore', fd, fd],
      env: { ...process.env, ...env },
    });
    closeSync(fd);
    const ended = (code: number) => {
      output.push(readFileSync(file));
      resolve(code);
    };
    child.on('exit', (code, signal) => {
      // A suite stopped from outside says so: otherwise its output just ends.
      if (signal) appendFileSync(file, `\n${basename(args[0] ?? command)} was stopped by ${signal}\n`);
      ended(code ?? (signal ? 1 : 0));
    });
    child.on('error', (error) => {
      appendFileSync(file, `${command}: ${error.message}\n`);
      ended(127);
    });
  });
}

function testFiles(dir: string): string[] {
  const full = join(root, dir);
  if (!existsSync(full)) return [];
  const found: string[] = [];
  for (const name of readdirSync(full).sort()) {
    const path = join(full, name);
    if (statSync(path).isDirectory()) found.push(...testFiles(join(dir, name)));
    else if (name.endsWith('.test.ts')) found.push(join(dir, name));
  }
  return found;
}

function tapCounts(file: string): Counts | undefined {
  if (!existsSync(file)) return undefined;
  const tap = readFileSync(file, 'utf8');
  const pick = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
  if (!/^# tests \d+$/m.test(tap)) return undefined;
  return { passed: pick('pass'), failed: pick('fail') + pick('cancelled'), skipped: pick('skipped') + pick('todo') };
}

async function nodeSuite(
  name: string,
  files: string[],
  output: Output,
  { env = {}, node = process.execPath, filesAtOnce }: { env?: NodeJS.ProcessEnv; node?: string; filesAtOnce: number },
): Promise<Counts> {
  if (files.length === 0) return { passed: 0, failed: 0, skipped: 0 };
  output.push(
    Buffer.from(`${files.length} file(s), ${filesAtOnce} at once${node === process.execPath ? '' : `, on ${node}`}\n`),
  );
  const tap = join(work, `${name}.tap`);
  const code = await run(
    node,
    [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${filesAtOnce}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    output,
    { NODE_ENV: 'test', ...env },
  );
  const counts = tapCounts(tap) ?? { passed: 0, failed: 1, skipped: 0 };
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

/** A pass or a fail for a check that is one command (the type check, ESLint, Prettier). */
async function check(command: string[], output: Output, failure: string): Promise<Counts> {
  const code = await run(process.execPath, command, output);
  if (code !== 0) output.push(Buffer.from(`${failure}\n`));
  return code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 };
}

interface Suite {
  name: string;
  start(output: Output): Promise<Counts>;
  /** What it adds under its output when it ends (each engine's, each Node's counts). */
  after?: (counts: Counts) => string;
  /** Suites it never runs beside: it waits for them to end, and they for it. */
  notBeside?: string[];
}

async function main(): Promise<void> {
  const began = Date.now();
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  // Before any suite runs: nothing is left running, so the process ends once this is written.
  const fail = (error: Error) => {
    console.error(`\n${error.message}`);
    console.log(`\n${total.passed} passed, 1 failed`);
    process.exitCode = 1;
  };

  const otherNodes = OTHER_NODE_MAJORS.filter((major) => runs(`node${major}`));
  const suiteNames = ['typecheck', 'lint', 'node', 'widget', 'e2e'].filter(runs);
  const wordpress71 = runs('wordpress71');
  const nodes: Record<string, string> = {};
  let programs: Record<string, string> = {};
  let engines: Engine[] = [];
  let suitesAtOnce = 2;
  let filesAtOnce = 4;
  try {
    suitesAtOnce = countFromEnv('TRYON_TEST_SUITES', suitesAtOnce);
    filesAtOnce = countFromEnv('TRYON_TEST_FILES', filesAtOnce);
    engines = engineNames(process.env.TRYON_ENGINES);
    // The 7.1 suite starts what the node suite's WordPress files start (PHP, MariaDB, Chromium).
    programs = ensurePrograms(
      programsFor(
        [...suiteNames, ...(otherNodes.length > 0 ? ['node-versions'] : []), ...(wordpress71 ? ['node'] : [])],
        engines,
      ),
    );
    if (wordpress71) programs[CURRENT_WORDPRESS_ENV] = currentWordPress({ root });
    for (const major of otherNodes) nodes[nodeEnv(major)] = nodeBinary(major, { root });
  } catch (error) {
    fail(error as Error);
    return;
  }
  // Every suite, and every process a suite starts, finds the programs here.
  Object.assign(process.env, programs);

  // Longest first, so that the last suites to start are short ones and the run ends soon after
  // the longest; the type check and lint (busy on both cores, briefly) go where a slot frees.
  const suites: Suite[] = [];
  if (runs('node')) {
    suites.push({
      name: 'node',
      start: (output) =>
        nodeSuite(
          'node',
          [
            ...testFiles('test/sandbox'),
            ...testFiles('test/proxy'),
            ...testFiles('test/integrations'),
            // The map (docs/architecture.md) against the modules, and no citation of documents outside the repository.
            ...testFiles('test/architecture'),
            // The benchmarks' own logic (what counts as the first script, medians, the report); the
            // benchmarks themselves run with `npm run bench`, not here.
            ...testFiles('test/bench'),
          ],
          output,
          { filesAtOnce },
        ),
    });
  }
  if (runs('widget') && testFiles('test/widget').length > 0) {
    suites.push({
      name: 'widget',
      start: async (output) => {
        output.push(Buffer.from(`web-test-runner: ${engines.join(', ')}, two at a time\n`));
        const countsFile = join(work, 'wtr.json');
        const code = await run(
          process.execPath,
          [join(root, 'node_modules/@web/test-runner/dist/bin.js'), '--config', 'web-test-runner.config.js'],
          output,
          { WTR_COUNTS_FILE: countsFile, TRYON_ENGINES: engines.join(',') },
        );
        const finished = existsSync(countsFile);
        // Without its counts, the run ended before its summary: say how, so the cause is on record.
        if (!finished) output.push(Buffer.from(`web-test-runner ended before its summary, with exit code ${code}\n`));
        const counts: Counts & { engines?: Record<string, Counts> } = finished
          ? JSON.parse(readFileSync(countsFile, 'utf8'))
          : { passed: 0, failed: 1, skipped: 0 };
        if (code !== 0 && counts.failed === 0) counts.failed = 1;
        for (const [engine, each] of Object.entries(counts.engines ?? {})) {
          const skipped = each.skipped > 0 ? `, ${each.skipped} skipped` : '';
          output.push(Buffer.from(`widget in ${engine}: ${each.passed} passed, ${each.failed} failed${skipped}\n`));
        }
        return counts;
      },
    });
  }
  // The proxy and the sandbox (what a shop's server runs) under each other maintained Node line,
  // on the stores a Node server uses. The Worker build and its Durable Objects store run inside
  // workerd whatever Node starts Miniflare, so their files (and the durable store's turn in the
  // files that test every store) run once, in the node suite.
  const workerdOnly = /\/(workerd[\w-]*|durable-store)\.test\.ts$/;
  // The fidelity check's labelled set measures a pure function's rates on 300 sandbox renders:
  // the same arithmetic on every Node line, and the heaviest file of all, so it runs once.
  const measuredOnce = /\/fidelity-labelled\.test\.ts$/;
  for (const major of otherNodes) {
    suites.push({
      name: `node${major}`,
      start: (output) =>
        nodeSuite(
          `node${major}`,
          [...testFiles('test/sandbox'), ...testFiles('test/proxy')].filter(
            (file) => !workerdOnly.test(file) && !measuredOnce.test(file),
          ),
          output,
          {
            node: nodes[nodeEnv(major)]!,
            filesAtOnce,
            // Node 22 and later keep V8's compiled code of every module they load here (Node 20 has no
            // such cache): each test file is a process that loads the same proxy and sandbox again.
            env: { TRYON_TEST_STORES: 'memory,redis', NODE_COMPILE_CACHE: join(root, `.cache/compile-node${major}`) },
          },
        ),
      after: (counts) =>
        `node ${major}: ${counts.passed} passed, ${counts.failed} failed${counts.skipped > 0 ? `, ${counts.skipped} skipped` : ''}`,
      // The same proxy files twice at once (eight at a time, the heaviest together) starved the
      // tests that measure time on two cores: upload deadlines, polls per interval, a byte bound.
      notBeside: otherNodes.filter((other) => other !== major).map((other) => `node${other}`),
    });
  }
  if (runs('e2e')) {
    // Each file drives its own demo shop in its own Chromium: two at once keep both cores busy.
    suites.push({
      name: 'e2e',
      start: (output) => nodeSuite('e2e', testFiles('test/e2e'), output, { filesAtOnce: Math.min(2, filesAtOnce) }),
    });
  }
  if (runs('typecheck')) {
    // `npm run typecheck` with --force: tsc -b alone trusts a project whose own files have not
    // changed since its last check, even when an npm install has changed the types it uses, and a
    // suite's verdict must not depend on what .cache/tsc holds.
    suites.push({
      name: 'typecheck',
      start: (output) =>
        check([join(root, 'node_modules/typescript/bin/tsc'), '-b', '--force'], output, 'tsc: the types do not check'),
    });
  }
  if (runs('lint')) {
    // Two checks, each a pass or a fail: what ESLint finds wrong, and what Prettier would reformat.
    suites.push({
      name: 'lint',
      start: async (output) => {
        const counts = { passed: 0, failed: 0, skipped: 0 };
        for (const [tool, args] of [
          ['eslint', ['node_modules/eslint/bin/eslint.js', '.']],
          ['prettier', ['node_modules/prettier/bin/prettier.cjs', '--check', '--log-level', 'warn', '.']],
        ] as const) {
          const each = await check(
            args.map((arg, i) => (i === 0 ? join(root, arg) : arg)),
            output,
            `${tool}: the tree is not clean (npm run format fixes what can be fixed)`,
          );
          counts.passed += each.passed;
          counts.failed += each.failed;
        }
        return counts;
      },
    });
  }
  if (wordpress71) {
    // The same files as on 6.1, on the current release: WORDPRESS_PATH names its folder.
    const files = testFiles('test/integrations').filter((file) =>
      /\/(wordpress|woocommerce-cart)[\w-]*\.test\.ts$/.test(file),
    );
    suites.push({
      name: 'wordpress71',
      start: (output) =>
        nodeSuite('wordpress71', files, output, {
          env: { WORDPRESS_PATH: programs[CURRENT_WORDPRESS_ENV] },
          filesAtOnce: Math.min(2, filesAtOnce),
        }),
      after: (counts) => `WordPress 7.1: ${counts.passed} passed, ${counts.failed} failed`,
    });
  }

  const timings = new Map<string, SuiteTiming>();
  const running = new Set<string>();
  const queue = [...suites];
  // A suite starts when a lane is free and nothing it may not run beside is running; a lane with
  // only such suites left waits for the next suite to end.
  let suiteEnded = () => {};
  let nextEnd = new Promise<void>((resolve) => (suiteEnded = resolve));
  const startable = () =>
    queue.findIndex(
      (each) =>
        !(each.notBeside ?? []).some((other) => running.has(other)) &&
        ![...running].some((other) => suites.find((s) => s.name === other)?.notBeside?.includes(each.name)),
    );
  const lane = async () => {
    while (queue.length > 0) {
      const at = startable();
      if (at < 0) {
        await nextEnd;
        continue;
      }
      const [suite] = queue.splice(at, 1) as [Suite];
      const output: Output = [];
      const started = Date.now();
      const others = [...running];
      running.add(suite.name);
      console.log(
        `── ${suite.name}: started at ${Math.round((started - began) / 1000)} s${others.length > 0 ? ` (beside ${others.join(', ')})` : ''} ──`,
      );
      let counts: Counts;
      try {
        counts = await suite.start(output);
      } catch (error) {
        output.push(Buffer.from(`${(error as Error).stack ?? String(error)}\n`));
        counts = { passed: 0, failed: 1, skipped: 0 };
      }
      const seconds = (Date.now() - started) / 1000;
      running.delete(suite.name);
      const wake = suiteEnded;
      nextEnd = new Promise<void>((resolve) => (suiteEnded = resolve));
      wake();
      timings.set(suite.name, {
        suite: suite.name,
        tests: counts.passed + counts.failed + counts.skipped,
        failed: counts.failed,
        seconds,
      });
      total.passed += counts.passed;
      total.failed += counts.failed;
      total.skipped += counts.skipped;
      const ended = suite.after ? `${suite.after(counts)}\n` : '';
      process.stdout.write(
        Buffer.concat([
          Buffer.from(`\n── ${suite.name}: its output (${seconds.toFixed(0)} s) ──\n`),
          ...output,
          Buffer.from(ended),
        ]),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(suitesAtOnce, suites.length) }, lane));

  const wall = (Date.now() - began) / 1000;
  console.log(
    `\n${timingTable(
      suites.map((suite) => timings.get(suite.name)!),
      wall,
    )}`,
  );
  const skipped = total.skipped > 0 ? `, ${total.skipped} skipped` : '';
  // Exits once the last line is out: stdout may be a pipe, and process.exit drops what is queued.
  process.stdout.write(`\n${total.passed} passed, ${total.failed} failed${skipped}\n`, () =>
    process.exit(total.failed > 0 ? 1 : 0),
  );
}

await main();
