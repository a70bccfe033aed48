// Real nginx, configured with the several-instances block of docs/integrations/deploy-proxy.md,
// balancing two `proxy/node.ts` processes on one real Redis, started as that doc says
// (TRYON_REDIS_URL, one TRYON_PROXY_SECRET, TRYON_TRUST_PROXY=1): requests reach both instances,
// and a shopper's try-on, limits and the shop's budget behave as with one proxy.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster, type Cluster } from './cluster.js';
import { startNginxCluster, type Nginx } from './nginx.js';
import { personPhoto, type StatusAnswer } from './stack.js';
import { readEvents } from './sse.js';
import { photoForm, send } from './wire.js';

describe('two instances on one Redis behind nginx, as documented', () => {
  let cluster: Cluster;
  let nginx: Nginx;
  let form: { body: Uint8Array; contentType: string };

  before(async () => {
    cluster = await startCluster({
      count: 2,
      env: {
        TRYON_TRUST_PROXY: '1',
        TRYON_RATE_PER_MINUTE: '4',
        TRYON_DAILY_TRYONS: '3',
        TRYON_CLIENT_DAILY_TRYONS: '1000',
      },
    });
    nginx = await startNginxCluster(cluster.instances.map((instance) => Number(new URL(instance.url).port)));
    form = await photoForm(await personPhoto());
  });
  after(async () => {
    await nginx?.stop();
    await cluster?.close();
  });

  const upload = (from: string) =>
    send(`${nginx.url}/photos`, {
      from,
      method: 'POST',
      headers: { 'content-type': form.contentType },
      body: form.body,
    });
  const submit = (from: string, photo: string) =>
    send(`${nginx.url}/tryons`, {
      from,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        product: 'dress-aline-indigo',
        photo,
        consent: true,
        requestId: `req_${Math.random().toString(36).slice(2)}`,
      }),
    });
  const served = (instance: number) => cluster.instances[instance]!.logs.filter((l) => l.event === 'request').length;

  it("balances over both instances, and a shopper's try-on streams to its end through either", async () => {
    const before = [served(0), served(1)];
    const photo = (await upload('127.0.0.2')).json<{ photo: string }>().photo;
    const started = await submit('127.0.0.2', photo);
    assert.equal(started.status, 202, started.text);
    const tryon = started.json<{ tryon: string }>().tryon;
    const events = await readEvents(`${nginx.url}/tryons/${tryon}/events`, undefined, AbortSignal.timeout(20_000));
    assert.equal((JSON.parse(events.at(-1)!.data) as StatusAnswer).status, 'succeeded');
    for (let i = 0; i < 4; i++) {
      const status = await fetch(`${nginx.url}/tryons/${tryon}`);
      const body = (await status.json()) as StatusAnswer;
      assert.equal(body.status, 'succeeded');
      // The instances see paths without /tryon and no TRYON_PUBLIC_URL: their file URLs are relative
      // to the mount, resolved against it as the widget resolves them against its endpoint.
      const file = await fetch(new URL(body.outputs[0]!.url, `${nginx.url}/`));
      assert.equal(file.status, 200);
      await file.arrayBuffer();
    }
    assert.ok(
      served(0) > before[0]! && served(1) > before[1]!,
      `both instances served requests (${served(0) - before[0]!}, ${served(1) - before[1]!})`,
    );
  });

  it('gives each shopper one write allowance for both instances', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await upload('127.0.0.3')).status);
    assert.deepEqual(answers, [201, 201, 201, 201, 429, 429]);
    assert.equal((await upload('127.0.0.4')).status, 201, 'another shopper is untouched');
  });

  it("holds the shop's daily budget across both instances under a burst", async () => {
    // Shopper 127.0.0.2 has spent 2 of its 4 writes and the shop 1 of its 3 try-ons; a burst from
    // fresh shoppers, one photo each, meets the budget's last 2 slots.
    const shoppers = ['127.0.0.11', '127.0.0.12', '127.0.0.13', '127.0.0.14', '127.0.0.15', '127.0.0.16'];
    const photos = await Promise.all(
      shoppers.map(async (from) => (await upload(from)).json<{ photo: string }>().photo),
    );
    const answers = await Promise.all(shoppers.map((from, i) => submit(from, photos[i]!)));
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [202, 202, 503, 503, 503, 503]);
    const jobs = (await cluster.state()).workspaces.ws_1!.jobs.filter((j) => j.parent === null).length;
    assert.equal(jobs, 3, "three upstream try-ons in all, the day's budget");
  });
});
