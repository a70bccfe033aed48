// `npm test`: type check, lint (ESLint and Prettier), node suites (sandbox, proxy, integrations, bench logic), browser suites
// (web-test-runner in Chromium, Firefox and WebKit, the three engines in parallel, each engine's
// counts printed) and end-to-end suites (playwright-core, Chromium), then one plain summary line
// for the whole run: "N passed, N failed".
//
// The proxy's and the sandbox's files run again under Node 22 and 24 (suites node22 and node24;
// their binaries come from npm into .cache/node-<major>/, scripts/prerequisites.ts), each with its
// own counts; the rest runs on the Node that runs this script (20, the floor, or newer).
//
// The plugin's real-WordPress files run again on WordPress 7.1, the current release (suite
// wordpress71; Debian sid's package unpacked into .cache/wordpress-7.1/), after the node suite
// ran them on the floor the plugin claims, Debian bookworm's 6.1.
//
// Narrow a run with suite names: `npm test -- node widget` (typecheck, node, node22, node24, widget, e2e), and the
// widget suite's engines with TRYON_ENGINES: `TRYON_ENGINES=firefox npm test -- widget`.
//
// Before any suite runs, the programs the chosen suites start (Chromium, Firefox, WebKitGTK's
// driver and Xvfb, PHP, Redis, nginx, MariaDB, WordPress) are found or installed
// (scripts/prerequisites.ts); a missing one ends the run at once, never a suite waiting on it.
// Their paths reach the suites as CHROME_PATH, FIREFOX_PATH, WEBKIT_DRIVER_PATH, XVFB_PATH,
// PHP_PATH, REDIS_SERVER_PATH, NGINX_PATH, MARIADBD_PATH and WORDPRESS_PATH.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OTHER_NODE_MAJORS, nodeBinary, nodeEnv } from './node-lines.js';
import { engineNames, ensurePrograms, programsFor, type Engine } from './prerequisites.js';
import { CURRENT_WORDPRESS_ENV, currentWordPress } from './wordpress-current.js';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'tryon-test-'));
const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const runs = (suite: string) => wanted.length === 0 || wanted.includes(suite);

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
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
  extraEnv: NodeJS.ProcessEnv = {},
  node = process.execPath,
): Promise<Counts> {
  if (files.length === 0) return { passed: 0, failed: 0, skipped: 0 };
  console.log(`\n── ${name}: ${files.length} file(s)${node === process.execPath ? '' : ` on ${node}`} ──`);
  const tap = join(work, `${name}.tap`);
  const code = await run(
    node,
    [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    { NODE_ENV: 'test', ...extraEnv },
  );
  const counts = tapCounts(tap) ?? { passed: 0, failed: 1, skipped: 0 };
  if (code !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

async function main(): Promise<void> {
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  const add = (counts: Counts) => {
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  };

  const otherNodes = OTHER_NODE_MAJORS.filter((major) => runs(`node${major}`));
  const suites = ['typecheck', 'lint', 'node', 'widget', 'e2e'].filter(runs);
  const wordpress71 = runs('wordpress71');
  const nodes: Record<string, string> = {};
  let programs: Record<string, string>;
  let engines: Engine[];
  try {
    engines = engineNames(process.env.TRYON_ENGINES);
    // The 7.1 suite starts what the node suite's WordPress files start (PHP, MariaDB, Chromium).
    programs = ensurePrograms(
      programsFor(
        [...suites, ...(otherNodes.length > 0 ? ['node-versions'] : []), ...(wordpress71 ? ['node'] : [])],
        engines,
      ),
    );
    if (wordpress71) programs[CURRENT_WORDPRESS_ENV] = currentWordPress({ root });
    for (const major of otherNodes) nodes[nodeEnv(major)] = nodeBinary(major, { root });
  } catch (error) {
    console.error(`\n${(error as Error).message}`);
    console.log(`\n${total.passed} passed, 1 failed`);
    process.exit(1);
  }
  // Every suite, and every process a suite starts, finds the programs here.
  Object.assign(process.env, programs);

  if (runs('typecheck')) {
    console.log('── typecheck ──');
    const code = await run(process.execPath, [
      join(root, 'node_modules/typescript/bin/tsc'),
      '--noEmit',
      '-p',
      'tsconfig.json',
    ]);
    add(code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 });
  }

  if (runs('lint')) {
    // Two checks, each a pass or a fail: what ESLint finds wrong, and what Prettier would reformat.
    console.log('\n── lint (ESLint, then Prettier) ──');
    for (const [tool, args] of [
      ['eslint', ['node_modules/eslint/bin/eslint.js', '.']],
      ['prettier', ['node_modules/prettier/bin/prettier.cjs', '--check', '--log-level', 'warn', '.']],
    ] as const) {
      const code = await run(
        process.execPath,
        args.map((arg, i) => (i === 0 ? join(root, arg) : arg)),
      );
      if (code !== 0) console.log(`${tool}: the tree is not clean (npm run format fixes what can be fixed)`);
      add(code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 });
    }
  }

  if (runs('node')) {
    add(
      await nodeSuite('node', [
        ...testFiles('test/sandbox'),
        ...testFiles('test/proxy'),
        ...testFiles('test/integrations'),
        // The map (docs/architecture.md) against the modules, and no citation of documents outside the repository.
        ...testFiles('test/architecture'),
        // The benchmarks' own logic (what counts as the first script, medians, the report); the
        // benchmarks themselves run with `npm run bench`, not here.
        ...testFiles('test/bench'),
      ]),
    );
  }

  // The proxy and the sandbox (what a shop's server runs) under each other maintained Node line.
  const perNode: string[] = [];
  for (const major of otherNodes) {
    const counts = await nodeSuite(
      `node${major}`,
      [...testFiles('test/sandbox'), ...testFiles('test/proxy')],
      {},
      nodes[nodeEnv(major)],
    );
    perNode.push(
      `node ${major}: ${counts.passed} passed, ${counts.failed} failed${counts.skipped > 0 ? `, ${counts.skipped} skipped` : ''}`,
    );
    add(counts);
  }
  if (perNode.length > 0) console.log(`\n${perNode.join('\n')}`);

  if (wordpress71) {
    // The same files as on 6.1, on the current release: WORDPRESS_PATH names its folder.
    const files = testFiles('test/integrations').filter((file) =>
      /\/(wordpress|woocommerce-cart)[\w-]*\.test\.ts$/.test(file),
    );
    const counts = await nodeSuite('wordpress71', files, { WORDPRESS_PATH: programs[CURRENT_WORDPRESS_ENV] });
    console.log(`\nWordPress 7.1: ${counts.passed} passed, ${counts.failed} failed`);
    add(counts);
  }

  if (runs('widget') && testFiles('test/widget').length > 0) {
    console.log(`\n── widget (web-test-runner: ${engines.join(', ')}, in parallel) ──`);
    const countsFile = join(work, 'wtr.json');
    const code = await run(
      process.execPath,
      [join(root, 'node_modules/@web/test-runner/dist/bin.js'), '--config', 'web-test-runner.config.js'],
      {
        WTR_COUNTS_FILE: countsFile,
        TRYON_ENGINES: engines.join(','),
      },
    );
    const counts: Counts & { engines?: Record<string, Counts> } = existsSync(countsFile)
      ? JSON.parse(readFileSync(countsFile, 'utf8'))
      : { passed: 0, failed: 1, skipped: 0 };
    if (code !== 0 && counts.failed === 0) counts.failed = 1;
    for (const [engine, each] of Object.entries(counts.engines ?? {})) {
      const skipped = each.skipped > 0 ? `, ${each.skipped} skipped` : '';
      console.log(`widget in ${engine}: ${each.passed} passed, ${each.failed} failed${skipped}`);
    }
    add(counts);
  }

  if (runs('e2e')) {
    add(await nodeSuite('e2e', testFiles('test/e2e')));
  }

  const skipped = total.skipped > 0 ? `, ${total.skipped} skipped` : '';
  console.log(`\n${total.passed} passed, ${total.failed} failed${skipped}`);
  process.exit(total.failed > 0 ? 1 : 0);
}

await main();
