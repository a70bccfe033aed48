// What `npm install tryon-button` brings into a shop: the package packed with `npm pack` from a
// fresh build and installed into an empty project. Offline and without the registry: the package's
// runtime dependencies (and theirs) are packed from this repository's node_modules and installed as
// local tarballs, so npm places exactly what the package asks for, and a dependency it asked for
// but that is not there would fail the install.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { buildCdn, buildNpm, buildProxy, fileExists, listFiles, projectRoot } from '../../scripts/build.js';

/** The goal for everything the install puts in node_modules. */
const INSTALLED_BUDGET = 25 * 1024 * 1024;
/**
 * Server, build and test software that must never be installed for a shop. (`standardwebhooks` is
 * the proxy's, but bundled into dist/proxy, so it is not installed either.)
 */
const NOT_FOR_SHOPS = ['sharp', '@img', '@ffmpeg-installer', 'standardwebhooks', 'esbuild', '@esbuild', 'tsx', 'typescript', 'vite', 'playwright-core'];
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

interface Manifest {
  name: string;
  version: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

let work: string;
let shop: string;
let rootManifest: Manifest;
let npmOutput: string;

function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string; stdout: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}`, stdout });
      });
  });
}

async function readManifest(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** Where Node would find package `name` required from `fromDir`: the nearest node_modules up the tree. */
async function installedDir(name: string, fromDir: string): Promise<string> {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (await fileExists(join(candidate, 'package.json'))) return candidate;
    if (dir === dirname(dir) || relative(projectRoot, dir).startsWith('..')) break;
  }
  throw new Error(`${name} is not installed in this repository (run npm install)`);
}

/** Every package the manifest's runtime dependencies need, found in this repository's node_modules. */
async function runtimeClosure(manifest: Manifest, fromDir: string, found = new Map<string, string>()): Promise<Map<string, string>> {
  const required = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => !manifest.peerDependenciesMeta?.[name]?.optional),
  ];
  for (const name of required) {
    if (found.has(name)) continue;
    const dir = await installedDir(name, fromDir);
    found.set(name, dir);
    await runtimeClosure(await readManifest(dir), dir, found);
  }
  return found;
}

/** Bytes of every file below `dir`, as a tarball or a disk quota counts them. */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const path of await listFiles(dir)) total += (await stat(path)).size;
  return total;
}

/** Every installed package's folder below node_modules, nested ones included. */
async function installedPackages(nodeModules: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dir = join(nodeModules, entry.name);
    const dirs = entry.name.startsWith('@')
      ? (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => join(dir, e.name))
      : [dir];
    for (const packageDir of dirs) {
      found.push(packageDir);
      if (await fileExists(join(packageDir, 'node_modules'))) found.push(...(await installedPackages(join(packageDir, 'node_modules'))));
    }
  }
  return found;
}

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'tryon-install-'));
  const pkg = join(work, 'package');
  shop = join(work, 'shop');
  rootManifest = await readManifest(projectRoot);

  // The package as `npm run build` and `npm pack` make it, built into a folder of its own.
  await buildCdn({ outDir: join(pkg, 'dist/cdn'), quiet: true });
  await Promise.all([
    buildNpm({ outDir: join(pkg, 'dist/npm'), quiet: true, apiReference: false }),
    buildProxy({ outDir: join(pkg, 'dist/proxy'), quiet: true }),
  ]);
  await cp(join(projectRoot, 'package.json'), join(pkg, 'package.json'));
  await cp(join(projectRoot, 'README.md'), join(pkg, 'README.md'));
  await cp(join(projectRoot, 'docs'), join(pkg, 'docs'), { recursive: true });

  const tarballs = join(work, 'tarballs');
  await mkdir(tarballs, { recursive: true });
  const packed = await run('npm', ['pack', '--json', '--pack-destination', tarballs], pkg);
  assert.equal(packed.code, 0, packed.output);
  const ownTarball = (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename;

  const closure = await runtimeClosure(rootManifest, projectRoot);
  const dependencies: Record<string, string> = { [rootManifest.name]: `file:${join(tarballs, ownTarball)}` };
  const packedDeps = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tarballs, ...closure.values()], work);
  assert.equal(packedDeps.code, 0, packedDeps.output);
  const depTarballs = JSON.parse(packedDeps.stdout) as { name: string; filename: string }[];
  for (const { name, filename } of depTarballs) dependencies[name] = `file:${join(tarballs, filename)}`;

  await mkdir(shop, { recursive: true });
  await writeFile(join(shop, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module', dependencies }, null, 2));
  // Install scripts are allowed to run, as in a shop's ordinary install: the test asserts there are none.
  const installed = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--foreground-scripts'], shop);
  npmOutput = installed.output;
  assert.equal(installed.code, 0, `npm install failed:\n${installed.output}`);
});

after(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('npm install tryon-button, into an empty project', () => {
  test('runs no install script', async () => {
    const own = await readManifest(join(shop, 'node_modules', rootManifest.name));
    for (const script of INSTALL_SCRIPTS) assert.equal(own.scripts?.[script], undefined, `the package has no ${script} script`);
    for (const dir of await installedPackages(join(shop, 'node_modules'))) {
      const manifest = await readManifest(dir);
      for (const script of INSTALL_SCRIPTS.filter((s) => s !== 'prepare')) {
        assert.equal(manifest.scripts?.[script], undefined, `${manifest.name} has a ${script} script`);
      }
      // npm runs node-gyp for a package with binding.gyp even without an install script.
      assert.ok(!(await fileExists(join(dir, 'binding.gyp'))), `${manifest.name} builds native code`);
    }
    assert.doesNotMatch(npmOutput, /install-scripts|postinstall|node-gyp/i);
  });

  test('brings only what a shop runs: no server, build or test software', async () => {
    const names = await Promise.all((await installedPackages(join(shop, 'node_modules'))).map(async (dir) => (await readManifest(dir)).name));
    for (const name of names) {
      assert.ok(!NOT_FOR_SHOPS.some((banned) => name === banned || name.startsWith(`${banned}/`)), `${name} is installed`);
    }
    assert.ok(names.includes('lit') && names.includes('hono'), `the element and the proxy's own dependencies are there: ${names.join(', ')}`);
  });

  test(`takes at most ${INSTALLED_BUDGET / 1024 / 1024} MB installed`, async (t) => {
    const bytes = await sizeOf(join(shop, 'node_modules'));
    const own = await sizeOf(join(shop, 'node_modules', rootManifest.name));
    t.diagnostic(`installed: ${(bytes / 1024 / 1024).toFixed(1)} MB in node_modules, of which tryon-button ${(own / 1024 / 1024).toFixed(1)} MB`);
    assert.ok(bytes <= INSTALLED_BUDGET, `${(bytes / 1024 / 1024).toFixed(1)} MB installed`);
  });

  test('no dist/ entry holds sandbox, demo, build or test code', async () => {
    const dist = join(shop, 'node_modules', rootManifest.name, 'dist');
    // What the package declares it needs: its dependencies, and the peers a framework wrapper may name.
    const allowed = new Set([...Object.keys(rootManifest.dependencies ?? {}), ...Object.keys(rootManifest.peerDependencies ?? {})]);
    for (const path of await listFiles(dist)) {
      const file = relative(dist, path);
      if (path.endsWith('.map')) {
        // The source maps name every source file a bundle was made from.
        const { sources } = JSON.parse(await readFile(path, 'utf8')) as { sources: string[] };
        for (const source of sources) {
          // `without-demo:` is the build's stand-in that says the sandbox is not in the package.
          if (source.startsWith('without-demo:')) continue;
          assert.doesNotMatch(source, /(^|\/)(demo|scripts|test)\//, `${file} is built from ${source}`);
        }
        continue;
      }
      if (!path.endsWith('.js')) continue;
      const text = await readFile(path, 'utf8');
      const carried = /\bsharp\b|ffmpeg|startSandbox|drawShopImages|node:test/.exec(text);
      assert.ok(!carried, `${file} carries sandbox, demo or test code (${carried?.[0]})`);
      const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g)].map((m) => m[1]!);
      for (const specifier of specifiers) {
        if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        assert.ok(allowed.has(name), `${file} imports ${specifier}, which is not a dependency of the package`);
      }
    }
  });

  test('what is installed runs: the element module resolves and the proxy answers from the bin and the exports', async () => {
    const script = `
      const { createProxy } = await import('tryon-button/proxy');
      const proxy = createProxy({ apiKey: 'sk_test_x', baseUrl: 'http://127.0.0.1:9', secret: 'a-long-enough-secret-for-handles-0123456789', allowedOrigins: [], catalog: { products: {} } });
      const health = await proxy.request('/health');
      const node = await import('tryon-button/proxy/node');
      console.log(JSON.stringify({ health: health.status, startProxy: typeof node.startProxy, element: import.meta.resolve('tryon-button') }));
    `;
    const { code, output, stdout } = await run(process.execPath, ['--input-type=module', '-e', script], shop);
    assert.equal(code, 0, output);
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as { health: number; startProxy: string; element: string };
    assert.equal(result.health, 200);
    assert.equal(result.startProxy, 'function');
    assert.match(result.element, /node_modules\/tryon-button\/dist\/npm\/tryon-button\.js$/);
    assert.ok(await fileExists(join(shop, 'node_modules/.bin/tryon-proxy')), 'the tryon-proxy bin is linked');
  });
});
