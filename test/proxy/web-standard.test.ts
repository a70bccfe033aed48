// The app must run on Workers: nothing under proxy/ but node.ts (and http/node-response.ts, which only
// node.ts loads) may import Node-only modules.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('../../proxy/', import.meta.url).pathname;

function sources(dir: string): string[] {
  // The package's build output (proxy/dist) is bundled code, checked by the packaging tests.
  return readdirSync(dir)
    .filter((name) => name !== 'dist' && name !== 'node_modules')
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
    });
}

describe('proxy app code is Web-standard', () => {
  /** The Node entry and the one module of its own it loads (the public listener's answer). */
  const NODE_ONLY = new Set(['node.ts', 'http/node-response.ts']);

  it('only node.ts and http/node-response.ts import node:, fs or @hono/node-server', () => {
    const files = sources(root);
    assert.ok(files.length > 5);
    const offenders: string[] = [];
    for (const file of files) {
      const name = relative(root, file);
      if (NODE_ONLY.has(name)) continue;
      const text = readFileSync(file, 'utf8');
      const imports = [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map(
        (m) => m[1]!,
      );
      for (const spec of imports) {
        if (
          spec.startsWith('node:') ||
          spec === 'fs' ||
          spec.startsWith('fs/') ||
          spec.startsWith('@hono/node-server') ||
          ['path', 'crypto', 'os', 'http', 'stream', 'buffer'].includes(spec)
        ) {
          offenders.push(`${name} imports ${spec}`);
        }
      }
      if (/\bprocess\.|\bBuffer\./.test(text)) offenders.push(`${name} uses a Node global`);
    }
    assert.deepEqual(offenders, []);
  });

  it('http/node-response.ts is loaded by node.ts alone', () => {
    const importers = sources(root)
      .filter((file) => /from\s+['"][./\w-]*node-response\.js['"]/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    assert.deepEqual(importers, ['node.ts']);
  });

  it('nothing under proxy/ imports demo/ (the published proxy ships no sandbox and no demo drawing)', () => {
    const offenders: string[] = [];
    for (const file of sources(root)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)) {
        const spec = match[1]!;
        if (!spec.startsWith('.')) continue;
        const target = relative(join(root, '..'), join(file, '..', spec));
        if (!target.startsWith('proxy/')) offenders.push(`${relative(root, file)} imports ${spec}`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  it('the Node-only libraries (ioredis, rate-limiter-flexible, prom-client) are loaded only by node.ts, through store/redis.ts with the <feature>-redis.ts adapters and operator/metrics-prometheus.ts', () => {
    const nodeOnlyLibraries = ['ioredis', 'rate-limiter-flexible', 'prom-client'];
    // The Redis store puts together each feature's Redis adapter, all named <feature>-redis.ts.
    const redisAdapters = sources(root)
      .map((file) => relative(root, file))
      .filter((name) => name.endsWith('-redis.ts'));
    assert.ok(redisAdapters.length >= 5, `the features' Redis adapters: ${redisAdapters.join(', ')}`);
    const nodeOnlyModules: Record<string, string[]> = {
      'store/redis.ts': ['ioredis'],
      ...Object.fromEntries(redisAdapters.map((name) => [name, ['ioredis']])),
      'limits/rate-buckets-redis.ts': ['ioredis', 'rate-limiter-flexible'],
      'operator/metrics-prometheus.ts': ['prom-client'],
    };
    const offenders: string[] = [];
    for (const file of sources(root)) {
      const name = relative(root, file);
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)) {
        const spec = match[1]!;
        if (nodeOnlyLibraries.includes(spec) && !nodeOnlyModules[name]?.includes(spec))
          offenders.push(`${name} imports ${spec}`);
        const target = spec.startsWith('.') ? relative(root, join(file, '..', spec)).replace(/\.js$/, '.ts') : '';
        if (target in nodeOnlyModules && name !== 'node.ts' && !(name in nodeOnlyModules))
          offenders.push(`${name} imports ${spec}`);
      }
    }
    assert.deepEqual(offenders, []);
    // ...and node.ts loads them only when asked (TRYON_REDIS_URL, TRYON_METRICS_TOKEN): dynamic imports.
    const node = readFileSync(join(root, 'node.ts'), 'utf8');
    assert.match(node, /\(\) => import\('\.\/store\/redis\.js'\)/);
    assert.match(node, /\(\) => import\('\.\/operator\/metrics-prometheus\.js'\)/);
    assert.doesNotMatch(node, /from '\.\/store\/redis\.js'|from '\.\/operator\/metrics-prometheus\.js'/);
  });

  it('node.ts does use the Node adapter (so the check above looks at real code)', () => {
    assert.match(readFileSync(join(root, 'node.ts'), 'utf8'), /@hono\/node-server/);
  });
});

describe('the Workers bundle', () => {
  it('bundles for a browser-like platform with no Node built-in', async (t) => {
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: [join(root, 'worker.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      minify: true,
      write: false,
      logLevel: 'silent',
    });
    assert.deepEqual(result.errors, []);
    const code = result.outputFiles[0]!.text;
    assert.ok(!/from\s*["']node:|require\(["']node:/.test(code));
    assert.match(code, /export\s*\{/);
    assert.doesNotMatch(
      code,
      /ioredis|prom-client|rate-limiter-flexible/,
      'no Node-only library in the Workers bundle',
    );
    t.diagnostic(`worker bundle: ${(code.length / 1024).toFixed(0)} KiB minified`);
  });
});
