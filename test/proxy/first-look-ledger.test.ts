// The first look and colour previews in the spend ledger, on every store (memory, Redis on a real
// redis-server, Durable Objects in real workerd): the first look's price is reserved in the same
// atomic step as its try-on, given back only when upstream surely started nothing, free on a
// retry, and skipped (never a refusal) when the credits cover the try-on but not it. Colour
// previews have their own per-photo cap, kept in the store so it holds across instances.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SpendClaim, SpendLimits } from '../../proxy/money/spend-ledger.js';
import { ledgerOn, sharedLedgers, STORE_KINDS } from './stores.js';

const LIMITS: SpendLimits = { dailyTryons: 1000, dailyCredits: 100_000, tryonsPerPhoto: 1000, clientDailyTryons: 1000 };
const NOON = Date.UTC(2026, 10, 25, 12, 0, 0);
const HOUR = 3_600_000;
const now = () => NOON;

let n = 0;
/** A standard try-on (2 credits) with its first look (1 credit), as POST /tryons claims them. */
const withFirstLook = (over: Partial<SpendClaim> = {}): SpendClaim => {
  const key = `tryon-${n++}-${Math.random().toString(36).slice(2)}`;
  return {
    key,
    photoId: `photo-${n++}`,
    client: `198.51.100.${n % 250}`,
    credits: 2,
    keepUntil: NOON + HOUR,
    preview: { key: `${key}-first-look`, credits: 1 },
    ...over,
  };
};
const colourPreview = (photoId: string, over: Partial<SpendClaim> = {}): SpendClaim => ({
  key: `colour-${n++}-${Math.random().toString(36).slice(2)}`,
  photoId,
  client: '203.0.113.7',
  credits: 1,
  keepUntil: NOON + HOUR,
  kind: 'colour_preview',
  colourPreviewCap: 3,
  ...over,
});

for (const kind of STORE_KINDS)
  describe(`first look and colour previews in the ledger (${kind} store)`, () => {
    it('reserves the first look in the same step as its try-on: one try-on counted, both prices', async () => {
      const ledger = await ledgerOn(kind, LIMITS, now);
      assert.deepEqual(await ledger.reserve(withFirstLook()), {
        granted: true,
        retry: false,
        preview: { retry: false },
      });
      assert.deepEqual(await ledger.usage(), { day: '2026-11-25', tryons: 1, credits: 3 });
    });

    it('under a burst, runs try-ons without their first look when the credits cover the try-on but not it, and never overspends', async () => {
      // 11 credits: three try-ons with first looks (9), a fourth without (11), then refusals.
      const ledger = await ledgerOn(kind, { ...LIMITS, dailyCredits: 11 }, now);
      const results = await Promise.all(Array.from({ length: 20 }, () => ledger.reserve(withFirstLook())));
      const granted = results.filter((r) => r.granted);
      assert.equal(granted.length, 4);
      assert.equal(granted.filter((r) => r.granted && r.preview).length, 3);
      assert.equal(
        granted.filter((r) => r.granted && !r.preview).length,
        1,
        'one try-on runs without its first look rather than being refused',
      );
      assert.ok(results.filter((r) => !r.granted).every((r) => !r.granted && r.refusal === 'daily_credits'));
      assert.deepEqual(await ledger.usage(), { day: '2026-11-25', tryons: 4, credits: 11 });
    });

    it('is free on a retry, the first look too, and a retry never reserves a first look its first request went without', async () => {
      const ledger = await ledgerOn(kind, { ...LIMITS, dailyCredits: 2 }, now);
      const claim = withFirstLook();
      assert.deepEqual(await ledger.reserve(claim), { granted: true, retry: false });
      await ledger.settle(claim.key, 'accepted');
      const roomier = await ledgerOn(kind, LIMITS, now);
      const both = withFirstLook();
      assert.deepEqual(await roomier.reserve(both), { granted: true, retry: false, preview: { retry: false } });
      await roomier.settle(both.key, 'accepted');
      await roomier.settle(both.preview!.key, 'accepted');
      const retries = await Promise.all(Array.from({ length: 5 }, () => roomier.reserve({ ...both })));
      assert.ok(
        retries.every((r) => r.granted && r.retry && r.preview?.retry === true),
        JSON.stringify(retries),
      );
      assert.deepEqual(await roomier.usage(), { day: '2026-11-25', tryons: 1, credits: 3 });
      // The first request of `claim` had no first look (no credits): its retry gets none either.
      assert.deepEqual(await ledger.reserve({ ...claim }), { granted: true, retry: true });
      assert.equal((await ledger.usage()).credits, 2);
    });

    it('gives the first look’s credits back only when upstream surely started nothing, and never the try-on’s with them', async () => {
      const ledger = await ledgerOn(kind, LIMITS, now);
      const refused = withFirstLook();
      await ledger.reserve(refused);
      await ledger.settle(refused.preview!.key, 'refused');
      await ledger.settle(refused.key, 'accepted');
      assert.deepEqual(
        await ledger.usage(),
        { day: '2026-11-25', tryons: 1, credits: 2 },
        'the refused first look is given back',
      );
      // Given back: a retry of the try-on charges nothing new, so it runs without a first look.
      assert.deepEqual(await ledger.reserve({ ...refused }), { granted: true, retry: true });

      const unknown = withFirstLook();
      await ledger.reserve(unknown);
      await ledger.settle(unknown.preview!.key, 'unknown');
      await ledger.settle(unknown.key, 'accepted');
      // A retry whose submit of the first look is then refused still keeps it: it may have started.
      assert.deepEqual(await ledger.reserve({ ...unknown }), { granted: true, retry: true, preview: { retry: true } });
      await ledger.settle(unknown.preview!.key, 'refused');
      await ledger.settle(unknown.key, 'refused');
      assert.deepEqual(await ledger.usage(), { day: '2026-11-25', tryons: 2, credits: 5 });

      // The try-on refused for good while its first look was accepted: the try-on's price comes back, the first look's stays.
      const mainRefused = withFirstLook();
      await ledger.reserve(mainRefused);
      await ledger.settle(mainRefused.preview!.key, 'accepted');
      await ledger.settle(mainRefused.key, 'refused');
      assert.deepEqual(await ledger.usage(), { day: '2026-11-25', tryons: 2, credits: 6 });
    });

    it('caps colour previews per photo apart from its try-ons, counts each as a try-on, and frees a slot upstream surely never used', async () => {
      const ledger = await ledgerOn(kind, { ...LIMITS, tryonsPerPhoto: 1 }, now);
      const burst = await Promise.all(Array.from({ length: 8 }, () => ledger.reserve(colourPreview('shared'))));
      assert.equal(burst.filter((r) => r.granted).length, 3);
      assert.ok(burst.filter((r) => !r.granted).every((r) => !r.granted && r.refusal === 'colour_preview_limit'));
      // The photo's try-on cap (1) is its own: colour previews did not use it.
      assert.deepEqual(await ledger.reserve({ ...withFirstLook({ photoId: 'shared' }), preview: undefined }), {
        granted: true,
        retry: false,
      });
      assert.deepEqual(await ledger.usage(), { day: '2026-11-25', tryons: 4, credits: 5 });

      const other = colourPreview('other');
      await ledger.reserve(other);
      assert.deepEqual(
        await ledger.reserve({ ...other }),
        { granted: true, retry: true },
        'a retry of a colour preview is free',
      );
      await ledger.settle(other.key, 'refused');
      await ledger.settle(other.key, 'refused');
      assert.deepEqual(
        await ledger.usage(),
        { day: '2026-11-25', tryons: 4, credits: 5 },
        'refused for good: given back',
      );
      const again = await Promise.all(Array.from({ length: 4 }, () => ledger.reserve(colourPreview('other'))));
      assert.equal(again.filter((r) => r.granted).length, 3, 'its slot came back with it');
    });

    if (kind !== 'memory') {
      it('holds the colour-preview cap across instances sharing the store', async () => {
        const ledgers = await sharedLedgers(kind, 3, LIMITS, now);
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            ledgers[i % 3]!.reserve(colourPreview('across', { colourPreviewCap: 4 })),
          ),
        );
        assert.equal(results.filter((r) => r.granted).length, 4);
        const first = withFirstLook();
        const answers = await Promise.all(ledgers.map((ledger) => ledger.reserve({ ...first })));
        assert.equal(
          answers.filter((r) => r.granted && !r.retry && r.preview).length,
          1,
          'one instance reserves the try-on and its first look',
        );
        assert.equal(
          answers.filter((r) => r.granted && r.retry && r.preview?.retry).length,
          2,
          'the others find both held',
        );
        assert.deepEqual(await ledgers[0]!.usage(), { day: '2026-11-25', tryons: 5, credits: 7 });
      });
    }
  });
