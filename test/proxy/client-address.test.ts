// The client address behind reverse proxies: only the peer and declared proxies are believed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  TrustProxyError, clientAddress, clientKey, formatAddress, inNetwork, parseAddress, parseNetwork, parseTrustProxy,
} from '../../proxy/client-address.js';

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
      for (const text of ['', 'unknown', '256.1.1.1', '01.2.3.4', '1.2.3', '1.2.3.4.5', '1:2:3:4:5:6:7:8:9', '1::2::3', 'gggg::1',
        '::ffff:999.1.1.1', 'x'.repeat(100), '1.2.3.4/8', '[1.2.3.4]x', '12345::', 'example.com', '1.2.3.4:', '::1:99999']) {
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
      for (const bad of ['10.0.0.0/33', '2001:db8::/129', '10.0.0.0/8/1', '10.0.0.0/', 'nope/8', '10.0.0.1:80', '[::1]']) {
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
        assert.throws(() => parseTrustProxy(bad), (error: unknown) => error instanceof TrustProxyError && /TRYON_TRUST_PROXY/.test(error.message), bad);
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
