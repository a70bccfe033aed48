// The shop's money under bursts: real concurrent HTTP requests to the real proxy against the real
// sandbox, upstream try-ons and credits counted by the sandbox itself (/sandbox/state).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HandleSigner } from '../../proxy/security/handles.js';
import { SECRET, newRequestId, photoHandle, type Stack, closeAfter } from './stack.js';
import { STORE_KINDS, stackOn } from './stores.js';
import { send } from './wire.js';
import { freePort } from './cluster.js';

const OPEN = {
  ratePerMinute: 100_000,
  readsPerMinute: 100_000,
  tryonsPerPhoto: 100_000,
  dailyTryons: 100_000,
  dailyCredits: 10_000_000,
  clientDailyTryons: 100_000,
};

interface Answer {
  status: number;
  body: { tryon?: string; error?: { code: string; message: string; retryable: boolean } };
  retryAfter: string | null;
}

async function submit(stack: Stack, body: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(`${stack.url}/tryons`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ consent: true, ...body }),
  });
  return {
    status: response.status,
    body: (await response.json()) as Answer['body'],
    retryAfter: response.headers.get('retry-after'),
  };
}

async function upstreamTryons(stack: Stack): Promise<number> {
  const state = await stack.state();
  return Object.values(state.workspaces)
    .flatMap((ws) => ws.jobs)
    .filter((job) => job.parent === null).length;
}

/** Waits (bounded) until upstream holds `count` try-ons: a submit the proxy gave up on may still land after its answer. */
async function untilUpstreamTryons(stack: Stack, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await upstreamTryons(stack)) < count) {
    if (Date.now() > deadline) throw new Error(`upstream never held ${count} try-ons`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const credits = async (stack: Stack) => (await stack.state()).workspaces.ws_1!.credits;

function assertRefusal(answer: Answer, status: number, code: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.deepEqual(Object.keys(answer.body), ['error']);
  assert.equal(answer.body.error?.code, code);
  assert.equal(typeof answer.body.error?.message, 'string');
  assert.equal(answer.body.error?.retryable, false);
}

function tally(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

for (const kind of STORE_KINDS)
  describe(`spend guards under bursts (${kind} store)`, () => {
    it('150 distinct submits at once against a budget of 10 start exactly 10 upstream try-ons', async (t) => {
      const stack = closeAfter(t, await stackOn(kind, { proxy: { limits: { ...OPEN, dailyTryons: 10 } } }));
      const photo = await photoHandle(stack);
      const before = await upstreamTryons(stack);
      const answers = await Promise.all(
        Array.from({ length: 150 }, () =>
          submit(stack, { product: 'dress-aline-indigo', photo, requestId: newRequestId() }),
        ),
      );
      const counts = tally(answers);
      console.log(
        `150 at once, budget 10: answers ${JSON.stringify(counts)}, upstream try-ons ${(await upstreamTryons(stack)) - before}`,
      );
      assert.equal(counts[202], 10);
      assert.equal(counts[503], 140);
      for (const refused of answers.filter((a) => a.status === 503)) {
        assertRefusal(refused, 503, 'daily_budget_reached');
        assert.ok(Number(refused.retryAfter) > 0);
      }
      assert.equal((await upstreamTryons(stack)) - before, 10);
    });

    it('15 at once on one photo with a cap of 5 start exactly 5', async (t) => {
      const stack = closeAfter(t, await stackOn(kind, { proxy: { limits: { ...OPEN, tryonsPerPhoto: 5 } } }));
      const photo = await photoHandle(stack);
      const before = await upstreamTryons(stack);
      const answers = await Promise.all(
        Array.from({ length: 15 }, () =>
          submit(stack, { product: 'dress-aline-indigo', photo, requestId: newRequestId() }),
        ),
      );
      const counts = tally(answers);
      console.log(
        `15 at once on one photo, cap 5: answers ${JSON.stringify(counts)}, upstream try-ons ${(await upstreamTryons(stack)) - before}`,
      );
      assert.equal(counts[202], 5);
      for (const refused of answers.filter((a) => a.status !== 202)) assertRefusal(refused, 429, 'photo_limit_reached');
      assert.equal((await upstreamTryons(stack)) - before, 5);
      // Another photo is not held back by this one's cap.
      assert.equal(
        (
          await submit(stack, {
            product: 'dress-aline-indigo',
            photo: await photoHandle(stack),
            requestId: newRequestId(),
          })
        ).status,
        202,
      );
    });

    it('charges a live key exactly once per accepted try-on, and lets retries through free once the budget is spent', async (t) => {
      const stack = closeAfter(
        t,
        await stackOn(kind, { apiKey: 'sk_live_b', proxy: { limits: { ...OPEN, dailyTryons: 8 } } }),
      );
      const photo = await photoHandle(stack);
      const start = await credits(stack);
      const requestIds = Array.from({ length: 16 }, () => newRequestId());
      const first = await Promise.all(
        requestIds.map((requestId) => submit(stack, { product: 'dress-aline-indigo', photo, requestId })),
      );
      const accepted = requestIds.filter((_, i) => first[i]!.status === 202);
      const spent = start - (await credits(stack));
      console.log(
        `16 at once on a live key, budget 8: ${accepted.length} accepted, ${spent} credits charged (1 credit each)`,
      );
      assert.equal(accepted.length, 8);
      assert.equal(spent, 8, 'one draft view = 1 credit per accepted try-on');
      const jobs = await upstreamTryons(stack);

      // The budget is spent: the same 16 again, all at once. Retries of accepted try-ons pass, free.
      const again = await Promise.all(
        requestIds.map((requestId) => submit(stack, { product: 'dress-aline-indigo', photo, requestId })),
      );
      const signer = new HandleSigner(SECRET);
      for (const [i, answer] of again.entries()) {
        if (first[i]!.status === 202) {
          assert.equal(answer.status, 202, JSON.stringify(answer.body));
          const [was, is] = await Promise.all([
            signer.open('tryon', first[i]!.body.tryon!),
            signer.open('tryon', answer.body.tryon!),
          ]);
          assert.equal(is.jobId, was.jobId, 'the retry is the same try-on');
        } else {
          assertRefusal(answer, 503, 'daily_budget_reached');
        }
      }
      assert.equal(start - (await credits(stack)), 8, 'no retry was charged');
      assert.equal(await upstreamTryons(stack), jobs, 'no retry started an upstream try-on');
    });

    it('counts a 4-view premium try-on at its credit price (16), and its first look (1), against the daily credit budget', async (t) => {
      const stack = closeAfter(
        t,
        await stackOn(kind, { apiKey: 'sk_live_b', proxy: { limits: { ...OPEN, dailyCredits: 21 } } }),
      );
      const photo = await photoHandle(stack);
      const start = await credits(stack);
      const premium = await submit(stack, { product: 'saree-banarasi-red', photo, requestId: newRequestId() });
      assert.equal(premium.status, 202, JSON.stringify(premium.body));
      assert.equal(
        start - (await credits(stack)),
        17,
        'the sandbox charged 4 views × 4 credits, and 1 for the draft first look',
      );
      // 17 of 21 reserved: another 16 no longer fits…
      assertRefusal(
        await submit(stack, { product: 'saree-banarasi-red', photo, requestId: newRequestId() }),
        503,
        'daily_budget_reached',
      );
      // …a one-view premium (4) still fits exactly, without its first look (never refused for it), and then a draft (1) no longer does.
      const oneView = await submit(stack, {
        product: 'saree-banarasi-red',
        photo,
        requestId: newRequestId(),
        views: ['front'],
      });
      assert.equal(oneView.status, 202);
      assert.equal(start - (await credits(stack)), 21);
      const status = (await (await fetch(`${stack.url}/tryons/${oneView.body.tryon}`)).json()) as {
        preview?: unknown;
      };
      assert.equal(status.preview, undefined, 'the try-on the credits covered without its first look has none');
      assertRefusal(
        await submit(stack, { product: 'dress-aline-indigo', photo, requestId: newRequestId() }),
        503,
        'daily_budget_reached',
      );
      assert.equal(start - (await credits(stack)), 21);
    });

    it('stops one client at its daily cap while another still gets through', async (t) => {
      const stack = closeAfter(t, await stackOn(kind, { proxy: { limits: { ...OPEN, clientDailyTryons: 3 } } }));
      const photo = await photoHandle(stack);
      const before = await upstreamTryons(stack);
      const from = (address: string) =>
        send(`${stack.url}/tryons`, {
          from: address,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ consent: true, product: 'dress-aline-indigo', photo, requestId: newRequestId() }),
        });
      const first = await Promise.all(Array.from({ length: 6 }, () => from('127.0.0.2')));
      const counts: Record<number, number> = {};
      for (const answer of first) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
      console.log(`one client, cap 3, 6 at once: ${JSON.stringify(counts)}`);
      assert.equal(counts[202], 3);
      for (const refused of first.filter((a) => a.status !== 202)) {
        assert.equal(refused.status, 429);
        assert.deepEqual(refused.json(), {
          error: {
            code: 'daily_limit_reached',
            message: refused.json<{ error: { message: string } }>().error.message,
            retryable: false,
          },
        });
        assert.ok(Number(refused.headers['retry-after']) > 0);
      }
      const other = await from('127.0.0.3');
      assert.equal(other.status, 202, other.text);
      assert.equal((await upstreamTryons(stack)) - before, 4);
    });

    it('gives the slot back when upstream refuses for good, and keeps it when upstream may have started the try-on', async (t) => {
      const stack = closeAfter(
        t,
        await stackOn(kind, {
          apiKey: 'sk_live_b',
          proxy: { limits: { ...OPEN, dailyTryons: 1, retries: 0 } },
        }),
      );
      const photo = await photoHandle(stack);
      // Upstream says no (its own 402): nothing was started, so the day's one slot is free again.
      await stack.fault({ match: 'POST /v1/images/tryon', status: 402, code: 'insufficient_credits', times: 1 });
      assertRefusal(
        await submit(stack, { product: 'dress-aline-indigo', photo, requestId: newRequestId() }),
        503,
        'out_of_credits',
      );
      // Upstream fails in a way that may hide a started job (a 5xx): the slot stays with that try-on.
      await stack.fault({ match: 'POST /v1/images/tryon', status: 500, times: 1 });
      const requestId = newRequestId();
      const failed = await submit(stack, { product: 'dress-aline-indigo', photo, requestId });
      assert.equal(failed.status, 502, JSON.stringify(failed.body));
      assertRefusal(
        await submit(stack, { product: 'dress-aline-indigo', photo, requestId: newRequestId() }),
        503,
        'daily_budget_reached',
      );
      // The shopper's retry of that try-on is let through, and is the only one charged.
      const start = await credits(stack);
      assert.equal((await submit(stack, { product: 'dress-aline-indigo', photo, requestId })).status, 202);
      assert.equal(start - (await credits(stack)), 1);
      assert.equal(await upstreamTryons(stack), 1);
    });

    it('keeps the slot of a timed-out submit when upstream then refuses its retry (429, 402, 422)', async (t) => {
      const stack = closeAfter(
        t,
        await stackOn(kind, {
          proxy: { limits: { ...OPEN, dailyTryons: 1, retries: 0, upstreamTimeoutMs: 600 } },
        }),
      );
      const photo = await photoHandle(stack);
      // The submit reaches upstream but answers after the proxy gave up: the job starts anyway.
      await stack.fault({ match: 'POST /v1/images/tryon', delayMs: 1800, times: 1 });
      const requestId = newRequestId();
      const timedOut = await submit(stack, { product: 'dress-aline-indigo', photo, requestId });
      assert.equal(timedOut.status, 504, JSON.stringify(timedOut.body));
      await untilUpstreamTryons(stack, 1);
      // The shopper's retries of that try-on are refused by upstream for good…
      for (const [status, code] of [
        [429, 'rate_limited'],
        [402, 'out_of_credits'],
        [422, 'upstream_unavailable'],
      ] as const) {
        await stack.fault({ match: 'POST /v1/images/tryon', status, times: 1 });
        const retry = await submit(stack, { product: 'dress-aline-indigo', photo, requestId });
        assert.equal(retry.body.error?.code, code, JSON.stringify(retry.body));
      }
      // …yet the day's one slot stays with it: upstream started a job, so nothing else may start.
      assertRefusal(
        await submit(stack, { product: 'dress-aline-indigo', photo, requestId: newRequestId() }),
        503,
        'daily_budget_reached',
      );
      // Nor in a burst: five more refused retries of it at once with ten new try-ons.
      await stack.fault({ match: 'POST /v1/images/tryon', status: 429, times: 5 });
      const burst = await Promise.all([
        ...Array.from({ length: 5 }, () => submit(stack, { product: 'dress-aline-indigo', photo, requestId })),
        ...Array.from({ length: 10 }, () =>
          submit(stack, { product: 'dress-aline-indigo', photo, requestId: newRequestId() }),
        ),
      ]);
      for (const retry of burst.slice(0, 5))
        assert.equal(retry.body.error?.code, 'rate_limited', JSON.stringify(retry.body));
      for (const fresh of burst.slice(5)) assertRefusal(fresh, 503, 'daily_budget_reached');
      assert.equal(await upstreamTryons(stack), 1);
    });

    it('keeps the slot when one request’s first attempt timed out and its retry was refused', async (t) => {
      const stack = closeAfter(
        t,
        await stackOn(kind, {
          proxy: { limits: { ...OPEN, dailyTryons: 1, retries: 1, upstreamTimeoutMs: 600 } },
        }),
      );
      const photo = await photoHandle(stack);
      await stack.fault({ match: 'POST /v1/images/tryon', delayMs: 1800, times: 1 });
      await stack.fault({ match: 'POST /v1/images/tryon', status: 429, times: 1 });
      const refused = await submit(stack, { product: 'dress-aline-indigo', photo, requestId: newRequestId() });
      assert.equal(refused.body.error?.code, 'rate_limited', JSON.stringify(refused.body));
      await untilUpstreamTryons(stack, 1);
      assertRefusal(
        await submit(stack, { product: 'dress-aline-indigo', photo, requestId: newRequestId() }),
        503,
        'daily_budget_reached',
      );
      assert.equal(await upstreamTryons(stack), 1);
    });

    it('gives the slot back when every attempt’s connection was refused: nothing reached upstream', async (t) => {
      const closed = await freePort();
      let refuseSubmits = true;
      const fetchVia: typeof fetch = (input, init) => {
        const url = new URL(String(input));
        if (refuseSubmits && url.pathname === '/v1/images/tryon') url.port = String(closed);
        return fetch(url, init);
      };
      const stack = closeAfter(
        t,
        await stackOn(kind, {
          proxy: { fetch: fetchVia, limits: { ...OPEN, dailyTryons: 1, retries: 1 } },
        }),
      );
      const photo = await photoHandle(stack);
      const unreachable = await submit(stack, { product: 'dress-aline-indigo', photo, requestId: newRequestId() });
      assert.equal(unreachable.status, 502, JSON.stringify(unreachable.body));
      assert.equal(unreachable.body.error?.code, 'upstream_unavailable');
      refuseSubmits = false;
      assert.equal(
        (await submit(stack, { product: 'dress-aline-indigo', photo, requestId: newRequestId() })).status,
        202,
      );
      assert.equal(await upstreamTryons(stack), 1);
    });

    it('holds the daily credit budget exactly under a burst of 4-view premium try-ons with first looks', async (t) => {
      // Each try-on 16 credits and its first look 1: three with first looks (51), a fourth without (67).
      const stack = closeAfter(
        t,
        await stackOn(kind, { apiKey: 'sk_live_b', proxy: { limits: { ...OPEN, dailyCredits: 67 } } }),
      );
      const photo = await photoHandle(stack);
      const start = await credits(stack);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          submit(stack, { product: 'saree-banarasi-red', photo, requestId: newRequestId() }),
        ),
      );
      const counts = tally(answers);
      const spent = start - (await credits(stack));
      const jobs = Object.values((await stack.state()).workspaces)
        .flatMap((ws) => ws.jobs)
        .filter((job) => job.parent === null);
      console.log(
        `20 premium 4-view try-ons at once, 67 credits a day: answers ${JSON.stringify(counts)}, ${spent} credits charged, ${jobs.length} upstream jobs`,
      );
      assert.equal(counts[202], 4);
      for (const refused of answers.filter((a) => a.status !== 202))
        assertRefusal(refused, 503, 'daily_budget_reached');
      assert.equal(spent, 67);
      assert.equal(jobs.filter((job) => job.charged === 16).length, 4);
      assert.equal(
        jobs.filter((job) => job.charged === 1).length,
        3,
        'three first looks: the fourth try-on runs without',
      );
    });

    it('counts an IPv6 client by its /64 behind a trusted proxy', async (t) => {
      const stack = closeAfter(
        t,
        await stackOn(kind, {
          proxy: { trustProxy: '127.0.0.1', limits: { ...OPEN, clientDailyTryons: 2 } },
        }),
      );
      const photo = await photoHandle(stack);
      const from = (address: string) =>
        send(`${stack.url}/tryons`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify({ consent: true, product: 'dress-aline-indigo', photo, requestId: newRequestId() }),
        });
      assert.equal((await from('2001:db8:1:2::1')).status, 202);
      assert.equal((await from('2001:db8:1:2:ffff:ffff:ffff:fffe')).status, 202);
      // Any other address of the same /64 is the same shopper…
      const refused = await from('2001:db8:1:2::9');
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.json<{ error: { code: string } }>().error.code, 'daily_limit_reached');
      // …the next /64 is another.
      assert.equal((await from('2001:db8:1:3::1')).status, 202);
    });
  });
