// Verified webhooks update the shared status and are pushed over SSE at once; badly signed
// ones are refused. The sandbox sends real signed events to the proxy through a loopback relay
// (the sandbox needs the receiver's URL before the proxy exists).
import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Webhook } from 'standardwebhooks';
import { HandleSigner } from '../../proxy/security/handles.js';
import { webhookVerifier } from '../../proxy/security/webhook-signature.js';
import {
  SECRET,
  photoHandle,
  startStack,
  startTryon,
  type Stack,
  type StatusAnswer,
  type TryonAnswer,
  useStack,
} from './stack.js';
import { readEvents } from './sse.js';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

describe('webhooks', () => {
  let stack: Stack;
  let relay: ReturnType<typeof serve>;
  let target = '';
  const delivered: number[] = [];

  before(async () => {
    const relayUrl = await new Promise<string>((resolve) => {
      relay = serve(
        {
          port: 0,
          hostname: '127.0.0.1',
          fetch: async (request) => {
            const url = new URL(request.url);
            const response = await fetch(`${target}${url.pathname}`, {
              method: request.method,
              headers: request.headers,
              body: await request.text(),
            });
            delivered.push(response.status);
            return response;
          },
        },
        (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}`),
      );
    });
    stack = await startStack({
      sandbox: { webhookUrl: `${relayUrl}/webhooks`, webhookSecret: WEBHOOK_SECRET },
      // Polling far slower than the test: only a webhook can bring news in time.
      proxy: { webhookSecret: WEBHOOK_SECRET, limits: { pollIntervalMs: 120_000 } },
    });
    target = stack.url;
  });
  after(async () => {
    await stack.close();
    await new Promise<void>((resolve) => relay.close(() => resolve()));
  });

  it('a signed webhook from the sandbox is accepted and pushed over SSE without polling', async () => {
    await stack.fault({ jobOutcome: 'hold', times: 1 });
    const started = (await (
      await startTryon(stack, { product: 'saree-banarasi-red', photo: await photoHandle(stack) })
    ).json()) as TryonAnswer;
    const { jobId } = await new HandleSigner(SECRET).open('tryon', started.tryon);
    let opened!: () => void;
    const firstEvent = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const stream = readEvents(
      `${stack.url}/tryons/${started.tryon}/events`,
      () => opened(),
      AbortSignal.timeout(20_000),
    );
    await firstEvent;
    await fetch(`${stack.sandboxUrl}/sandbox/jobs/${jobId}/release`, { method: 'POST' });
    const events = await stream;
    const statuses = events.map((e) => JSON.parse(e.data) as StatusAnswer);
    const last = statuses.at(-1)!;
    assert.equal(last.status, 'succeeded');
    assert.equal(last.outputs.length, 4);
    // Outputs grew over several events, pushed as webhooks came in.
    assert.ok(
      new Set(statuses.map((s) => s.outputs.length)).size >= 2,
      JSON.stringify(statuses.map((s) => [s.status, s.outputs.length])),
    );
    assert.ok(
      delivered.length >= 2 && delivered.every((status) => status === 204),
      `webhook answers ${delivered.join(',')}`,
    );
    const job = (await stack.state()).workspaces.ws_1!.jobs.find((j) => j.id === jobId)!;
    assert.equal(job.polls, 0, 'no upstream poll was needed');
    assert.ok(stack.logs.some((l) => l.event === 'webhook' && l.known === true));
  });

  it('a webhook wakes the first look like any job: its success reaches SSE while the try-on is held, without polling', async () => {
    await stack.fault({ jobOutcome: 'hold', times: 1 });
    const started = (await (
      await startTryon(stack, { product: 'saree-banarasi-red', photo: await photoHandle(stack) })
    ).json()) as TryonAnswer;
    const { jobId, previewJobId } = await new HandleSigner(SECRET).open('tryon', started.tryon);
    assert.ok(previewJobId, 'a premium try-on has a first look');
    type WithPreview = StatusAnswer & { preview?: { status: string; outputs: unknown[] } };
    let sawPreview!: () => void;
    const previewShown = new Promise<void>((resolve) => {
      sawPreview = resolve;
    });
    const stream = readEvents(
      `${stack.url}/tryons/${started.tryon}/events`,
      (event) => {
        const body = JSON.parse(event.data) as WithPreview;
        if (body.preview?.status === 'succeeded') sawPreview();
      },
      AbortSignal.timeout(20_000),
    );
    await previewShown;
    await fetch(`${stack.sandboxUrl}/sandbox/jobs/${jobId}/release`, { method: 'POST' });
    const statuses = (await stream).map((e) => JSON.parse(e.data) as WithPreview);
    const shown = statuses.find((s) => s.preview?.status === 'succeeded')!;
    assert.notEqual(shown.status, 'succeeded', 'the first look arrived while the try-on was still held');
    assert.equal(shown.preview!.outputs.length, 1);
    assert.equal(statuses.at(-1)!.status, 'succeeded');
    const jobs = (await stack.state()).workspaces.ws_1!.jobs;
    assert.equal(
      jobs.find((j) => j.id === previewJobId)!.polls,
      0,
      'the first look was never polled: its webhook brought it',
    );
  });

  it('refuses a badly signed, unsigned, stale or foreign-secret event with 401', async () => {
    const body = JSON.stringify({
      type: 'job.succeeded',
      timestamp: new Date().toISOString(),
      data: { id: 'job_x', status: 'succeeded' },
    });
    const signer = new Webhook(WEBHOOK_SECRET);
    const now = new Date();
    const good = signer.sign('msg_1', now, body);
    const send = (headers: Record<string, string>, payload = body) =>
      fetch(`${stack.url}/webhooks`, {
        method: 'POST',
        body: payload,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const expect401 = async (response: Response) => {
      assert.equal(response.status, 401);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'invalid_signature');
    };
    const timestamp = String(Math.floor(now.getTime() / 1000));
    await expect401(
      await send({
        'webhook-id': 'msg_1',
        'webhook-timestamp': timestamp,
        'webhook-signature': good.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      }),
    );
    await expect401(await send({}));
    await expect401(
      await send(
        { 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': good },
        body.replace('job_x', 'job_y'),
      ),
    );
    const old = new Date(now.getTime() - 10 * 60_000);
    await expect401(
      await send({
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(Math.floor(old.getTime() / 1000)),
        'webhook-signature': signer.sign('msg_1', old, body),
      }),
    );
    const foreign = new Webhook(`whsec_${randomBytes(24).toString('base64')}`).sign('msg_1', now, body);
    await expect401(
      await send({ 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': foreign }),
    );
    // The genuine one passes (for an unknown job it is acknowledged and ignored).
    const ok = await send({ 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': good });
    assert.equal(ok.status, 204);
    // A redelivery (same webhook-id) is acknowledged and not applied again.
    const again = await send({ 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': good });
    assert.equal(again.status, 204);
    assert.equal(stack.logs.filter((l) => l.event === 'webhook_duplicate').length, 1);
  });

  it('refuses every other spelling of a genuine signature, as the reference library does', async () => {
    const body = JSON.stringify({ type: 'job.succeeded', data: { id: 'job_z', status: 'succeeded' } });
    const now = new Date();
    const good = new Webhook(WEBHOOK_SECRET).sign('msg_spell', now, body);
    const value = good.slice('v1,'.length);
    assert.match(value, /^[A-Za-z0-9+/]{43}=$/, '32 bytes: 43 characters and one pad; the last carries 2 unused bits');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const last = alphabet.indexOf(value[42]!);
    const spellings = [
      `v1,${value.slice(0, -1)}`, // no padding
      ...[1, 2, 3].map((bits) => `v1,${value.slice(0, 42)}${alphabet[last ^ bits]}=`), // the same bytes, other unused bits
      `v1,${value.slice(0, 20)}\t${value.slice(20)}`, // whitespace atob would skip
    ];
    for (const spelling of spellings) {
      assert.deepEqual(
        Buffer.from(spelling.slice(3).replace('\t', ''), 'base64'),
        Buffer.from(value, 'base64'),
        'the same signature bytes',
      );
      const response = await fetch(`${stack.url}/webhooks`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'webhook-id': 'msg_spell',
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': spelling,
        },
      });
      assert.equal(response.status, 401, `${JSON.stringify(spelling)} was accepted`);
    }
  });

  it('without a webhook secret every event is refused as unverified', async (t) => {
    const plain = await useStack(t);
    const body = '{"type":"job.succeeded","data":{"id":"job_x","status":"succeeded"}}';
    const now = new Date();
    const response = await fetch(`${plain.url}/webhooks`, {
      method: 'POST',
      body,
      headers: {
        'webhook-id': 'msg_9',
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': new Webhook(WEBHOOK_SECRET).sign('msg_9', now, body),
      },
    });
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'invalid_signature');
  });
});

describe('webhook signatures', () => {
  // The Standard Webhooks specification's published test vector.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = '{"test": 2432232314}';
  const signed = (timestamp: string, signature = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=') =>
    new Headers({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': timestamp,
      'webhook-signature': signature,
    });

  it("verifies the specification's known-answer vector, within five minutes of its time only", () => {
    const verify = webhookVerifier(secret);
    const at = (seconds: number) => mock.timers.enable({ apis: ['Date'], now: seconds * 1000 });
    try {
      at(1614265330);
      assert.equal(verify(signed('1614265330'), body), true);
      assert.equal(
        verify(signed('1614265330', 'v1,AAAA v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='), body),
        true,
        'any one of several entries',
      );
      assert.equal(verify(signed('1614265330'), `${body} `), false);
      assert.equal(verify(signed('1614265330', 'v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='), body), false);
      assert.equal(verify(signed('1614265330abc'), body), false);
      mock.timers.reset();
      at(1614265330 + 300);
      assert.equal(verify(signed('1614265330'), body), true);
      mock.timers.reset();
      at(1614265330 + 301);
      assert.equal(verify(signed('1614265330'), body), false, 'too old');
      mock.timers.reset();
      at(1614265330 - 301);
      assert.equal(verify(signed('1614265330'), body), false, 'too new');
    } finally {
      mock.timers.reset();
    }
  });

  it('refuses a secret that is not whsec_<base64> at start, not later with a weaker key', () => {
    assert.throws(() => webhookVerifier('whsec_not base64!'), /whsec_<base64>/);
  });
});
