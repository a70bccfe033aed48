// Tiers take realistic, ordered times. The model (log-normal per tier, median and
// p95 as stated) is checked by drawing from it, and the real sandbox on loopback is checked to run
// jobs on it at a fast SANDBOX_SPEED.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { drawSeconds, durations, latency, sigmaOf, tiers } from '../../sandbox/api/tiers.js';
import { imageBody, inputs, sandbox, settled } from './support.js';
import type { Sandbox } from './support.js';

/** A small seeded generator (mulberry32), so the sampled figures are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const quantile = (values: number[], q: number) => values.toSorted((a, b) => a - b)[Math.floor(values.length * q)]!;

describe('tier times: the model', () => {
  it('states ordered medians and p95s: a draft in a few seconds, standard 15 s (p95 25 s), premium 35 s (p95 60 s)', () => {
    assert.deepEqual(latency.front.standard, { median: 15, p95: 25 });
    assert.deepEqual(latency.front.premium, { median: 35, p95: 60 });
    assert.ok(latency.front.draft.median <= 5 && latency.front.draft.p95 <= 8, 'a draft takes a few seconds');
    for (const kind of ['front', 'video'] as const) {
      const [draft, standard, premium] = tiers.map((tier) => latency[kind][tier]);
      assert.ok(draft!.median < standard!.median && standard!.median < premium!.median, `${kind}: medians ordered`);
      assert.ok(draft!.p95 < standard!.p95 && standard!.p95 < premium!.p95, `${kind}: p95s ordered`);
    }
  });

  it('draws each tier with spread around its median, its 95th percentile where stated', (t) => {
    const random = seeded(21);
    const medians: number[] = [];
    for (const tier of tiers) {
      const stated = latency.front[tier];
      const draws = Array.from({ length: 20_000 }, () => drawSeconds(stated, { random }));
      const median = quantile(draws, 0.5);
      const p95 = quantile(draws, 0.95);
      const [low, high] = [Math.min(...draws), Math.max(...draws)];
      t.diagnostic(
        `${tier}: median ${median.toFixed(2)} s (stated ${stated.median}), p95 ${p95.toFixed(2)} s (stated ${stated.p95}), range ${low.toFixed(2)}–${high.toFixed(2)} s, σ ${sigmaOf(stated).toFixed(3)}`,
      );
      assert.ok(Math.abs(median / stated.median - 1) < 0.03, `${tier}: median ${median.toFixed(2)} s`);
      assert.ok(Math.abs(p95 / stated.p95 - 1) < 0.05, `${tier}: p95 ${p95.toFixed(2)} s`);
      // Truncated at ±2.5 σ: spread, but never an absurd time.
      const bound = Math.exp(sigmaOf(stated) * durations.maxDeviations);
      assert.ok(low >= stated.median / bound - 1e-9 && high <= stated.median * bound + 1e-9, `${tier}: within ±2.5 σ`);
      assert.ok(high / low > 3, `${tier}: real spread (${low.toFixed(1)}–${high.toFixed(1)} s)`);
      medians.push(median);
    }
    assert.ok(
      medians[0]! < medians[1]! && medians[1]! < medians[2]!,
      `sampled medians ordered: ${medians.map((m) => m.toFixed(1)).join(' < ')}`,
    );
  });

  it('gives the median exactly when spread is off', () => {
    for (const tier of tiers)
      assert.equal(drawSeconds(latency.front[tier], { spread: false, random: () => 0.99 }), latency.front[tier].median);
  });
});

/** Submit → succeeded, as the job's own timestamps say. */
async function jobMs(
  sb: Sandbox,
  files: { person: string; garment: string },
  tier: string,
): Promise<{ id: string; ms: number }> {
  const submit = await sb.json('POST', '/v1/images/tryon', { json: imageBody(files, { tier }) });
  assert.equal(submit.status, 202);
  const job = await settled(sb, submit.body.id);
  assert.equal(job.status, 'succeeded');
  return { id: job.id, ms: Date.parse(job.updated_at) - Date.parse(job.created_at) };
}

/** The time each job was given by the model, at SANDBOX_SPEED=1, from /sandbox/state. */
async function drawn(sb: Sandbox): Promise<Map<string, number>> {
  const jobs = (await sb.json('GET', '/sandbox/state')).body.workspaces.ws_1.jobs as Array<{
    id: string;
    seconds: number;
  }>;
  return new Map(jobs.map((job) => [job.id, job.seconds]));
}

// Speed 0.1: the tiers' medians × speed (0.3, 1.5, 3.5 s) stand further apart than a render of the
// person in the photo varies on a loaded machine (up to a second).
const SPEED = 0.1;

describe('tier times: the sandbox on loopback (SANDBOX_SPEED 0.1, spread off)', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await sandbox({ speed: SPEED, spread: false });
  });
  after(() => sb.close());

  it('runs draft < standard < premium, each its median × speed (plus the render)', async (t) => {
    const files = await inputs(sb);
    // The process's first renders warm sharp and the person models up, at each size a tier draws
    // (draft 512 px, the others 1024 px): not timed.
    await jobMs(sb, files, 'draft');
    await jobMs(sb, files, 'standard');
    const ms: Record<string, number> = {};
    const ids: string[] = [];
    for (const tier of tiers) {
      const job = await jobMs(sb, files, tier);
      ms[tier] = job.ms;
      ids.push(job.id);
    }
    t.diagnostic(
      `at speed ${SPEED}, one job at a time: draft ${ms.draft} ms, standard ${ms.standard} ms, premium ${ms.premium} ms (medians × speed: 300, 1500, 3500 ms)`,
    );
    assert.ok(ms.draft! < ms.standard! && ms.standard! < ms.premium!, JSON.stringify(ms));
    for (const tier of tiers) {
      const expected = latency.front[tier].median * 1000 * SPEED;
      // Never sooner than the model says; later only by the render itself.
      assert.ok(ms[tier]! >= expected - 5 && ms[tier]! < expected + 3000, `${tier}: ${ms[tier]} ms for ${expected} ms`);
    }
    const seconds = await drawn(sb);
    const timed = ids.map((id) => seconds.get(id)!);
    assert.ok(
      timed.every((s, i, all) => i === 0 || s > all[i - 1]!),
      `state shows the medians, in order: ${timed.join(', ')}`,
    );
  });
});

describe('tier times: the sandbox on loopback (SANDBOX_SPEED 0.02, spread on)', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await sandbox({ speed: 0.02 });
  });
  after(() => sb.close());

  it("draws each job its own time within the model's bounds, and waits that long", async (t) => {
    const files = await inputs(sb);
    const jobs = await Promise.all(Array.from({ length: 8 }, () => jobMs(sb, files, 'standard')));
    const seconds = await drawn(sb);
    const given = jobs.map((job) => seconds.get(job.id)!);
    t.diagnostic(
      `8 standard jobs drew ${given.map((s) => s.toFixed(1)).join(', ')} s; at speed 0.02 took ${jobs.map((j) => j.ms).join(', ')} ms`,
    );
    const stated = latency.front.standard;
    const bound = Math.exp(sigmaOf(stated) * durations.maxDeviations);
    for (const s of given)
      assert.ok(s >= stated.median / bound - 1e-3 && s <= stated.median * bound + 1e-3, `${s} s within ±2.5 σ`);
    // A draw past ±2.5 σ is clamped to the bound, so two jobs may share a bound by chance (about
    // one run in a thousand); every draw inside the bounds is its own, compared whole.
    const atBound = (s: number) =>
      Math.abs(s - stated.median / bound) < 1e-9 || Math.abs(s - stated.median * bound) < 1e-9;
    const inside = given.filter((s) => !atBound(s));
    assert.equal(new Set(inside).size, inside.length, 'every job drew its own time');
    assert.ok(new Set(given).size > 1, 'not one time for all');
    for (const [i, job] of jobs.entries())
      assert.ok(job.ms >= given[i]! * 1000 * 0.02 - 5, `job ${i} took ${job.ms} ms, no less than drawn`);
  });
});
