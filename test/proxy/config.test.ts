import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, describeConfig, loadConfig } from '../../proxy/config/config.js';

const SECRET = 'x'.repeat(40);

function problems(env: Record<string, string>, entry?: 'node' | 'workers'): string[] {
  try {
    loadConfig(env, entry ? { entry } : {});
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  assert.fail('config was accepted');
}

describe('config', () => {
  it('production refuses to start without secret, key or origins, listing every problem', () => {
    const found = problems({ NODE_ENV: 'production' });
    assert.ok(found.some((p) => p.includes('TRYON_API_KEY')));
    assert.ok(found.some((p) => p.includes('TRYON_PROXY_SECRET')));
    assert.ok(found.some((p) => p.includes('TRYON_ALLOWED_ORIGINS')));
  });

  it('production refuses * as an origin and a path as an origin', () => {
    const base = {
      NODE_ENV: 'production',
      TRYON_API_KEY: 'sk_live_abc',
      TRYON_BASE_URL: 'https://api.example',
      TRYON_PROXY_SECRET: SECRET,
    };
    assert.ok(problems({ ...base, TRYON_ALLOWED_ORIGINS: '*' }).some((p) => p.includes('may not be *')));
    assert.ok(
      problems({ ...base, TRYON_ALLOWED_ORIGINS: 'https://shop.example/path' }).some((p) =>
        p.includes('not an origin'),
      ),
    );
    const ok = loadConfig({ ...base, TRYON_ALLOWED_ORIGINS: 'https://shop.example, https://www.shop.example' });
    assert.deepEqual(ok.allowedOrigins, ['https://shop.example', 'https://www.shop.example']);
    assert.equal(ok.useSandbox, false);
  });

  describe('TRYON_BASE_URL in production', () => {
    const production = {
      NODE_ENV: 'production',
      TRYON_API_KEY: 'sk_live_abc',
      TRYON_PROXY_SECRET: SECRET,
      TRYON_ALLOWED_ORIGINS: 'https://shop.example',
    };
    const baseUrlProblems = (url: string, env: Record<string, string> = production) => {
      try {
        loadConfig({ ...env, TRYON_BASE_URL: url });
        return [];
      } catch (error) {
        assert.ok(error instanceof ConfigError);
        return error.problems.filter((p) => p.includes('TRYON_BASE_URL'));
      }
    };

    it('refuses plain http to anywhere but this machine, however the URL is spelt', () => {
      for (const url of [
        'http://api.example',
        'HTTP://api.example',
        'http://127.0.0.1:x@api.example/',
        'http://localhost@api.example',
        'http://localhost.api.example',
        'http://10.0.0.5:8080',
        'http://[::ffff:7f00:1]:80@api.example',
      ]) {
        const found = baseUrlProblems(url);
        assert.equal(found.length, 1, `${url}: ${found.join('; ')}`);
        assert.match(found[0]!, /^TRYON_BASE_URL must use https in production/, url);
        assert.match(found[0]!, /write https:\/\//, url);
        assert.doesNotMatch(found[0]!, /@|:x/, `${url}: a user name or password is never printed`);
      }
    });

    it('refuses a URL ending in /v1 and says what to write instead', () => {
      for (const [url, instead] of [
        ['https://api.example/v1', 'https://api.example'],
        ['https://api.example/v1/', 'https://api.example'],
        ['https://api.example/tryon/v1', 'https://api.example/tryon'],
        ['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010'],
        ['https://api.example/V1', 'https://api.example'],
      ] as const) {
        const found = baseUrlProblems(url);
        assert.equal(found.length, 1, `${url}: ${found.join('; ')}`);
        assert.match(found[0]!, /TRYON_BASE_URL must not end in \/v1/, url);
        assert.ok(found[0]!.includes(`TRYON_BASE_URL=${instead} `), `${url}: ${found[0]}`);
      }
    });

    it('accepts https anywhere and http on loopback (the sandbox, in tests and the demo)', () => {
      for (const url of [
        'https://api.example',
        'https://api.example/',
        'https://api.example/tryon/',
        'https://api.example/v10',
        'https://api.example/v1x',
        'http://127.0.0.1:4010',
        'http://127.0.0.7:4010/',
        'http://localhost:4010',
        'http://[::1]:4010',
      ]) {
        assert.deepEqual(baseUrlProblems(url), [], url);
        assert.equal(loadConfig({ ...production, TRYON_BASE_URL: url }).baseUrl, url);
      }
    });

    it('outside production, http and /v1 are still accepted (the transport drops a trailing /v1)', () => {
      for (const url of ['http://api.example', 'https://api.example/v1', 'http://127.0.0.1:4010/v1/'])
        for (const NODE_ENV of ['development', 'test'])
          assert.deepEqual(baseUrlProblems(url, { NODE_ENV, TRYON_API_KEY: 'sk_test_abc' }), [], `${NODE_ENV} ${url}`);
    });
  });

  it('development with no key points at the sandbox and says so', () => {
    const config = loadConfig({});
    assert.equal(config.useSandbox, true);
    assert.equal(config.secretGenerated, true);
    assert.ok(config.secret.length >= 32);
    assert.match(describeConfig(config), /sandbox/);
  });

  it('never prints the key; a sk_test_ key is reported as test mode', () => {
    const key = 'sk_test_SUPERSECRETVALUE123';
    const config = loadConfig({
      TRYON_API_KEY: key,
      TRYON_BASE_URL: 'https://api.example',
      TRYON_PROXY_SECRET: SECRET,
    });
    const line = describeConfig(config);
    assert.ok(!line.includes('SUPERSECRETVALUE'));
    assert.match(line, /test mode/);
    assert.ok(!line.includes(SECRET));
    const live = describeConfig(
      loadConfig({
        TRYON_API_KEY: 'sk_live_HIDDEN99',
        TRYON_BASE_URL: 'https://api.example',
        TRYON_PROXY_SECRET: SECRET,
      }),
    );
    assert.match(live, /live/);
    assert.ok(!live.includes('HIDDEN99'));
  });

  it('reads limits and refuses ones that are not numbers', () => {
    const config = loadConfig({ TRYON_UPLOAD_MAX_BYTES: '1000000', TRYON_DAILY_TRYONS: '7' });
    assert.equal(config.limits.uploadBytes, 1_000_000);
    assert.equal(config.limits.dailyTryons, 7);
    assert.ok(problems({ TRYON_RATE_PER_MINUTE: 'lots' }).some((p) => p.includes('TRYON_RATE_PER_MINUTE')));
  });

  it('reads the retention the consent step states, and refuses one under a minute', () => {
    const config = loadConfig({
      TRYON_PHOTO_TTL_SECONDS: '1800',
      TRYON_RESULT_TTL_SECONDS: '172800',
      TRYON_SHARE_LINK_TTL_SECONDS: '3600',
    });
    assert.equal(config.limits.photoTtlSeconds, 1800);
    assert.equal(config.limits.tryonTtlSeconds, 172_800);
    assert.equal(config.limits.fileTtlSeconds, 3600);
    const refused = problems({ TRYON_PHOTO_TTL_SECONDS: '0', TRYON_SHARE_LINK_TTL_SECONDS: '59' });
    assert.ok(refused.some((p) => p.includes('TRYON_PHOTO_TTL_SECONDS') && p.includes('60 seconds')));
    assert.ok(refused.some((p) => p.includes('TRYON_SHARE_LINK_TTL_SECONDS')));
  });

  it('a key without a base URL, a short secret and a bad webhook secret are named', () => {
    const found = problems({ TRYON_API_KEY: 'sk_live_x1', TRYON_PROXY_SECRET: 'short', TRYON_WEBHOOK_SECRET: 'nope' });
    assert.ok(found.some((p) => p.includes('TRYON_BASE_URL')));
    assert.ok(found.some((p) => p.includes('at least 32')));
    assert.ok(found.some((p) => p.includes('TRYON_WEBHOOK_SECRET')));
  });

  it('reads the orders secret, and names a malformed one or one without the admin listener', () => {
    const secret = `whsec_${Buffer.from('an orders secret of 24 b').toString('base64')}`;
    const admin = { TRYON_ADMIN_TOKEN: 'admin-token-0123456789', TRYON_ADMIN_PORT: '9464' };
    const config = loadConfig({ ...admin, TRYON_ORDERS_SECRET: secret });
    assert.equal(config.ordersSecret, secret);
    assert.match(describeConfig(config), /orders on \(POST \/orders on the admin listener, signed\)/);
    assert.ok(
      problems({ ...admin, TRYON_ORDERS_SECRET: 'nope' }).some((p) =>
        p.includes('TRYON_ORDERS_SECRET must look like whsec_'),
      ),
    );
    assert.ok(
      problems({ TRYON_ORDERS_SECRET: secret }).some((p) =>
        p.includes('TRYON_ORDERS_SECRET is set but TRYON_ADMIN_TOKEN is not'),
      ),
    );
  });

  it('reads the trusted proxies as a hop count or an address list, and names a malformed one', () => {
    assert.deepEqual(loadConfig({}).trustProxy, { kind: 'none' });
    assert.deepEqual(loadConfig({ TRYON_TRUST_PROXY: 'true' }).trustProxy, { kind: 'hops', hops: 1 });
    assert.deepEqual(loadConfig({ TRYON_TRUST_PROXY: '2' }).trustProxy, { kind: 'hops', hops: 2 });
    assert.equal(loadConfig({ TRYON_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8, ::1' }).trustProxy.kind, 'networks');
    for (const bad of ['yes', '10.0.0.0/99', '127.0.0.1, example.com']) {
      assert.ok(
        problems({ TRYON_TRUST_PROXY: bad }).some((p) => p.includes('TRYON_TRUST_PROXY') && p.includes(bad)),
        bad,
      );
    }
  });

  it('reads the spend limits, upload timeouts and the price table, refusing malformed ones', () => {
    const config = loadConfig({
      TRYON_DAILY_CREDITS: '300',
      TRYON_CLIENT_DAILY_TRYONS: '4',
      TRYON_UPLOAD_IDLE_MS: '5000',
      TRYON_UPLOAD_TOTAL_MS: '60000',
      TRYON_PRICES: '{"image":{"premium":5},"video":{"draft":3}}',
    });
    assert.equal(config.limits.dailyCredits, 300);
    assert.equal(config.limits.clientDailyTryons, 4);
    assert.equal(config.limits.uploadIdleMs, 5000);
    assert.equal(config.limits.uploadTotalMs, 60_000);
    assert.deepEqual(config.prices, { image: { premium: 5 }, video: { draft: 3 } });
    assert.ok(problems({ TRYON_DAILY_CREDITS: '-5' }).some((p) => p.includes('TRYON_DAILY_CREDITS')));
    assert.ok(problems({ TRYON_PRICES: '{nope' }).some((p) => p.includes('TRYON_PRICES is not JSON')));
    assert.ok(problems({ TRYON_PRICES: '{"image":{"deluxe":1}}' }).some((p) => p.includes('TRYON_PRICES')));
    assert.ok(
      problems({ TRYON_PRICES: '{"video":{"draft":-1}}' }).some(
        (p) => p.includes('TRYON_PRICES') && p.includes('video.draft'),
      ),
    );
  });

  it('a shared store needs the operator’s secret (every instance verifies the others’ handles), a redis URL and a long metrics token', () => {
    const withoutSecret = problems({ TRYON_REDIS_URL: 'redis://127.0.0.1:6379' });
    assert.ok(
      withoutSecret.some((p) => p.includes('TRYON_PROXY_SECRET') && p.includes('TRYON_REDIS_URL')),
      withoutSecret.join('; '),
    );
    assert.ok(
      problems({ TRYON_PROXY_SECRET: SECRET, TRYON_REDIS_URL: 'http://127.0.0.1:6379' }).some((p) =>
        p.startsWith('TRYON_REDIS_URL'),
      ),
    );
    assert.ok(
      problems({ TRYON_PROXY_SECRET: SECRET, TRYON_METRICS_TOKEN: 'short' }).some((p) =>
        p.startsWith('TRYON_METRICS_TOKEN'),
      ),
    );
    const config = loadConfig({
      TRYON_PROXY_SECRET: SECRET,
      TRYON_REDIS_URL: 'rediss://user:pw@redis.example:6380',
      TRYON_METRICS_TOKEN: 'm'.repeat(20),
      TRYON_ADMIN_PORT: '9464',
    });
    assert.equal(config.redisUrl, 'rediss://user:pw@redis.example:6380');
    assert.equal(config.adminToken, 'm'.repeat(20));
    assert.doesNotMatch(
      describeConfig(config),
      /pw|redis\.example|m{20}/,
      'neither the Redis URL nor the token is printed',
    );
    assert.match(describeConfig(config), /shared store Redis/);
    assert.equal(loadConfig({ TRYON_PROXY_SECRET: SECRET }).redisUrl, undefined);
  });

  it('the admin listener needs its own port and a token of 16 characters or more, and never shares the public port', () => {
    const token = 'a'.repeat(24);
    for (const name of ['TRYON_ADMIN_TOKEN', 'TRYON_METRICS_TOKEN']) {
      assert.ok(
        problems({ [name]: 'short-token', TRYON_ADMIN_PORT: '9464' }).some(
          (p) => p === `${name} must be at least 16 characters`,
        ),
        name,
      );
      // No default port: the token alone would otherwise have served /metrics on the public port.
      const portless = problems({ [name]: token });
      assert.ok(
        portless.some((p) => p.startsWith(`${name} is set but TRYON_ADMIN_PORT is not`)),
        portless.join('; '),
      );
    }
    assert.ok(
      problems({ TRYON_ADMIN_PORT: '9464' }).some((p) =>
        p.startsWith('TRYON_ADMIN_PORT is set but TRYON_ADMIN_TOKEN is not'),
      ),
    );
    assert.ok(
      problems({ TRYON_ADMIN_TOKEN: token, TRYON_ADMIN_PORT: '8787' }).some((p) =>
        p.startsWith('TRYON_ADMIN_PORT must differ from the public port'),
      ),
    );
    assert.ok(
      problems({ TRYON_ADMIN_TOKEN: token, TRYON_ADMIN_PORT: 'ninety' }).some((p) => p.includes('not a port number')),
    );
    const config = loadConfig({
      TRYON_ADMIN_TOKEN: token,
      TRYON_METRICS_TOKEN: 'b'.repeat(20),
      TRYON_ADMIN_PORT: '9464',
    });
    assert.deepEqual(
      [config.adminToken, config.adminPort, config.adminHostname],
      [token, 9464, '127.0.0.1'],
      'the new name wins; loopback by default',
    );
    assert.equal(
      loadConfig({ TRYON_ADMIN_TOKEN: token, TRYON_ADMIN_PORT: '9464', TRYON_ADMIN_HOST: '10.0.0.5' }).adminHostname,
      '10.0.0.5',
    );
    assert.doesNotMatch(describeConfig(config), new RegExp(token), 'the token is never printed');
    // A Worker has no second port: its token alone serves /usage at the Worker's address.
    assert.equal(loadConfig({ TRYON_ADMIN_TOKEN: token }, { entry: 'workers' }).adminToken, token);
    assert.ok(
      problems({ TRYON_ADMIN_TOKEN: token, TRYON_ADMIN_PORT: '9464' }, 'workers').some((p) =>
        p.startsWith('TRYON_ADMIN_PORT does not apply on Workers'),
      ),
    );
  });

  it('status streams are capped per client, per instance and per try-on, each from its variable', () => {
    const config = loadConfig({
      TRYON_STREAMS_PER_CLIENT: '3',
      TRYON_STREAMS_PER_INSTANCE: '40',
      TRYON_STREAMS_PER_TRYON: '7',
    });
    assert.deepEqual(
      [config.limits.streamsPerClient, config.limits.streamsPerInstance, config.limits.streamsPerTryon],
      [3, 40, 7],
    );
    assert.ok(
      problems({ TRYON_STREAMS_PER_CLIENT: 'many' }).some((p) =>
        p.startsWith('TRYON_STREAMS_PER_CLIENT must be a whole number'),
      ),
    );
  });

  it('checks the budget alert URL and its secret at start', () => {
    const secret = `whsec_${Buffer.from('budget-alert-secret-for-tests!!').toString('base64')}`;
    const config = loadConfig({
      TRYON_BUDGET_ALERT_URL: 'https://ops.example/alerts',
      TRYON_BUDGET_ALERT_SECRET: secret,
    });
    assert.deepEqual(config.budgetAlert, { url: 'https://ops.example/alerts', secret });
    assert.ok(
      problems({ TRYON_BUDGET_ALERT_URL: 'https://ops.example/alerts' }).some((p) =>
        p.startsWith('TRYON_BUDGET_ALERT_URL is set but TRYON_BUDGET_ALERT_SECRET is not'),
      ),
    );
    assert.ok(
      problems({ TRYON_BUDGET_ALERT_URL: 'not a url', TRYON_BUDGET_ALERT_SECRET: secret }).includes(
        'TRYON_BUDGET_ALERT_URL is not a URL',
      ),
    );
    assert.ok(
      problems({ TRYON_BUDGET_ALERT_URL: 'https://ops.example/a', TRYON_BUDGET_ALERT_SECRET: 'plain' }).includes(
        'TRYON_BUDGET_ALERT_SECRET must look like whsec_<base64>',
      ),
    );
    const production = {
      NODE_ENV: 'production',
      TRYON_BUDGET_ALERT_URL: 'http://ops.example/a',
      TRYON_BUDGET_ALERT_SECRET: secret,
    };
    assert.ok(problems(production).some((p) => p.startsWith('TRYON_BUDGET_ALERT_URL must be an https URL')));
    assert.ok(
      problems({ TRYON_BUDGET_ALERT_URL: 'https://user:pw@ops.example/a', TRYON_BUDGET_ALERT_SECRET: secret }).some(
        (p) => p.includes('must not hold a user name'),
      ),
    );
  });
});
