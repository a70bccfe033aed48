// The client address behind reverse proxies: only the peer and declared proxies are believed.
// Measured against proxy-addr (Express's `trust proxy`) on its own test vectors, and the default
// for createProxy mounted in a shop's own server (the documented snippet) against the real sandbox.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { TrustProxyError, clientAddress, parseTrustProxy } from '../../proxy/http/client-address.js';
import { clientKey } from '../../proxy/http/client-key.js';
import { formatAddress, inNetwork, parseAddress, parseNetwork } from '../../proxy/http/ip-bytes.js';
import { createProxy } from '../../proxy/app.js';
import { startSandbox } from '../../sandbox/server.js';
import { startTestSandbox, CATALOG, SECRET, personPhoto, writeAssets } from './stack.js';
import { photoForm, send } from './wire.js';

/**
 * proxy-addr's vectors (github.com/jshttp/proxy-addr, test/test.js): peer, X-Forwarded-For, trust,
 * what proxy-addr answers, and what this proxy answers where it differs on purpose (`ours`).
 * proxy-addr's `all` is every hop trusted (16 here), `none` none, `trust10x` 10.0.0.0/8.
 */
const PROXY_ADDR_VECTORS: {
  name: string;
  peer: string | undefined;
  xff?: string;
  trust: string;
  proxyAddr: string | undefined;
  ours?: string;
}[] = [
  { name: 'all trusted, no headers', peer: '127.0.0.1', trust: '16', proxyAddr: '127.0.0.1' },
  { name: 'all trusted, header value', peer: '127.0.0.1', xff: '10.0.0.1', trust: '16', proxyAddr: '10.0.0.1' },
  {
    name: 'all trusted, furthest header value',
    peer: '127.0.0.1',
    xff: '10.0.0.1, 10.0.0.2',
    trust: '16',
    proxyAddr: '10.0.0.1',
  },
  { name: 'none trusted, no headers', peer: '127.0.0.1', trust: 'false', proxyAddr: '127.0.0.1' },
  {
    name: 'none trusted, headers',
    peer: '127.0.0.1',
    xff: '10.0.0.1, 10.0.0.2',
    trust: 'false',
    proxyAddr: '127.0.0.1',
  },
  { name: 'some trusted, no headers', peer: '127.0.0.1', trust: '10.0.0.0/8', proxyAddr: '127.0.0.1' },
  {
    name: 'some trusted, socket not trusted',
    peer: '127.0.0.1',
    xff: '10.0.0.1, 10.0.0.2',
    trust: '10.0.0.0/8',
    proxyAddr: '127.0.0.1',
  },
  {
    name: 'some trusted, header when socket trusted',
    peer: '10.0.0.1',
    xff: '192.168.0.1',
    trust: '10.0.0.0/8',
    proxyAddr: '192.168.0.1',
  },
  {
    name: 'some trusted, first untrusted after trusted',
    peer: '10.0.0.1',
    xff: '192.168.0.1, 10.0.0.2',
    trust: '10.0.0.0/8',
    proxyAddr: '192.168.0.1',
  },
  {
    name: 'some trusted, untrusted not skipped',
    peer: '10.0.0.1',
    xff: '10.0.0.3, 192.168.0.1, 10.0.0.2',
    trust: '10.0.0.0/8',
    proxyAddr: '192.168.0.1',
  },
  {
    name: 'array of literal addresses',
    peer: '10.0.0.1',
    xff: '192.168.0.1, 10.0.0.2',
    trust: '10.0.0.1, 10.0.0.2',
    proxyAddr: '192.168.0.1',
  },
  // proxy-addr answers the junk itself; a bucket is never named by junk here.
  {
    name: 'non-IP address not trusted',
    peer: '10.0.0.1',
    xff: '192.168.0.1, 10.0.0.2, localhost',
    trust: '10.0.0.1, 10.0.0.2',
    proxyAddr: 'localhost',
    ours: '10.0.0.1',
  },
  {
    name: 'socket address when none match',
    peer: '10.0.0.1',
    xff: '192.168.0.1, 10.0.0.2',
    trust: '127.0.0.1, 192.168.0.100',
    proxyAddr: '10.0.0.1',
  },
  { name: 'empty array, no headers', peer: '127.0.0.1', trust: '', proxyAddr: '127.0.0.1' },
  { name: 'empty array, headers', peer: '127.0.0.1', xff: '10.0.0.1, 10.0.0.2', trust: '', proxyAddr: '127.0.0.1' },
  {
    name: 'IPv4 CIDR',
    peer: '10.0.0.1',
    xff: '192.168.0.1, 10.0.0.200',
    trust: '10.0.0.2/26',
    proxyAddr: '10.0.0.200',
  },
  {
    name: 'IPv6 literal addresses',
    peer: 'fe80::1',
    xff: '2002:c000:203::1, fe80::2',
    trust: 'fe80::1, fe80::2',
    proxyAddr: '2002:c000:203::1',
  },
  {
    name: 'IPv6 CIDR',
    peer: 'fe80::1',
    xff: '2002:c000:203::1, fe80::ff00',
    trust: 'fe80::/125',
    proxyAddr: 'fe80::ff00',
  },
  {
    name: 'mixed versions, each matched',
    peer: '::1',
    xff: '2002:c000:203::1',
    trust: '127.0.0.1, ::1',
    proxyAddr: '2002:c000:203::1',
  },
  { name: 'IPv4 trust never matches IPv6', peer: '::1', xff: '2002:c000:203::1', trust: '127.0.0.1', proxyAddr: '::1' },
  {
    name: 'IPv4 trust, IPv4-mapped peer',
    peer: '::ffff:a00:1',
    xff: '192.168.0.1, 10.0.0.2',
    trust: '10.0.0.1, 10.0.0.2',
    proxyAddr: '192.168.0.1',
  },
  {
    name: 'IPv4 CIDR trust, IPv4-mapped peer',
    peer: '::ffff:a00:1',
    xff: '192.168.0.1, 10.0.0.2',
    trust: '10.0.0.1/16',
    proxyAddr: '192.168.0.1',
  },
  {
    name: 'IPv4-mapped trust, IPv4 peer',
    peer: '10.0.0.1',
    xff: '192.168.0.1, 10.0.0.2',
    trust: '::ffff:a00:1, ::ffff:a00:2',
    proxyAddr: '192.168.0.1',
  },
  {
    name: 'IPv4-mapped CIDR',
    peer: '10.0.0.1',
    xff: '192.168.0.1, 10.0.0.200',
    trust: '::ffff:a00:2/122',
    proxyAddr: '10.0.0.200',
  },
  {
    name: 'IPv4-mapped CIDR with IPv6 CIDR',
    peer: '10.0.0.1',
    xff: '192.168.0.1, 10.0.0.200',
    trust: '::ffff:a00:2/122, fe80::/125',
    proxyAddr: '10.0.0.200',
  },
  {
    name: 'IPv4-mapped CIDR with IPv4 address',
    peer: '10.0.0.1',
    xff: '192.168.0.1, 10.0.0.200',
    trust: '::ffff:a00:2/122, 127.0.0.1',
    proxyAddr: '10.0.0.200',
  },
  {
    name: 'pre-defined name',
    peer: 'fe80::1',
    xff: '2002:c000:203::1, fe80::2',
    trust: 'linklocal',
    proxyAddr: '2002:c000:203::1',
  },
  {
    name: 'several pre-defined names',
    peer: '::1',
    xff: '2002:c000:203::1, fe80::2',
    trust: 'loopback, linklocal',
    proxyAddr: '2002:c000:203::1',
  },
  {
    name: 'stops at the first non-IP after trusted',
    peer: '127.0.0.1',
    xff: 'myrouter, 127.0.0.1, proxy',
    trust: '127.0.0.1',
    proxyAddr: 'proxy',
    ours: '127.0.0.1',
  },
  {
    name: 'stops at the first malformed IP after trusted',
    peer: '127.0.0.1',
    xff: 'myrouter, 127.0.0.1, ::8:8:8:8:8:8:8:8:8',
    trust: '127.0.0.1',
    proxyAddr: '::8:8:8:8:8:8:8:8:8',
    ours: '127.0.0.1',
  },
  { name: 'socket address undefined', peer: undefined, trust: '127.0.0.1', proxyAddr: undefined },
  {
    name: 'socket address undefined, trusted headers',
    peer: undefined,
    xff: '127.0.0.1, 10.0.0.1',
    trust: '127.0.0.1',
    proxyAddr: undefined,
  },
];

/** proxy-addr's trust arguments it refuses, and so must TRYON_TRUST_PROXY (netmasks are refused here, see below). */
const PROXY_ADDR_REFUSED = [
  'blargh',
  '10.0.300.1',
  '::ffff:30.168.1.9000',
  '-1',
  '10.0.0.1/internet',
  '10.0.0.1/6000',
  '::1/6000',
  '::ffff:a00:2/136',
  '::ffff:a00:2/-1',
  '10.0.0.1/ffc0::',
  'fe80::/ffc0::',
  'fe80::/255.255.255.0',
  '::ffff:a00:2/255.255.255.0',
];

describe('client address', () => {
  describe('addresses', () => {
    it('reads IPv4, IPv6, mapped, bracketed and with ports, in one canonical form', () => {
      const cases: [string, string][] = [
        ['203.0.113.7', '203.0.113.7'],
        ['::ffff:203.0.113.7', '203.0.113.7'],
        ['203.0.113.7:51234', '203.0.113.7'],
        ['[2001:db8::1]:443', '2001:db8::1'],
        ['[2001:db8::1]', '2001:db8::1'],
        ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
        ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
        ['fe80::1%eth0', 'fe80::1'],
        ['::1', '::1'],
        ['::', '::'],
        [' 198.51.100.2 ', '198.51.100.2'],
      ];
      for (const [text, canonical] of cases) {
        const bytes = parseAddress(text);
        assert.ok(bytes, text);
        assert.equal(formatAddress(bytes), canonical, text);
      }
    });

    it('refuses what is not an address', () => {
      for (const text of [
        '',
        'unknown',
        '256.1.1.1',
        '01.2.3.4',
        '1.2.3',
        '1.2.3.4.5',
        '1:2:3:4:5:6:7:8:9',
        '1::2::3',
        'gggg::1',
        '::ffff:999.1.1.1',
        'x'.repeat(100),
        '1.2.3.4/8',
        '[1.2.3.4]x',
        '12345::',
        'example.com',
        '1.2.3.4:',
        '::1:99999',
      ]) {
        assert.equal(parseAddress(text), undefined, text);
      }
    });

    it('matches networks of both families, and mapped IPv4 against IPv4 networks', () => {
      const net = (text: string) => parseNetwork(text)!;
      assert.ok(inNetwork(parseAddress('10.1.2.3')!, net('10.0.0.0/8')));
      assert.ok(!inNetwork(parseAddress('11.1.2.3')!, net('10.0.0.0/8')));
      assert.ok(inNetwork(parseAddress('::ffff:10.1.2.3')!, net('10.0.0.0/8')));
      assert.ok(inNetwork(parseAddress('172.31.255.255')!, net('172.16.0.0/12')));
      assert.ok(!inNetwork(parseAddress('172.32.0.0')!, net('172.16.0.0/12')));
      assert.ok(inNetwork(parseAddress('2001:db8:1::5')!, net('2001:db8::/32')));
      assert.ok(!inNetwork(parseAddress('2001:db9::5')!, net('2001:db8::/32')));
      assert.ok(inNetwork(parseAddress('127.0.0.1')!, net('127.0.0.1')));
      assert.ok(!inNetwork(parseAddress('127.0.0.2')!, net('127.0.0.1')));
      assert.ok(inNetwork(parseAddress('8.8.8.8')!, net('0.0.0.0/0')));
      assert.ok(!inNetwork(parseAddress('2001:db8::1')!, net('0.0.0.0/0')), 'an IPv4 network holds no IPv6 address');
      for (const bad of [
        '10.0.0.0/33',
        '2001:db8::/129',
        '10.0.0.0/8/1',
        '10.0.0.0/',
        'nope/8',
        '10.0.0.1:80',
        '[::1]',
      ]) {
        assert.equal(parseNetwork(bad), undefined, bad);
      }
    });
  });

  describe('TRYON_TRUST_PROXY', () => {
    it('reads true, false, hop counts and address lists', () => {
      assert.deepEqual(parseTrustProxy(undefined), { kind: 'none' });
      assert.deepEqual(parseTrustProxy(''), { kind: 'none' });
      assert.deepEqual(parseTrustProxy('false'), { kind: 'none' });
      assert.deepEqual(parseTrustProxy('0'), { kind: 'none' });
      assert.deepEqual(parseTrustProxy(false), { kind: 'none' });
      assert.deepEqual(parseTrustProxy('true'), { kind: 'hops', hops: 1 });
      assert.deepEqual(parseTrustProxy(true), { kind: 'hops', hops: 1 });
      assert.deepEqual(parseTrustProxy('1'), { kind: 'hops', hops: 1 });
      assert.deepEqual(parseTrustProxy('2'), { kind: 'hops', hops: 2 });
      assert.deepEqual(parseTrustProxy(3), { kind: 'hops', hops: 3 });
      const list = parseTrustProxy('127.0.0.1, 10.0.0.0/8, ::1, 2001:db8::/48');
      assert.equal(list.kind, 'networks');
      assert.equal(list.kind === 'networks' && list.networks.length, 4);
      assert.equal(parseTrustProxy(['10.0.0.1']).kind, 'networks');
    });

    it('refuses anything else with a message naming the variable', () => {
      for (const bad of ['yes', '-1', '17', '1.5', '10.0.0.0/40', '127.0.0.1, nope', 'true,false']) {
        assert.throws(
          () => parseTrustProxy(bad),
          (error: unknown) => error instanceof TrustProxyError && /TRYON_TRUST_PROXY/.test(error.message),
          bad,
        );
      }
      assert.throws(() => parseTrustProxy(1.5), TrustProxyError);
    });
  });

  describe('who the client is', () => {
    const one = parseTrustProxy('true');

    it('is the peer when no proxy is trusted, whatever the headers say', () => {
      assert.equal(clientAddress('198.51.100.9', '203.0.113.1', parseTrustProxy(undefined)), '198.51.100.9');
      assert.equal(clientAddress('::ffff:198.51.100.9', undefined, one), '198.51.100.9');
    });

    it('is the right-most entry behind one hop: a forged first entry changes nothing', () => {
      // nginx appends the address it saw to whatever the client sent.
      assert.equal(clientAddress('127.0.0.1', '198.51.100.7', one), '198.51.100.7');
      assert.equal(clientAddress('127.0.0.1', '1.1.1.1, 198.51.100.7', one), '198.51.100.7');
      assert.equal(clientAddress('127.0.0.1', '1.1.1.1,2.2.2.2,  198.51.100.7', one), '198.51.100.7');
    });

    it('walks back as many hops as configured', () => {
      const two = parseTrustProxy('2');
      // client → CDN (appends client) → nginx (appends CDN) → proxy
      assert.equal(clientAddress('127.0.0.1', 'forged, 198.51.100.7, 192.0.2.50', two), '198.51.100.7');
      // Fewer entries than hops: the furthest known address.
      assert.equal(clientAddress('127.0.0.1', '192.0.2.50', two), '192.0.2.50');
    });

    it('walks back over listed proxies only, and believes nothing from an unlisted peer', () => {
      const listed = parseTrustProxy('127.0.0.1, 10.0.0.0/8');
      assert.equal(clientAddress('127.0.0.1', 'forged, 198.51.100.7, 10.1.1.1, 10.2.2.2', listed), '198.51.100.7');
      assert.equal(clientAddress('198.51.100.20', '203.0.113.1', listed), '198.51.100.20');
      // Every entry a proxy: the furthest one.
      assert.equal(clientAddress('127.0.0.1', '10.1.1.1', listed), '10.1.1.1');
    });

    it('stops at a malformed entry at the last address a trusted proxy vouched for', () => {
      assert.equal(clientAddress('127.0.0.1', '198.51.100.7, junk', parseTrustProxy('2')), '127.0.0.1');
      assert.equal(clientAddress('127.0.0.1', 'unknown', one), '127.0.0.1');
      assert.equal(clientAddress('127.0.0.1', 'junk, 198.51.100.7', parseTrustProxy('2')), '198.51.100.7');
      assert.equal(clientAddress('127.0.0.1', ',,,', one), '127.0.0.1');
    });

    it('keeps only the last entries of a padded header', () => {
      const padded = `${Array.from({ length: 5000 }, (_, i) => `10.0.${(i >> 8) & 255}.${i & 255}`).join(', ')}, 198.51.100.7`;
      assert.equal(clientAddress('127.0.0.1', padded, one), '198.51.100.7');
      assert.equal(clientAddress('127.0.0.1', padded, parseTrustProxy('10.0.0.0/8, 127.0.0.1')), '198.51.100.7');
    });

    it('knows no client without a peer', () => {
      assert.equal(clientAddress(undefined, '198.51.100.7', one), undefined);
      assert.equal(clientAddress('not an address', '198.51.100.7', one), undefined);
    });
  });

  describe("against proxy-addr's test vectors", () => {
    for (const vector of PROXY_ADDR_VECTORS) {
      it(vector.name, () => {
        const expected = vector.ours ?? vector.proxyAddr;
        assert.equal(
          clientAddress(vector.peer, vector.xff, parseTrustProxy(vector.trust)),
          expected === undefined ? undefined : formatAddress(parseAddress(expected)!),
        );
      });
    }

    it('refuses the trust settings proxy-addr refuses', () => {
      for (const bad of PROXY_ADDR_REFUSED) assert.throws(() => parseTrustProxy(bad), TrustProxyError, bad);
      // proxy-addr also takes a netmask (10.0.0.2/255.255.255.192); here a prefix length is asked for, by name.
      assert.throws(() => parseTrustProxy('10.0.0.2/255.255.255.192'), TrustProxyError);
    });
  });

  describe('limit keys', () => {
    it('keys IPv4 by address and IPv6 by its /64', () => {
      assert.equal(clientKey('198.51.100.7'), '198.51.100.7');
      assert.equal(clientKey('::ffff:198.51.100.7'), '198.51.100.7');
      assert.equal(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
      assert.equal(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
      assert.notEqual(clientKey('2001:db8:1:3::1'), clientKey('2001:db8:1:2::1'));
    });
  });
});

describe("createProxy mounted in a shop's own server, as deploy-proxy.md shows it", () => {
  let assetsDir: string;
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let url: string;
  let close: () => Promise<void>;
  let form: { body: Uint8Array; contentType: string };
  const logs: Record<string, unknown>[] = [];

  before(async () => {
    assetsDir = await mkdtemp(join(tmpdir(), 'tryon-mounted-'));
    await writeAssets(assetsDir);
    sandbox = await startTestSandbox();
    // The documented snippet: no clientAddress, served with @hono/node-server.
    const shop = new Hono();
    shop.route(
      '/tryon',
      createProxy({
        apiKey: 'sk_test_a',
        baseUrl: sandbox.url,
        secret: SECRET,
        allowedOrigins: ['https://shop.example'],
        catalog: CATALOG,
        assetsDir,
        readAsset: async (path) => new Uint8Array(await readFile(path)),
        limits: { ratePerMinute: 2 },
        log: (entry) => logs.push(entry),
      }),
    );
    const server = serve({ fetch: shop.fetch, port: 0, hostname: '127.0.0.1' });
    const port = await new Promise<number>((resolve) =>
      server.once('listening', () => resolve((server.address() as AddressInfo).port)),
    );
    url = `http://127.0.0.1:${port}/tryon`;
    close = () => new Promise<void>((done) => server.close(() => done()));
    form = await photoForm(await personPhoto());
  });
  after(async () => {
    await close?.();
    await sandbox?.close();
    await rm(assetsDir, { recursive: true, force: true });
  });

  const upload = (from: string, headers: Record<string, string> = {}) =>
    send(`${url}/photos`, {
      from,
      method: 'POST',
      headers: { 'content-type': form.contentType, ...headers },
      body: form.body,
    });

  it("keys each shopper by their connection: one shopper's limit is not another's", async () => {
    assert.deepEqual(
      [(await upload('127.0.0.2')).status, (await upload('127.0.0.2')).status, (await upload('127.0.0.2')).status],
      [201, 201, 429],
    );
    assert.equal((await upload('127.0.0.3')).status, 201);
  });

  it('gives a client that forges Origin and Host no fresh allowance', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 4; i++) {
      answers.push(
        (await upload('127.0.0.4', { origin: `http://forged-${i}.example`, host: `forged-${i}.example` })).status,
      );
    }
    assert.deepEqual(answers, [201, 201, 429, 429]);
    assert.ok(!logs.some((entry) => entry.event === 'client_unknown'), 'the connection was known');
  });
});

describe('createProxy without a way to know the client', () => {
  const options = {
    apiKey: 'sk_test_a',
    baseUrl: 'http://127.0.0.1:9',
    secret: SECRET,
    allowedOrigins: ['https://shop.example'],
    catalog: CATALOG,
    readAsset: async () => new Uint8Array(),
  };

  it('refuses to start in production on a runtime it cannot read the connection from, unless given clientAddress', () => {
    const versions = process.versions;
    Object.defineProperty(process, 'versions', { value: {}, configurable: true });
    try {
      assert.throws(() => createProxy({ ...options, mode: 'production' }), /clientAddress/);
      assert.doesNotThrow(() => createProxy({ ...options, mode: 'production', clientAddress: () => '198.51.100.1' }));
      assert.doesNotThrow(() => createProxy({ ...options, mode: 'development' }));
    } finally {
      Object.defineProperty(process, 'versions', { value: versions, configurable: true });
    }
  });

  it('answers a request with no connection address with an error in production, and says why in the log', async () => {
    const logs: Record<string, unknown>[] = [];
    const app = createProxy({ ...options, mode: 'production', log: (entry) => logs.push(entry) });
    const answer = await app.fetch(
      new Request('http://proxy.example/products/dress-aline-indigo', { headers: { origin: 'https://shop.example' } }),
    );
    assert.equal(answer.status, 500);
    assert.equal(((await answer.json()) as { error: { code: string } }).error.code, 'internal_error');
    assert.ok(logs.some((entry) => entry.event === 'client_unknown' && entry.level === 'error'));
  });
});
