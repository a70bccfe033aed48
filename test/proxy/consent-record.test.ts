import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { complianceLine, consentFields, retentionOf } from '../../proxy/consent-record.js';

const schema = z.object(consentFields);

describe('consent record', () => {
  it('accepts a hex version and a language tag, and their absence', () => {
    assert.ok(schema.safeParse({ consentVersion: '0123456789abcdef', consentLanguage: 'bn-IN' }).success);
    assert.ok(schema.safeParse({ consentVersion: 'a'.repeat(64), consentLanguage: 'ar' }).success);
    assert.ok(schema.safeParse({}).success);
  });

  it('refuses a version that is not a hash and a language that is not a tag', () => {
    for (const bad of [{ consentVersion: 'v1' }, { consentVersion: 'ABCDEF0123456789' }, { consentVersion: 'a'.repeat(65) },
      { consentLanguage: 'english please' }, { consentLanguage: '<script>' }, { consentLanguage: 'x'.repeat(40) }]) {
      assert.equal(schema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it('builds a line with the version, language and retention, and nothing it was not given', () => {
    const line = complianceLine({
      time: new Date('2026-01-02T03:04:05Z'), product: 'saree-banarasi-red', photoId: 'ph_random', client: 'c0ffee',
      requestId: 'req-1', consentVersion: '0123456789abcdef', consentLanguage: 'ur',
      retention: retentionOf({ photoTtlSeconds: 3600, tryonTtlSeconds: 86_400, fileTtlSeconds: 7200 }),
    });
    assert.deepEqual(line, {
      event: 'consent', time: '2026-01-02T03:04:05.000Z', product: 'saree-banarasi-red', photo: 'ph_random', client: 'c0ffee',
      requestId: 'req-1', consentVersion: '0123456789abcdef', consentLanguage: 'ur',
      retention: { photoSeconds: 3600, resultSeconds: 86_400, shareLinkSeconds: 7200 },
    });
  });

  it('records null for a client that sent no version or language', () => {
    const line = complianceLine({
      time: new Date(0), product: 'p', photoId: 'ph', client: 'c', requestId: 'r',
      retention: { photoSeconds: 1, resultSeconds: 2, shareLinkSeconds: 3 },
    });
    assert.equal(line['consentVersion'], null);
    assert.equal(line['consentLanguage'], null);
  });
});
