import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { forgetPhoto, lastHandleExpiry } from '../../proxy/photos/revocations.js';
import { PhotoRevocationsInMemory } from '../../proxy/photos/revocations-memory.js';
import { STORE_KINDS, storeOf } from './stores.js';

function clock(start = 1_700_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('photo revocations (in memory)', () => {
  it('answers revoked for a forgotten photo and not for another', async () => {
    const time = clock();
    const store = new PhotoRevocationsInMemory(time.now);
    await store.revoke('ph_a', time.now() + 60_000);
    assert.equal(await store.isRevoked('ph_a'), true);
    assert.equal(await store.isRevoked('ph_b'), false);
  });

  it('keeps a record only until every handle of the photo has expired', async () => {
    const time = clock();
    const store = new PhotoRevocationsInMemory(time.now);
    await store.revoke('ph_a', time.now() + 60_000);
    time.advance(59_999);
    assert.equal(await store.isRevoked('ph_a'), true);
    time.advance(1);
    assert.equal(await store.isRevoked('ph_a'), false);
    assert.equal(store.size, 0);
  });

  it('revoking twice keeps the later end', async () => {
    const time = clock();
    const store = new PhotoRevocationsInMemory(time.now);
    await store.revoke('ph_a', time.now() + 120_000);
    await store.revoke('ph_a', time.now() + 10_000);
    time.advance(60_000);
    assert.equal(await store.isRevoked('ph_a'), true);
  });

  it('records nothing for a photo whose handles have all expired already', async () => {
    const time = clock();
    const store = new PhotoRevocationsInMemory(time.now);
    await store.revoke('ph_old', time.now() - 1);
    assert.equal(store.size, 0);
    assert.equal(await store.isRevoked('ph_old'), false);
  });

  it('stays bounded: records past their end are swept on later revocations', async () => {
    const time = clock();
    const store = new PhotoRevocationsInMemory(time.now);
    for (let i = 0; i < 1000; i++) await store.revoke(`ph_${i}`, time.now() + 30_000);
    assert.equal(store.size, 1000);
    time.advance(120_000);
    await store.revoke('ph_new', time.now() + 30_000);
    assert.equal(store.size, 1);
    assert.equal(await store.isRevoked('ph_new'), true);
  });
});

describe('lastHandleExpiry', () => {
  it('covers a try-on made at the last moment of the photo and a file minted at the last moment of the try-on', () => {
    const photoExpiresAt = 1_700_003_600;
    const until = lastHandleExpiry(photoExpiresAt, { tryonTtlSeconds: 86_400, fileTtlSeconds: 3600 });
    const latestTryon = photoExpiresAt + 86_400;
    // File handles expire at now + fileTtl rounded up to the minute.
    const latestFile = Math.ceil((latestTryon + 3600) / 60) * 60;
    assert.ok(until >= latestFile * 1000);
    assert.ok(until <= (latestFile + 60) * 1000);
  });
});

for (const kind of STORE_KINDS)
  describe(`the submit fence of forgotten photos (${kind} store)`, () => {
    const revocationsOn = async (now: () => number) =>
      kind === 'memory' ? new PhotoRevocationsInMemory(now) : (await storeOf(kind))!.photoRevocations(now);

    it('lets no submit out once the photo is forgotten, and counts those let out before until each ends or lapses', async () => {
      const time = clock();
      const revocations = await revocationsOn(time.now);
      const first = await revocations.beginSubmit('ph_a', 30_000);
      const second = await revocations.beginSubmit('ph_a', 10_000);
      assert.ok(first && second && first !== second);
      assert.equal(await revocations.submitsUnderWay('ph_b'), 0, 'another photo’s submits are its own');
      await revocations.revoke('ph_a', time.now() + 60_000);
      assert.equal(await revocations.beginSubmit('ph_a', 30_000), undefined, 'forgotten: no submit may go out');
      assert.equal(await revocations.submitsUnderWay('ph_a'), 2);
      await revocations.endSubmit('ph_a', first);
      assert.equal(await revocations.submitsUnderWay('ph_a'), 1);
      time.advance(10_000); // the second one's instance died mid-submit: its ticket lapses
      assert.equal(await revocations.submitsUnderWay('ph_a'), 0);
    });

    it('a forget answers only once the submits let out before it have ended', async () => {
      const time = clock();
      const revocations = await revocationsOn(time.now);
      const ticket = await revocations.beginSubmit('ph_c', 30_000);
      let forgotten = false;
      const forgetting = forgetPhoto(revocations, 'ph_c', time.now() + 60_000).then(() => {
        forgotten = true;
      });
      // Until the forget is recorded (no new submit gets out), it cannot have answered.
      for (
        let probe = await revocations.beginSubmit('ph_c', 1_000);
        probe;
        probe = await revocations.beginSubmit('ph_c', 1_000)
      ) {
        await revocations.endSubmit('ph_c', probe);
        assert.equal(forgotten, false);
      }
      assert.equal(forgotten, false, 'still waiting for the submit let out before');
      await revocations.endSubmit('ph_c', ticket!);
      await forgetting;
      assert.equal(await revocations.submitsUnderWay('ph_c'), 0);
    });
  });
