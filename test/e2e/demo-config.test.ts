// `npm start` configures its proxy as the `tryon-proxy` bin does, through loadConfig: the same
// refusals before anything starts, and the limit variables honoured.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { ConfigError } from '../../proxy/config/config.js';
import { startDemo } from '../../demo/start.js';
import { SHOPPER_PHOTO } from './shop.js';

const refused = (env: Record<string, string>, problem: RegExp) =>
  assert.rejects(startDemo({ port: 0, sandboxPort: 0, speed: 0, quiet: true, env }), (error: unknown) => {
    assert.ok(error instanceof ConfigError, String(error));
    assert.match(error.message, problem);
    return true;
  });

describe('npm start reads its proxy settings through loadConfig', () => {
  test('a short secret is refused', () =>
    refused({ TRYON_PROXY_SECRET: 'too-short' }, /TRYON_PROXY_SECRET must be at least 32 characters/));

  test('an origin that is not one is refused', () =>
    refused(
      { TRYON_ALLOWED_ORIGINS: 'shop.example/path' },
      /TRYON_ALLOWED_ORIGINS: "shop.example\/path" is not an origin/,
    ));

  test('a key without a base URL is refused, not silently replaced by the sandbox', () =>
    refused({ TRYON_API_KEY: 'sk_test_forgot_the_url' }, /TRYON_BASE_URL is required with TRYON_API_KEY/));

  test('a limit variable is honoured (TRYON_RATE_PER_MINUTE=1: the second upload is rate limited)', async () => {
    const demo = await startDemo({
      port: 0,
      sandboxPort: 0,
      speed: 0,
      quiet: true,
      env: { TRYON_RATE_PER_MINUTE: '1' },
    });
    try {
      const photo = new Blob([await readFile(SHOPPER_PHOTO)], { type: 'image/jpeg' });
      const upload = () => {
        const form = new FormData();
        form.append('photo', photo, 'me.jpg');
        return fetch(`${demo.url}/tryon/photos`, { method: 'POST', body: form });
      };
      assert.equal((await upload()).status, 201);
      const second = await upload();
      assert.equal(second.status, 429);
      assert.equal(((await second.json()) as { error: { code: string } }).error.code, 'rate_limited');
    } finally {
      await demo.close();
    }
  });
});
