import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createSandbox } from '../../sandbox/server.js';
import { imageBody, inputs, sandbox, settled, until } from './support.js';
import type { Sandbox } from './support.js';

interface Received {
  id: string;
  status: number;
  verified: boolean;
  event: any;
}

/** A tiny receiver: verifies each delivery, and fails the first try of the ids it is told to. */
async function receiver(secret: string) {
  const received: Received[] = [];
  const failFirst = new Set<string>();
  const seen = new Set<string>();
  let failNextOfType: string | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(request.headers[h] ?? '')]),
      );
      let verified = false;
      let event: any;
      try {
        event = new Webhook(secret).verify(body, headers);
        verified = true;
      } catch {
        event = JSON.parse(body);
      }
      const id = headers['webhook-id'] ?? '';
      let status = 204;
      if (failNextOfType === event.type && !seen.has(id)) {
        failNextOfType = undefined;
        failFirst.add(id);
        status = 500;
      }
      seen.add(id);
      received.push({ id, status, verified, event });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    failFirstOf: (type: string) => {
      failNextOfType = type;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('webhooks', () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  let sb: Sandbox;
  before(async () => {
    hooks = await receiver(secret);
    sb = await sandbox({ webhookUrl: hooks.url, webhookSecret: secret });
  });
  after(async () => {
    await sb.close();
    await hooks.close();
  });

  const eventsOf = (jobId: string) => hooks.received.filter((r) => r.event.data?.id === jobId && r.status < 300);

  it('POSTs job events signed by the Standard Webhooks scheme, in order, with the job as data', async () => {
    const files = await inputs(sb);
    const job = await settled(sb, (await sb.json('POST', '/v1/images/tryon', { json: imageBody(files) })).body.id);
    const events = await until('the succeeded event', async () => {
      const got = eventsOf(job.id);
      return got.some((r) => r.event.type === 'job.succeeded') ? got : undefined;
    });
    assert.deepEqual(
      events.map((r) => r.event.type),
      ['job.processing', 'job.output_ready', 'job.succeeded'],
    );
    for (const r of events) {
      assert.ok(r.verified, 'signature verifies with the shared secret');
      assert.match(r.id, /^msg_/);
      assert.ok(!Number.isNaN(Date.parse(r.event.timestamp)));
      assert.equal(r.event.data.object, 'job');
    }
    assert.equal(events.at(-1)?.event.data.status, 'succeeded');
    assert.equal(new Set(events.map((r) => r.id)).size, events.length, 'each event has its own id');
  });

  it('retries a delivery answered 500, with the same webhook-id, after a backoff', async () => {
    hooks.failFirstOf('job.succeeded');
    const files = await inputs(sb);
    const job = await settled(sb, (await sb.json('POST', '/v1/images/tryon', { json: imageBody(files) })).body.id);
    const tries = await until(
      'the retried delivery',
      async () => {
        const got = hooks.received.filter((r) => r.event.data?.id === job.id && r.event.type === 'job.succeeded');
        return got.length >= 2 ? got : undefined;
      },
      10_000,
    );
    const [first, second] = tries;
    assert.equal(first?.status, 500);
    assert.equal(second?.status, 204);
    assert.equal(first?.id, second?.id);
    assert.ok(second?.verified);
    assert.ok(
      sb.logs.some((line) => /webhook job\.succeeded msg_\w+ answered 500; retrying in \d+ ms/.test(line)),
      sb.logs.join('\n'),
    );
    assert.ok(
      sb.logs.every((line) => !line.includes(secret) && !line.includes('sk_test_alpha')),
      'no secret or key in the log',
    );
  });

  it('sends job.failed for a failed job and events for catalog children', async () => {
    await sb.json('POST', '/sandbox/faults', { json: { jobOutcome: 'failed' } });
    const files = await inputs(sb);
    const failed = await settled(sb, (await sb.json('POST', '/v1/images/tryon', { json: imageBody(files) })).body.id);
    const failure = await until('the failed event', async () =>
      eventsOf(failed.id).find((r) => r.event.type === 'job.failed'),
    );
    assert.equal(failure.event.data.error.code, 'render_failed');
    assert.ok(failure.verified);

    const catalog = await settled(
      sb,
      (await sb.json('POST', '/v1/images/tryon', { json: imageBody(files, { views: ['front', 'back'] }) })).body.id,
    );
    const child = catalog.children.find((c: { view: string }) => c.view === 'back');
    const childDone = await until('the child succeeded event', async () =>
      eventsOf(child.id).find((r) => r.event.type === 'job.succeeded'),
    );
    assert.equal(childDone.event.data.parent, catalog.id);
    const ready = await until('two output_ready events on the parent', async () => {
      const got = eventsOf(catalog.id).filter((r) => r.event.type === 'job.output_ready');
      return got.length === 2 ? got : undefined;
    });
    assert.equal(ready.length, 2);
  });

  it('retries on a network error and gives up after 5 tries, without crashing', async () => {
    const gone = await receiver(secret);
    await gone.close();
    const lonely = await sandbox({ webhookUrl: gone.url, webhookSecret: secret, webhookRetryBaseMs: 20 });
    try {
      const files = await inputs(lonely);
      const job = await settled(
        lonely,
        (await lonely.json('POST', '/v1/images/tryon', { json: imageBody(files) })).body.id,
      );
      assert.equal(job.status, 'succeeded');
      const gaveUp = await until('the sender to give up', async () =>
        lonely.logs.find((line) => /job\.succeeded .* gave up after 5 tries/.test(line)),
      );
      assert.match(gaveUp, /failed \(/);
      const retries = lonely.logs.filter((line) => /job\.succeeded .* retrying in/.test(line));
      assert.equal(retries.length, 4);
      assert.equal((await lonely.json('GET', `/v1/jobs/${job.id}`)).status, 200, 'the sandbox still answers');
    } finally {
      await lonely.close();
    }
  });

  it('refuses a secret not in whsec_<base64> form, or a URL without a secret', () => {
    assert.throws(() => createSandbox({ webhookUrl: hooks.url, webhookSecret: 'not base64 !!!', log: () => {} }));
    assert.throws(() => createSandbox({ webhookUrl: hooks.url, log: () => {} }), /SANDBOX_WEBHOOK_SECRET/);
  });
});
