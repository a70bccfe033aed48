// Real nginx, configured with the block docs/integrations/deploy-proxy.md gives, in front of the
// proxy started as the doc says (TRYON_TRUST_PROXY=1): shoppers on different addresses have their
// own limits, and a shopper who forges X-Forwarded-For gains nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../proxy/config.js';
import { personPhoto, startStack, type Stack } from './stack.js';
import { startNginx, type Nginx } from './nginx.js';
import { photoForm, send } from './wire.js';

describe('behind nginx, as documented', () => {
  let stack: Stack;
  let nginx: Nginx;
  let form: { body: Uint8Array; contentType: string };

  before(async () => {
    // The documented setting, read the way the proxy reads its environment.
    const { trustProxy } = loadConfig({ TRYON_TRUST_PROXY: '1' });
    stack = await startStack({ proxy: { trustProxy, limits: { ratePerMinute: 3, readsPerMinute: 5 } } });
    nginx = await startNginx(Number(new URL(stack.url).port));
    form = await photoForm(await personPhoto());
  });
  after(async () => {
    await nginx?.stop();
    await stack?.close();
  });

  const upload = (from: string, headers: Record<string, string> = {}) =>
    send(`${nginx.url}/photos`, { from, method: 'POST', headers: { 'content-type': form.contentType, ...headers }, body: form.body });

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

  it('keeps reads per shopper too', async () => {
    const read = (from: string, headers: Record<string, string> = {}) => send(`${nginx.url}/products/dress-aline-indigo`, { from, headers });
    for (let i = 0; i < 5; i++) assert.equal((await read('127.0.0.7', { 'x-forwarded-for': `10.9.9.${i}` })).status, 200);
    assert.equal((await read('127.0.0.7', { 'x-forwarded-for': '10.9.9.99' })).status, 429);
    assert.equal((await read('127.0.0.8')).status, 200);
  });
});
