// The admin listener's allowance for refused attempts, on a clock the test holds still: every
// process on the machine reaches the listener from the same loopback address, so a guesser's
// lockout must never refuse the right token (Prometheus, the usage page), and a right token must
// never clear the guesser's count. metrics.test.ts drives the same through a real node.ts process.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_REFUSALS_PER_MINUTE, createAdmin } from '../../proxy/admin.js';

const TOKEN = 'admin-token-for-tests-0123456789';

function listener() {
  let now = Date.UTC(2026, 10, 21, 12, 0, 5);
  const logs: Record<string, unknown>[] = [];
  const admin = createAdmin({
    token: TOKEN,
    metrics: { contentType: 'text/plain; version=0.0.4', text: async () => 'tryon_up 1\n' },
    clientAddress: () => '127.0.0.1',
    log: (entry) => logs.push(entry),
    now: () => now,
  });
  const ask = (authorization?: string) =>
    admin.request('/metrics', authorization === undefined ? {} : { headers: { authorization } });
  return { ask, logs, later: (ms: number) => (now += ms) };
}

describe('the admin listener under a guesser on the same address', () => {
  it('serves the right token after 20 bad ones, and still answers the bad ones 429 past the limit', async () => {
    const { ask, logs } = listener();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push((await ask(i % 3 ? `Bearer wrong-${i}-0123456789abcdef` : undefined)).status);
    assert.deepEqual(statuses, [
      ...Array<number>(ADMIN_REFUSALS_PER_MINUTE).fill(401),
      ...Array<number>(20 - ADMIN_REFUSALS_PER_MINUTE).fill(429),
    ]);
    const served = await ask(`Bearer ${TOKEN}`);
    assert.equal(served.status, 200);
    assert.equal(await served.text(), 'tryon_up 1\n');
    // The right token does not clear the count: the next wrong one is still refused unheard.
    const refused = await ask('Bearer wrong-again-0123456789abcdef');
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal((await ask(`Bearer ${TOKEN}`)).status, 200);
    // Every refusal is logged, never a token.
    assert.equal(logs.filter((l) => l.event === 'admin_auth_refused').length, 21);
    assert.doesNotMatch(JSON.stringify(logs), /wrong-|admin-token-for-tests/);
  });

  it('a near miss of the token counts as a failure like any other', async () => {
    const { ask } = listener();
    for (const near of [TOKEN, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `bearer ${TOKEN}`]) {
      assert.equal((await ask(near)).status, 401, near);
    }
  });

  it('the minute slides: ten refusals just before a minute ends leave none just after it', async () => {
    const { ask, later } = listener();
    later(54_500); // 12:00:59.5
    for (let i = 0; i < ADMIN_REFUSALS_PER_MINUTE; i++)
      assert.equal((await ask('Bearer wrong-0123456789abcdef')).status, 401);
    later(1_000); // 12:01:00.5, a new minute on the clock
    const refused = await ask('Bearer wrong-0123456789abcdef');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '59', 'until the first of the ten is a minute old');
    later(59_000);
    assert.equal((await ask('Bearer wrong-0123456789abcdef')).status, 401);
  });

  it('the allowance comes back in the next minute', async () => {
    const { ask, later } = listener();
    for (let i = 0; i < ADMIN_REFUSALS_PER_MINUTE; i++) await ask('Bearer wrong-0123456789abcdef');
    assert.equal((await ask('Bearer wrong-0123456789abcdef')).status, 429);
    later(60_000);
    assert.equal((await ask('Bearer wrong-0123456789abcdef')).status, 401);
  });
});
