// Real nginx, configured with the block docs/integrations/deploy-proxy.md gives, in front of the
// proxy started with the settings the doc gives (read from the doc, as the production start reads
// them): shoppers on different addresses have their own limits, a shopper who forges
// X-Forwarded-For gains nothing, through nginx or straight to the proxy's port, and a shop on a
// non-default port is same-origin.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { loadConfig } from '../../proxy/config/config.js';
import { sniffPhotoType } from '../../proxy/upstream/image-signatures.js';
import {
  absolute,
  personPhoto,
  photoHandle,
  startStack,
  startTryon,
  waitForStatus,
  SECRET,
  type Stack,
  type StatusAnswer,
  type TryonAnswer,
} from './stack.js';
import { documentedProxyEnv, startNginx, type Nginx } from './nginx.js';
import { photoForm, send } from './wire.js';

/** Whether a TCP connection to host:port is accepted. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('behind nginx, as documented', () => {
  let stack: Stack;
  let nginx: Nginx;
  let form: { body: Uint8Array; contentType: string };
  let hostname: string;

  before(async () => {
    // The documented settings, read the way a production start reads its environment.
    const config = loadConfig({
      NODE_ENV: 'production',
      TRYON_API_KEY: 'sk_test_a',
      TRYON_BASE_URL: 'http://127.0.0.1:9',
      TRYON_PROXY_SECRET: SECRET,
      TRYON_ALLOWED_ORIGINS: 'https://shop.example',
      ...(await documentedProxyEnv()),
    });
    hostname = config.hostname;
    // Never bind every interface in a test: a documented address other than loopback fails the first test instead.
    stack = await startStack({
      proxy: {
        trustProxy: config.trustProxy,
        hostname: /^127\./.test(hostname) ? hostname : '127.0.0.1',
        limits: { ratePerMinute: 3, readsPerMinute: 5 },
      },
    });
    nginx = await startNginx(Number(new URL(stack.url).port));
    form = await photoForm(await personPhoto());
  });
  after(async () => {
    await nginx?.stop();
    await stack?.close();
  });

  it('starts the proxy on loopback only: the port answers nginx, not the network', async () => {
    assert.equal(hostname, '127.0.0.1');
    const port = Number(new URL(stack.url).port);
    assert.equal(await connects('127.0.0.1', port), true);
    // Another address of this machine: a proxy on 0.0.0.0 would accept here.
    assert.equal(await connects('127.0.0.2', port), false);
  });

  const upload = (from: string, headers: Record<string, string> = {}) =>
    send(`${nginx.url}/photos`, {
      from,
      method: 'POST',
      headers: { 'content-type': form.contentType, ...headers },
      body: form.body,
    });

  it('passes the shopper’s address on: the nginx block sets X-Forwarded-For', () => {
    assert.match(nginx.config, /proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });

  it('gives two honest shoppers on different addresses separate write limits', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await upload('127.0.0.2')).status, 201);
    const refused = await upload('127.0.0.2');
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.json<{ error: { code: string } }>().error.code, 'rate_limited');
    // The other shopper is untouched by the first one's limit.
    for (let i = 0; i < 3; i++) assert.equal((await upload('127.0.0.3')).status, 201);
    assert.equal((await upload('127.0.0.3')).status, 429);
  });

  it('gives a shopper who forges X-Forwarded-For no new allowance, and costs the others nothing', async () => {
    const forged = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i}, 203.0.113.${i}` });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await upload('127.0.0.4', forged(i))).status);
    assert.deepEqual(answers, [201, 201, 201, 429, 429, 429]);
    // Claiming to be another shopper does not spend that shopper's allowance either.
    assert.equal((await upload('127.0.0.5', { 'x-forwarded-for': '127.0.0.6' })).status, 201);
    for (let i = 0; i < 3; i++) assert.equal((await upload('127.0.0.6')).status, 201);
  });

  it("gives a client that reaches the proxy's port directly nothing by forging X-Forwarded-For", async () => {
    const direct = (i: number) =>
      send(`${stack.url}/photos`, {
        from: '127.0.0.9',
        method: 'POST',
        body: form.body,
        headers: { 'content-type': form.contentType, 'x-forwarded-for': `198.51.100.${i}` },
      });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await direct(i)).status);
    assert.deepEqual(answers, [201, 201, 201, 429, 429]);
  });

  it('refuses a production start that would trust a hop count on every interface', () => {
    const production = {
      NODE_ENV: 'production',
      TRYON_API_KEY: 'sk_test_a',
      TRYON_BASE_URL: 'http://127.0.0.1:9',
      TRYON_PROXY_SECRET: SECRET,
      TRYON_ALLOWED_ORIGINS: 'https://shop.example',
    };
    assert.throws(
      () => loadConfig({ ...production, TRYON_TRUST_PROXY: '1' }),
      /TRYON_TRUST_PROXY is a hop count but the proxy listens on 0\.0\.0\.0/,
    );
    assert.equal(
      loadConfig({ ...production, TRYON_TRUST_PROXY: '1', TRYON_HOST: '127.0.0.1' }).trustProxy.kind,
      'hops',
    );
    assert.equal(loadConfig({ ...production, TRYON_TRUST_PROXY: '10.0.0.0/8' }).hostname, '0.0.0.0');
  });

  it("passes the port on in Host: a page on nginx's non-default port is same-origin", async () => {
    const answer = await upload('127.0.0.10', { origin: `http://127.0.0.1:${nginx.port}` });
    assert.equal(answer.status, 201, answer.text);
  });

  it('keeps reads per shopper too', async () => {
    const read = (from: string, headers: Record<string, string> = {}) =>
      send(`${nginx.url}/products/dress-aline-indigo`, { from, headers });
    for (let i = 0; i < 5; i++)
      assert.equal((await read('127.0.0.7', { 'x-forwarded-for': `10.9.9.${i}` })).status, 200);
    assert.equal((await read('127.0.0.7', { 'x-forwarded-for': '10.9.9.99' })).status, 429);
    assert.equal((await read('127.0.0.8')).status, 200);
  });
});

describe("behind nginx that strips the mount's path, without TRYON_PUBLIC_URL", () => {
  let stack: Stack;
  let nginx: Nginx;
  before(async () => {
    // No publicUrl: the proxy sees `/tryons/…` while the browser asked for `/tryon/tryons/…`.
    stack = await startStack({ proxy: { trustProxy: '127.0.0.1' } });
    nginx = await startNginx(Number(new URL(stack.url).port));
  });
  after(async () => {
    await nginx?.stop();
    await stack?.close();
  });

  it("strips the path: the documented location proxies /tryon/x to the proxy's /x", async () => {
    assert.match(nginx.config, /location \/tryon\/ \{\s*\n\s*proxy_pass http:\/\/127\.0\.0\.1:\d+\/;/);
  });

  it('answers output URLs that load through nginx, from the status route and the event stream', async () => {
    const at = { url: nginx.url };
    const photo = await photoHandle(at);
    const started = await startTryon(at, { product: 'dress-aline-indigo', photo });
    assert.equal(started.status, 202, await started.clone().text());
    const { tryon } = (await started.json()) as TryonAnswer;
    const done = await waitForStatus(at, tryon, (s) => s.status === 'succeeded');
    const events = await (await fetch(`${nginx.url}/tryons/${tryon}/events`)).text();
    const streamed = JSON.parse(/^data: (.*)$/m.exec(events)![1]!) as StatusAnswer;
    const urls = [...done.outputs, ...streamed.outputs].map((output) => output.url);
    assert.ok(urls.length >= 2, JSON.stringify({ done, streamed }));
    for (const url of urls) {
      // Resolved as the widget resolves it, against its endpoint: https://shop/tryon + files/… .
      const resolved = absolute(at, url);
      assert.ok(resolved.startsWith(`${nginx.url}/files/`), resolved);
      const file = await fetch(resolved);
      assert.equal(file.status, 200, `${resolved}: ${file.status}`);
      assert.match(file.headers.get('content-type') ?? '', /^image\//);
      const bytes = new Uint8Array(await file.arrayBuffer());
      assert.ok(sniffPhotoType(bytes.subarray(0, 64)), `an image, ${bytes.length} bytes`);
    }
  });
});
