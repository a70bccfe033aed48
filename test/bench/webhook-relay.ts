// A sandbox for the benches, with its webhooks (when asked) sent through a small relay: the
// sandbox needs the webhook address at start, before the proxy that receives them exists.
import { randomBytes } from 'node:crypto';
import type { BenchContext } from './harness.js';
import type { Served } from './loopback.js';
import { serveFetch } from './loopback.js';
import type { RunningSandbox } from './project.js';
import { BENCH_KEYS, loadSandbox } from './project.js';

export interface BenchSandbox {
  sandbox: RunningSandbox;
  /** The Standard Webhooks secret the proxy must verify with; absent without webhooks. */
  webhookSecret?: string;
  /** Where the relay delivers, e.g. `${proxy.url}/webhooks`. */
  deliverTo(url: string): void;
  webhooks: { delivered: number; refused: number };
}

export async function startBenchSandbox(ctx: BenchContext, withWebhooks: boolean): Promise<BenchSandbox> {
  const { startSandbox } = await loadSandbox();
  const webhooks = { delivered: 0, refused: 0 };
  let target: string | undefined;
  let relay: Served | undefined;
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  if (withWebhooks) {
    relay = await serveFetch(async (request) => {
      if (!target) {
        webhooks.refused += 1;
        return new Response('no receiver yet', { status: 503 });
      }
      const answer = await fetch(target, {
        method: 'POST',
        headers: request.headers,
        body: await request.arrayBuffer(),
      });
      if (answer.ok) webhooks.delivered += 1;
      else webhooks.refused += 1;
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    });
    ctx.defer(() => relay?.close());
  }
  const sandbox = await startSandbox({
    port: 0,
    hostname: '127.0.0.1',
    speed: 0,
    keys: BENCH_KEYS,
    log: () => {},
    ...(relay ? { webhookUrl: `${relay.url}/webhooks`, webhookSecret: secret } : {}),
  });
  ctx.defer(() => sandbox.close());
  return {
    sandbox,
    ...(withWebhooks ? { webhookSecret: secret } : {}),
    deliverTo: (url) => {
      target = url;
    },
    webhooks,
  };
}
