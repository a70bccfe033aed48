import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { imageBody, inputs, sandbox } from './support.js';
import type { Sandbox } from './support.js';

describe('try-on request validation', () => {
  let sb: Sandbox;
  let files: { person: string; garment: string };
  before(async () => {
    sb = await sandbox({ generalProviders: ['brand_x', 'brand_y', 'brand_z'] });
    files = await inputs(sb);
  });
  after(() => sb.close());

  async function refused(path: string, json: unknown, field: string, status = 422) {
    const answer = await sb.json('POST', path, { json });
    assert.equal(answer.status, status, `${JSON.stringify(json)} → ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.error.code, status === 422 ? 'validation_failed' : 'invalid_request');
    if (status === 422) {
      const fields = answer.body.error.details.map((d: { field: string }) => d.field);
      assert.ok(fields.includes(field), `expected ${field} among ${fields.join(', ')}`);
      assert.match(answer.body.error.message, new RegExp(field.replace('.', '\\.')));
    }
    return answer.body;
  }

  it('answers 400 for a body that is not JSON', async () => {
    const response = await sb.call('POST', '/v1/images/tryon', {
      body: '{"mode":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as any).error.code, 'invalid_request');
  });

  it('rule 2.7.3: garment_to_person needs person_image and garment_image', async () => {
    const { garment_image: _g, ...noGarment } = imageBody(files);
    await refused('/v1/images/tryon', noGarment, 'garment_image');
    const { person_image: _p, ...noPerson } = imageBody(files);
    await refused('/v1/images/tryon', noPerson, 'person_image');
    await refused(
      '/v1/images/tryon',
      imageBody(files, { reference_person_image: files.person }),
      'reference_person_image',
    );
  });

  it('rule 2.7.3: person_to_person needs person_image and reference_person_image', async () => {
    const base = {
      mode: 'person_to_person',
      person_image: files.person,
      garment: { category: 'lehenga' },
      consent_token: true,
    };
    await refused('/v1/images/tryon', base, 'reference_person_image');
    await refused(
      '/v1/images/tryon',
      { ...base, reference_person_image: files.person, garment_image: files.garment },
      'garment_image',
    );
    const ok = await sb.json('POST', '/v1/images/tryon', { json: { ...base, reference_person_image: files.person } });
    assert.equal(ok.status, 202);
  });

  it('file kinds must fit: person_image of kind garment is refused', async () => {
    const body = await refused('/v1/images/tryon', imageBody(files, { person_image: files.garment }), 'person_image');
    assert.match(JSON.stringify(body.error.details), /kind person/);
    await refused('/v1/images/tryon', imageBody(files, { garment_image: files.person }), 'garment_image');
    await refused('/v1/images/tryon', imageBody(files, { person_image: 'file_doesnotexist' }), 'person_image');
  });

  it('consent_token must be true', async () => {
    await refused('/v1/images/tryon', imageBody(files, { consent_token: false }), 'consent_token');
    const { consent_token: _c, ...noConsent } = imageBody(files);
    await refused('/v1/images/tryon', noConsent, 'consent_token');
  });

  it('garment category and subtype are checked together', async () => {
    await refused(
      '/v1/images/tryon',
      imageBody(files, { garment: { category: 'saree', subtype: 'a-line' } }),
      'garment.subtype',
    );
    await refused(
      '/v1/images/tryon',
      imageBody(files, { garment: { category: 'sherwani', subtype: 'nivi' } }),
      'garment.subtype',
    );
    await refused('/v1/images/tryon', imageBody(files, { garment: { category: 'kimono' } }), 'garment.category');
    await refused('/v1/images/tryon', imageBody(files, { garment: undefined }), 'garment');
    for (const garment of [
      { category: 'saree', subtype: 'maharashtrian' },
      { category: 'dress', subtype: 'a-line' },
      { category: 'bandhgala' },
      { category: 'suit' },
      { category: 'sherwani' },
    ]) {
      const ok = await sb.json('POST', '/v1/images/tryon', { json: imageBody(files, { garment }) });
      assert.equal(ok.status, 202, JSON.stringify(garment));
    }
  });

  it('views, tiers, backgrounds and modes take only the named values', async () => {
    await refused('/v1/images/tryon', imageBody(files, { views: ['front', 'top'] }), 'views.1');
    await refused('/v1/images/tryon', imageBody(files, { views: [] }), 'views');
    await refused('/v1/images/tryon', imageBody(files, { views: ['front', 'front'] }), 'views');
    await refused('/v1/images/tryon', imageBody(files, { tier: 'ultra' }), 'tier');
    await refused('/v1/images/tryon', imageBody(files, { background: 'beach' }), 'background');
    await refused('/v1/images/tryon', imageBody(files, { mode: 'person_to_garment' }), 'mode');
    await refused('/v1/images/tryon', imageBody(files, { colour: 'red' }), '(body)');
  });

  it('providers: auto, the specialists and the configured general names', async () => {
    await refused('/v1/images/tryon', imageBody(files, { provider: 'general_a' }), 'provider');
    await refused('/v1/images/tryon', imageBody(files, { provider: 'acme' }), 'provider');
    for (const provider of ['auto', 'catvton', 'outfitanyone', 'brand_x', 'brand_y', 'brand_z']) {
      const ok = await sb.json('POST', '/v1/images/tryon', { json: imageBody(files, { provider }) });
      assert.equal(ok.status, 202, provider);
    }
  });

  it('fills the documented defaults', async () => {
    const ok = await sb.json('POST', '/v1/images/tryon', { json: imageBody(files) });
    assert.equal(ok.body.tier, 'standard');
    assert.deepEqual(ok.body.views, ['front']);
    assert.equal(ok.body.background, 'studio_white');
    assert.equal(ok.body.provider, 'brand_x');
    const premium = await sb.json('POST', '/v1/images/tryon', { json: imageBody(files, { tier: 'premium' }) });
    assert.equal(premium.body.provider, 'catvton', 'auto prefers a specialist for a saree at premium');
  });

  it('video bounds and values', async () => {
    const video = (extra: Record<string, unknown>) => imageBody(files, extra);
    await refused('/v1/videos/tryon', video({ duration_seconds: 0 }), 'duration_seconds');
    await refused('/v1/videos/tryon', video({ duration_seconds: 11 }), 'duration_seconds');
    await refused('/v1/videos/tryon', video({ duration_seconds: 2.5 }), 'duration_seconds');
    await refused('/v1/videos/tryon', video({ fps: 7 }), 'fps');
    await refused('/v1/videos/tryon', video({ fps: 31 }), 'fps');
    await refused('/v1/videos/tryon', video({ motion: 'jump' }), 'motion');
    await refused('/v1/videos/tryon', video({ camera: 'drone' }), 'camera');
    await refused('/v1/videos/tryon', video({ views: ['front', 'back'] }), '(body)');
    await refused('/v1/videos/tryon', video({ consent_token: 'yes' }), 'consent_token');
    const ok = await sb.json('POST', '/v1/videos/tryon', {
      json: video({ duration_seconds: 1, fps: 8, motion: 'sway', camera: 'pan' }),
    });
    assert.equal(ok.status, 202);
    assert.equal(ok.body.type, 'video');
    assert.deepEqual(ok.body.video, { duration_seconds: 1, fps: 8, motion: 'sway', camera: 'pan' });
  });

  it('a body that is not an object is a validation error, not a crash', async () => {
    for (const json of [[], 'text', 42, null]) {
      const answer = await sb.json('POST', '/v1/images/tryon', { json });
      assert.equal(answer.status, 422, JSON.stringify(json));
      assert.equal(answer.body.error.code, 'validation_failed');
    }
  });
});
