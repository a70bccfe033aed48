import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';

const root = new URL('../..', import.meta.url).pathname;

/** Starts `sandbox/main.ts` as `npm run sandbox` would, and collects what it prints. */
function cli(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/main.ts'], {
    cwd: root,
    env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_SPEED: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${pattern} in: ${out}`)), 20_000);
      const look = () => {
        const match = pattern.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match);
        }
      };
      child.stdout.on('data', look);
      child.stderr.on('data', look);
      void exited.then(() => {
        clearTimeout(timer);
        const m = pattern.exec(out);
        if (m) resolve(m);
        else reject(new Error(`exited; printed: ${out}`));
      });
      look();
    });
  return { child, exited, printed, output: () => out };
}

describe('npm run sandbox (sandbox/main.ts)', () => {
  it('prints its URL and a made-up test key, serves /v1 with it, and stops cleanly on SIGTERM', async () => {
    const run = cli({ SANDBOX_KEYS: '' });
    const [, url] = await run.printed(/at (http:\/\/127\.0\.0\.1:\d+)\/v1/);
    const [, key] = await run.printed(/test key \(made up for this run\): (sk_test_[0-9a-f]+)/);
    const ok = await fetch(`${url}/v1/jobs/job_x`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(ok.status, 404);
    const refused = await fetch(`${url}/v1/jobs/job_x`, { headers: { authorization: 'Bearer sk_test_other' } });
    assert.equal(refused.status, 401);
    run.child.kill('SIGTERM');
    assert.equal(await run.exited, 0);
    assert.match(run.output(), /SIGTERM, stopping/);
  });

  it('uses SANDBOX_KEYS without printing them', async () => {
    const run = cli({ SANDBOX_KEYS: 'sk_test_cli=ws_a, sk_live_cli=ws_b' });
    const [, url] = await run.printed(/at (http:\/\/127\.0\.0\.1:\d+)\/v1/);
    await run.printed(/2 key\(s\) from SANDBOX_KEYS/);
    const state = (await (await fetch(`${url}/sandbox/state`)).json()) as any;
    assert.deepEqual(Object.keys(state.workspaces).sort(), ['ws_a', 'ws_b']);
    run.child.kill('SIGINT');
    assert.equal(await run.exited, 0);
    assert.ok(!run.output().includes('sk_live_cli') && !run.output().includes('sk_test_cli'), run.output());
  });

  it('refuses bad configuration with a clear message and exit code 1', async () => {
    for (const [env, message] of [
      [{ SANDBOX_KEYS: 'sk_test_only' }, /SANDBOX_KEYS must be key=workspace pairs/],
      [{ SANDBOX_SPEED: 'fast' }, /SANDBOX_SPEED must be a number/],
      [{ SANDBOX_SPREAD: 'yes' }, /SANDBOX_SPREAD must be 1 .* or 0/],
      [{ SANDBOX_GENERAL_PROVIDERS: 'one,two' }, /exactly three/],
      [{ SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:9/hooks' }, /SANDBOX_WEBHOOK_SECRET/],
    ] as const) {
      const run = cli(env);
      assert.equal(await run.exited, 1, run.output());
      assert.match(run.output(), message);
    }
  });
});
