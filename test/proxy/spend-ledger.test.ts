// The spend ledger on its own: exact reservations under concurrency, retries free, the price table.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { refusalError, secondsToNextDay, type SpendClaim, type SpendLimits } from '../../proxy/money/spend-ledger.js';
import { ledgerOn, sharedLedgers, STORE_KINDS } from './stores.js';
import { DEFAULT_PRICES, creditsFor, priceTableSchema, resolvePrices } from '../../proxy/money/prices.js';

const LIMITS: SpendLimits = { dailyTryons: 1000, dailyCredits: 100_000, tryonsPerPhoto: 1000, clientDailyTryons: 1000 };
const NOON = Date.UTC(2026, 10, 23, 12, 0, 0);
const HOUR = 3_600_000;

function clock(start = NOON) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

let n = 0;
const claim = (over: Partial<SpendClaim> = {}): SpendClaim => ({
  key: `key-${n++}`,
  photoId: `photo-${n++}`,
  client: `198.51.100.${n % 250}`,
  credits: 1,
  keepUntil: NOON + HOUR,
  ...over,
});

for (const kind of STORE_KINDS)
  describe(`spend ledger (${kind} store)`, () => {
    it('grants exactly the free slots to a burst of distinct try-ons', async () => {
      const ledger = await ledgerOn(kind, { ...LIMITS, dailyTryons: 10 }, clock().now);
      const results = await Promise.all(Array.from({ length: 150 }, () => ledger.reserve(claim())));
      assert.equal(results.filter((r) => r.granted).length, 10);
      assert.ok(results.filter((r) => !r.granted).every((r) => !r.granted && r.refusal === 'daily_tryons'));
      assert.deepEqual(await ledger.usage(), { day: '2026-11-23', tryons: 10, credits: 10 });
    });

    it('caps one photo, one client and the day’s credits, each with its own refusal', async () => {
      const ledger = await ledgerOn(
        kind,
        { ...LIMITS, tryonsPerPhoto: 5, clientDailyTryons: 3, dailyCredits: 20 },
        clock().now,
      );
      const onePhoto = await Promise.all(
        Array.from({ length: 15 }, () => ledger.reserve(claim({ photoId: 'shared' }))),
      );
      assert.equal(onePhoto.filter((r) => r.granted).length, 5);
      assert.ok(onePhoto.some((r) => !r.granted && r.refusal === 'photo_limit'));

      const oneClient = await Promise.all(
        Array.from({ length: 6 }, () => ledger.reserve(claim({ client: '203.0.113.9' }))),
      );
      assert.equal(oneClient.filter((r) => r.granted).length, 3);
      assert.ok(oneClient.some((r) => !r.granted && r.refusal === 'client_daily'));

      // 8 credits used: 5 + 3. A 16-credit try-on no longer fits in 20, a 12-credit one does.
      assert.deepEqual(await ledger.reserve(claim({ credits: 16 })), { granted: false, refusal: 'daily_credits' });
      assert.deepEqual(await ledger.reserve(claim({ credits: 12 })), { granted: true, retry: false });
      assert.equal((await ledger.usage()).credits, 20);
    });

    it('counts a credit budget exactly under a burst of priced try-ons', async () => {
      const ledger = await ledgerOn(kind, { ...LIMITS, dailyCredits: 16 }, clock().now);
      const results = await Promise.all(Array.from({ length: 16 }, () => ledger.reserve(claim({ credits: 4 }))));
      assert.equal(results.filter((r) => r.granted).length, 4);
      assert.equal((await ledger.usage()).credits, 16);
    });

    it('lets a retry of the same try-on through free, even once the day is spent', async () => {
      const ledger = await ledgerOn(
        kind,
        { ...LIMITS, dailyTryons: 1, tryonsPerPhoto: 1, clientDailyTryons: 1 },
        clock().now,
      );
      const first = claim({ client: 'c', photoId: 'p' });
      assert.deepEqual(await ledger.reserve(first), { granted: true, retry: false });
      await ledger.settle(first.key, 'accepted');
      assert.equal((await ledger.reserve(claim({ client: 'c', photoId: 'p' }))).granted, false);
      const retries = await Promise.all(Array.from({ length: 5 }, () => ledger.reserve({ ...first })));
      assert.ok(retries.every((r) => r.granted && r.retry));
      assert.deepEqual(await ledger.usage(), { day: '2026-11-23', tryons: 1, credits: 1 });
      // A retry that fails does not give back a try-on upstream accepted.
      await ledger.settle(first.key, 'refused');
      assert.equal((await ledger.usage()).tryons, 1);
    });

    it('gives a slot back when the submit fails for good, and keeps it when the outcome is unknown', async () => {
      const ledger = await ledgerOn(kind, { ...LIMITS, dailyTryons: 1, tryonsPerPhoto: 1 }, clock().now);
      const refused = claim({ photoId: 'p' });
      await ledger.reserve(refused);
      await ledger.settle(refused.key, 'refused');
      assert.deepEqual(await ledger.usage(), { day: '2026-11-23', tryons: 0, credits: 0 });

      const unknown = claim({ photoId: 'p' });
      assert.equal((await ledger.reserve(unknown)).granted, true);
      await ledger.settle(unknown.key, 'unknown');
      assert.equal(
        (await ledger.reserve(claim())).granted,
        false,
        'a timed-out submit may have started upstream: still counted',
      );
      assert.deepEqual(await ledger.reserve({ ...unknown }), { granted: true, retry: true });
    });

    it('never gives a slot back once a submit may have started, whatever a later retry on another instance hears', async () => {
      const [here, there] = await sharedLedgers(kind, 2, { ...LIMITS, dailyTryons: 1 }, clock().now);
      const tryon = claim();
      assert.deepEqual(await here!.reserve(tryon), { granted: true, retry: false });
      await here!.settle(tryon.key, 'unknown'); // the submit timed out: upstream may have started it
      // The shopper's retry reaches another instance, and upstream refuses it (a 429, a 402).
      assert.deepEqual(await there!.reserve({ ...tryon }), { granted: true, retry: true });
      await there!.settle(tryon.key, 'refused');
      assert.equal((await there!.usage()).tryons, 1, 'the timed-out try-on is still counted');
      assert.deepEqual(await there!.reserve(claim()), { granted: false, refusal: 'daily_tryons' });
      assert.deepEqual(await here!.reserve(claim()), { granted: false, refusal: 'daily_tryons' });
    });

    it('does not give a slot back while another request of the same try-on is under way', async () => {
      const ledger = await ledgerOn(kind, { ...LIMITS, dailyTryons: 1 }, clock().now);
      const tryon = claim();
      await ledger.reserve(tryon);
      await ledger.reserve({ ...tryon }); // a retry arrives while the first submit is still out
      await ledger.settle(tryon.key, 'refused');
      assert.equal((await ledger.usage()).tryons, 1);
      await ledger.settle(tryon.key, 'accepted');
      assert.equal((await ledger.usage()).tryons, 1);
      assert.equal((await ledger.reserve(claim())).granted, false);
    });

    it('starts afresh at UTC midnight, and forgets try-ons no retry can reach', async () => {
      const time = clock(Date.UTC(2026, 10, 23, 23, 59, 0));
      const ledger = await ledgerOn(kind, { ...LIMITS, dailyTryons: 1, clientDailyTryons: 1 }, time.now);
      const tryon = claim({ client: 'c', keepUntil: time.now() + HOUR });
      assert.equal((await ledger.reserve(tryon)).granted, true);
      assert.equal((await ledger.reserve(claim({ client: 'c' }))).granted, false);
      time.advance(2 * 60_000);
      assert.equal((await ledger.usage()).day, '2026-11-24');
      // Yesterday's try-on retried today is still the same try-on, and costs nothing new.
      assert.deepEqual(await ledger.reserve({ ...tryon }), { granted: true, retry: true });
      assert.equal((await ledger.usage()).tryons, 0);
      assert.equal((await ledger.reserve(claim({ client: 'c', keepUntil: time.now() + HOUR }))).granted, true);
      // Past its photo's expiry the same key is a new try-on.
      time.advance(2 * HOUR);
      const late = await ledger.reserve({ ...tryon, keepUntil: time.now() + HOUR });
      assert.deepEqual(late, { granted: false, refusal: 'client_daily' });
    });

    it('answers each refusal with the documented status, code and Retry-After', () => {
      const at = Date.UTC(2026, 10, 23, 23, 0, 0);
      assert.equal(secondsToNextDay(at), 3600);
      const expectations = [
        ['photo_limit', 429, 'photo_limit_reached', undefined],
        ['client_daily', 429, 'daily_limit_reached', 3600],
        ['daily_tryons', 503, 'daily_budget_reached', 3600],
        ['daily_credits', 503, 'daily_budget_reached', 3600],
      ] as const;
      for (const [refusal, status, code, retryAfter] of expectations) {
        const error = refusalError(refusal, LIMITS, at);
        assert.equal(error.status, status);
        assert.equal(error.code, code);
        assert.equal(error.retryable, false);
        assert.equal(error.retryAfter, retryAfter);
      }
    });
  });

describe('price table', () => {
  it('defaults to the sandbox’s prices: per view for images, per video', () => {
    assert.equal(creditsFor(DEFAULT_PRICES, 'premium', 'image', 4), 16);
    assert.equal(creditsFor(DEFAULT_PRICES, 'draft', 'image', 1), 1);
    assert.equal(creditsFor(DEFAULT_PRICES, 'standard', 'image', 2), 4);
    assert.equal(creditsFor(DEFAULT_PRICES, 'premium', 'video', 1), 20);
    assert.equal(creditsFor(DEFAULT_PRICES, 'draft', 'video', 1), 5);
  });

  it('lets later tables override tier by tier', () => {
    const prices = resolvePrices({ image: { premium: 6 } }, { image: { draft: 0 }, video: { standard: 12 } });
    assert.deepEqual(prices, {
      image: { draft: 0, standard: 2, premium: 6 },
      video: { draft: 5, standard: 12, premium: 20 },
    });
    assert.deepEqual(DEFAULT_PRICES.image, { draft: 1, standard: 2, premium: 4 }, 'the defaults are not changed');
  });

  it('refuses unknown tiers, negative and non-number prices', () => {
    assert.ok(priceTableSchema.safeParse({ image: { premium: 5 } }).success);
    for (const bad of [
      { image: { deluxe: 1 } },
      { image: { draft: -1 } },
      { video: { draft: 'one' } },
      { audio: {} },
    ]) {
      assert.equal(priceTableSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});
