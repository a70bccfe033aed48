// `tsx proxy/node.ts` as an operator runs it: refuses unsafe production config with every
// problem listed, and with no key says in one line how to run against the sandbox. The
// development convenience that starts the sandbox itself is demo/proxy.ts, tested here too.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOG, writeAssets } from './stack.js';

const root = new URL('../../', import.meta.url).pathname;

function run(
  env: Record<string, string>,
  until?: RegExp,
  script = 'proxy/node.ts',
): Promise<{ code: number | null; output: string; stop(): void; matched?: RegExpExecArray }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    let output = '';
    let done = false;
    const finish = (code: number | null, matched?: RegExpExecArray) => {
      if (done) return;
      done = true;
      resolve({ code, output, stop: () => child.kill('SIGTERM'), ...(matched ? { matched } : {}) });
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const matched = until?.exec(output);
      if (matched) finish(null, matched);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => finish(code));
    setTimeout(() => {
      child.kill('SIGKILL');
      finish(-1);
    }, 30_000).unref();
  });
}

describe('proxy/node.ts', () => {
  it('refuses a production start without secret, key or origins, naming each', async () => {
    const result = await run({ NODE_ENV: 'production', TRYON_ALLOWED_ORIGINS: '*' });
    assert.equal(result.code, 1);
    assert.match(result.output, /TRYON_API_KEY is required/);
    assert.match(result.output, /TRYON_PROXY_SECRET is required/);
    assert.match(result.output, /may not be \*/);
    assert.ok(!/at .*\.ts:\d+/.test(result.output), 'no stack trace');
  });

  it('refuses an admin token without its own port, or a short one, in plain words with no token in them', async () => {
    const token = 'admin-token-for-cli-0123456789';
    const portless = await run({ TRYON_ADMIN_TOKEN: token, TRYON_PORT: '0' });
    assert.equal(portless.code, 1, portless.output);
    assert.match(
      portless.output,
      /TRYON_ADMIN_TOKEN is set but TRYON_ADMIN_PORT is not: \/metrics and \/usage are served only on the admin port/,
    );
    assert.ok(!portless.output.includes(token), 'the token is not printed');
    const short = await run({ TRYON_METRICS_TOKEN: 'too-short', TRYON_ADMIN_PORT: '0', TRYON_PORT: '0' });
    assert.equal(short.code, 1, short.output);
    assert.match(short.output, /TRYON_METRICS_TOKEN must be at least 16 characters/);
    assert.ok(!/at .*\.ts:\d+/.test(short.output), 'no stack trace');
  });

  it('with no key starts nothing and says in one line how to run against the sandbox', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tryon-cli-'));
    try {
      await writeAssets(dir);
      await writeFile(join(dir, 'catalog.json'), JSON.stringify(CATALOG));
      const result = await run({ TRYON_PORT: '0', TRYON_CATALOG: join(dir, 'catalog.json') }, /listening on/);
      assert.equal(result.code, 1, result.output);
      const lines = result.output.trim().split('\n');
      assert.equal(lines.length, 1, result.output);
      assert.match(lines[0]!, /TRYON_API_KEY is not set/);
      assert.match(lines[0]!, /npx tryon-sandbox/);
      assert.match(lines[0]!, /TRYON_BASE_URL/);
      // Whoever reads this installed the package: nothing only a clone has (npm run …, docs/…).
      assert.doesNotMatch(lines[0]!, /npm run|npm start|docs\//);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('with a key but no catalog starts nothing and says what TRYON_CATALOG is', async () => {
    const result = await run(
      { TRYON_PORT: '0', TRYON_API_KEY: 'sk_test_x', TRYON_BASE_URL: 'http://127.0.0.1:9' },
      /listening on/,
    );
    assert.equal(result.code, 1, result.output);
    assert.match(result.output, /TRYON_CATALOG is not set/);
  });

  it('demo/proxy.ts in development with no key starts an in-process sandbox, says so, and serves', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tryon-cli-'));
    await writeAssets(dir);
    await writeFile(join(dir, 'catalog.json'), JSON.stringify(CATALOG));
    const result = await run(
      { TRYON_PORT: '0', TRYON_CATALOG: join(dir, 'catalog.json') },
      /listening on (http:\/\/\S+)/,
      'demo/proxy.ts',
    );
    try {
      assert.match(result.output, /in-process sandbox/);
      assert.match(result.output, /mode development/);
      const url = result.matched![1]!;
      assert.deepEqual(await (await fetch(`${url}/health`)).json(), { ok: true, upstream: 'sandbox' });
      assert.equal((await fetch(`${url}/products/saree-banarasi-red`)).status, 200);
    } finally {
      result.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports a bad catalog naming product and field, and a test key as test mode without the key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tryon-cli-'));
    try {
      await writeFile(
        join(dir, 'bad.json'),
        JSON.stringify({ products: { 'saree-x': { mode: 'garment_to_person', garment: { category: 'saree' } } } }),
      );
      const bad = await run({
        TRYON_CATALOG: join(dir, 'bad.json'),
        TRYON_API_KEY: 'sk_test_x',
        TRYON_BASE_URL: 'http://127.0.0.1:9',
      });
      assert.equal(bad.code, 1);
      assert.match(bad.output, /product "saree-x": field garmentImage/);
      await writeAssets(dir);
      await writeFile(join(dir, 'catalog.json'), JSON.stringify(CATALOG));
      const key = 'sk_test_DoNotPrintMe12345';
      const started = await run(
        {
          TRYON_PORT: '0',
          TRYON_CATALOG: join(dir, 'catalog.json'),
          TRYON_API_KEY: key,
          TRYON_BASE_URL: 'http://127.0.0.1:9',
        },
        /listening on/,
      );
      started.stop();
      assert.match(started.output, /test mode/);
      assert.ok(!started.output.includes('DoNotPrintMe'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start with TRYON_REDIS_URL and no TRYON_PROXY_SECRET, saying why', async () => {
    const result = await run({
      TRYON_API_KEY: 'sk_test_a',
      TRYON_BASE_URL: 'http://127.0.0.1:9',
      TRYON_REDIS_URL: 'redis://127.0.0.1:9',
      TRYON_CATALOG: '/nonexistent.json',
    });
    assert.equal(result.code, 1);
    assert.match(result.output, /TRYON_PROXY_SECRET is required with TRYON_REDIS_URL/);
    assert.doesNotMatch(result.output, /listening/);
  });
});
