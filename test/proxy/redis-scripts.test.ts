// Every Lua script the Redis store runs keeps Redis Cluster's rule: it touches only keys passed in
// its KEYS, and all of those hash to one slot. Checked against a real redis-server in cluster mode
// (one node holding every slot, so a script whose KEYS span slots fails as on any cluster), with
// MONITOR recording each script call and every command it ran; `COMMAND GETKEYS` says which
// arguments of those commands are keys, `CLUSTER KEYSLOT` which slot each key is in.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { connectRedisStore, STORE_SCRIPTS, type RedisStore } from '../../proxy/store/redis.js';
import type { SpendClaim } from '../../proxy/money/spend-ledger.js';
import { startRedis, type RedisServer } from './cluster.js';

interface Line {
  source: string;
  args: string[];
}
interface ScriptRun {
  sha: string;
  keys: string[];
  commands: string[][];
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** MONITOR shows an EVAL's script escaped (`\n` for a newline): this script's sha, by its text. */
function shaOfShown(shown: string): string {
  const escape = (lua: string) => lua.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
  const known = Object.values(STORE_SCRIPTS).find((lua) => escape(lua) === shown);
  return sha1(known ?? shown);
}

/** The script calls among MONITOR's lines, each with the commands it ran (MONITOR lists them right after it, marked `lua`). */
function scriptRuns(lines: Line[]): ScriptRun[] {
  const runs: ScriptRun[] = [];
  let current: ScriptRun | undefined;
  for (const { source, args } of lines) {
    if (source === 'lua') {
      current?.commands.push(args);
      continue;
    }
    current = undefined;
    const name = args[0]?.toLowerCase();
    if (name !== 'eval' && name !== 'evalsha') continue;
    const count = Number(args[2]);
    current = { sha: name === 'eval' ? shaOfShown(args[1]!) : args[1]!, keys: args.slice(3, 3 + count), commands: [] };
    runs.push(current);
  }
  return runs;
}

describe('the Redis store’s scripts on Redis Cluster', () => {
  let server: RedisServer;
  let admin: Redis;
  let monitor: Redis;
  let store: RedisStore;
  const lines: Line[] = [];
  let heard = (_args: string[]) => undefined as void;

  before(async () => {
    server = await startRedis({ cluster: true });
    admin = new Redis(server.url);
    monitor = await admin.monitor();
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      const line = { source: source.includes('lua') ? 'lua' : source, args: args.map(String) };
      lines.push(line);
      heard(line.args);
    });
    store = await connectRedisStore(server.url, { prefix: 'tryon:' });
  });
  after(async () => {
    await store?.close();
    monitor?.disconnect();
    admin?.disconnect();
    await server?.close();
  });

  it('every script touches only its KEYS, all in one slot, and each of the store’s scripts ran', async () => {
    const now = Date.now();
    const snapshot = { status: 'queued' as const, at: now, outputs: [], views: ['front'] };
    await store.seedStatus('job_1', { snapshot, product: 'dress', tier: 'draft' } as never, 60_000);
    await store.writeStatus(
      'job_1',
      { snapshot: { ...snapshot, status: 'processing', at: now + 1 }, pushed: true } as never,
      60_000,
    );
    assert.equal(await store.claimPoll('job_1', 1_000), true);
    await store.releasePoll('job_1');
    await store.saveGarmentId('garment:dress.png', 'file_1');
    await store.forgetGarmentId('garment:dress.png', 'file_1');
    const token = await store.lockGarment('garment:dress.png', 1_000);
    await store.unlockGarment('garment:dress.png', token!);
    await store.createHandoff(
      { id: 'handoff_1', code: 'ABCDEFGHJK', product: 'dress', expiresAt: now + 60_000 },
      60_000,
    );
    const pairing = { confirmation: '271828', triesLeft: 5, confirmBy: now + 60_000 };
    assert.equal(await store.receiveHandoff('ABCDEFGHJK', 'photo_handle', pairing, now), 'received');
    assert.equal(await store.receiveHandoff('ABCDEFGHJK', 'photo_handle', pairing, now), 'used');
    assert.deepEqual(await store.confirmHandoff('handoff_1', '271829', now), { outcome: 'wrong', triesLeft: 4 });
    assert.deepEqual(await store.confirmHandoff('handoff_1', '271828', now), {
      outcome: 'received',
      photo: 'photo_handle',
    });
    assert.equal((await store.readHandoff('handoff_1'))?.photo, 'photo_handle');
    const forgotten = store.photoRevocations(() => now);
    await forgotten.revoke('photo_gone', now + 60_000);
    assert.equal(await forgotten.isRevoked('photo_gone'), true);
    assert.equal(await forgotten.beginSubmit('photo_gone', 1_000), undefined);
    const ticket = await forgotten.beginSubmit('photo_1', 1_000);
    assert.equal(await forgotten.submitsUnderWay('photo_1'), 1);
    await forgotten.endSubmit('photo_1', ticket!);
    assert.equal(await store.takeRequest('writes', '198.51.100.7', 10), undefined);

    const ledger = store.spendLedger(
      { dailyTryons: 10, dailyCredits: 100, tryonsPerPhoto: 5, clientDailyTryons: 5 },
      () => now,
    );
    const claim = (key: string): SpendClaim => ({
      key,
      photoId: 'photo_1',
      client: '198.51.100.7',
      credits: 2,
      keepUntil: now + 60_000,
    });
    // Given back (the settle that touches the photo's set and the day's counters)…
    assert.deepEqual(await ledger.reserve(claim('key_refused')), { granted: true, retry: false });
    await ledger.settle('key_refused', 'refused');
    // …and kept: accepted, then a retry reserved again and refused.
    assert.deepEqual(await ledger.reserve(claim('key_accepted')), { granted: true, retry: false });
    await ledger.settle('key_accepted', 'accepted');
    assert.deepEqual(await ledger.reserve(claim('key_accepted')), { granted: true, retry: true });
    await ledger.settle('key_accepted', 'refused');
    assert.deepEqual(await ledger.usage(), { day: new Date(now).toISOString().slice(0, 10), tryons: 1, credits: 2 });

    // The order book: an order (with its browser), its refund, and a window's tally (the union count).
    const book = store.orderBook();
    const day = new Date(now).toISOString().slice(0, 10);
    await book.addExposure(day, 'treatment', 'browser_hash_1');
    const order = {
      delivery: 'shopify:d1',
      order: 'order_hash_1',
      day,
      counters: { 'o:treatment': 1, 'l:t:501': 2 },
      browser: { group: 'treatment' as const, hash: 'browser_hash_1' },
      entry: { d: day, l: { line1: ['501', 2, 1, 0] as ['501', number, 1, number] } },
    };
    assert.equal(await book.addOrder(order), 'counted');
    assert.equal(await book.addOrder(order), 'duplicate');
    const refund = {
      delivery: 'shopify:d2',
      order: 'order_hash_1',
      refund: 'refund_hash_1',
      lines: [{ key: 'line1', product: '501', quantity: 1, triedOn: true }],
    };
    assert.equal(await book.addRefund(refund), 'counted');
    const tally = await book.tally([day]);
    assert.deepEqual(
      [tally.exposedBrowsers.treatment, tally.orderingBrowsers.treatment, tally.counters['f:t:501']],
      [1, 1, 1],
    );

    // MONITOR may lag the answers: a marker shows everything before it has been heard.
    const marker = `done-${now}`;
    const done = new Promise<void>((resolve) => {
      heard = (args) => {
        if (args[1] === marker) resolve();
      };
    });
    await admin.echo(marker);
    await done;

    const runs = scriptRuns(lines);
    for (const [name, lua] of Object.entries(STORE_SCRIPTS)) {
      assert.ok(
        runs.some((run) => run.sha === sha1(lua) && run.commands.length > 0),
        `${name} ran`,
      );
    }
    const names = new Map(Object.entries(STORE_SCRIPTS).map(([name, lua]) => [sha1(lua), name]));
    for (const run of runs) {
      const name = names.get(run.sha) ?? `script ${run.sha.slice(0, 8)} (rate-limiter-flexible)`;
      const slots = new Set(
        await Promise.all(run.keys.map(async (key) => Number(await admin.call('CLUSTER', 'KEYSLOT', key)))),
      );
      assert.ok(slots.size <= 1, `${name}: its KEYS ${JSON.stringify(run.keys)} span slots ${[...slots].join(', ')}`);
      for (const command of run.commands) {
        const touched = (await admin.call('COMMAND', 'GETKEYS', ...command).catch(() => [])) as string[];
        for (const key of touched)
          assert.ok(
            run.keys.includes(key),
            `${name}: ${command[0]} touched ${key}, not in its KEYS ${JSON.stringify(run.keys)}`,
          );
      }
    }
  });
});
