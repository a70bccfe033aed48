// The desktop → phone hand-off (photos/phone-handoffs.ts): POST /handoffs starts one for a product and answers
// the desktop's handle and the phone's code; GET /handoffs/{h} and GET /handoffs/{h}/events (SSE,
// event `handoff`) tell the desktop whether the phone's photo has come; POST /handoffs/{h}/confirm
// with the number the phone shows gives it the photo. The phone gives its photo through POST
// /photos with the field `handoff` (routes/photos.ts). Starting and confirming are writes (the
// write rate limit holds), reading one a read; a handle the proxy did not mint is 404.
import { Hono, type Handler } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { randomId } from '../security/crypto.js';
import { ProxyError } from '../http/errors.js';
import {
  confirmationNumberOf,
  confirmationRefusal,
  HANDOFF_KEEP_MS,
  HANDOFF_TTL_MS,
  newHandoffCode,
  stateEndsAt,
  statusOf,
  type HandoffRecord,
  type HandoffStatus,
} from '../photos/phone-handoffs.js';
import { productAsVariant } from '../catalog/catalog.js';
import { rateLimit } from '../limits/rate-limit.js';
import { readRequestText } from '../http/streams.js';
import { StreamSlots, sayStreamFailed } from '../http/stream-slots.js';
import type { ProxyServices } from './services.js';
import type { ProxyEnv } from '../http/request-facts.js';
import { noStoreJson } from '../http/no-store-json.js';

/** What these routes use of the shared services: no more, so a change elsewhere cannot reach them unseen. */
type HandoffServices = Pick<
  ProxyServices,
  'client' | 'findProduct' | 'handles' | 'limits' | 'log' | 'metrics' | 'now' | 'reads' | 'store' | 'writes'
>;

/** How often a desktop's stream asks the store whether the photo has come (any instance may have taken it). */
export const HANDOFF_POLL_MS = 1_000;

const startRequest = z.strictObject({
  product: z.string().min(1).max(128),
  variant: z
    .string()
    .max(64)
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
});

const confirmRequest = z.strictObject({ number: z.string().max(32) });

/**
 * What the desktop is told: never the code (it has it), never the phone's number (the desktop must
 * be told it by the shopper), and the photo only once that number was typed here. `expiresAt`:
 * the code's end while waiting, the number's while confirming.
 */
export interface HandoffBody {
  status: HandoffStatus;
  photo?: string;
  /** While confirming: wrong numbers still allowed. */
  triesLeft?: number;
  expiresAt: string;
}

const bodyOf = (record: HandoffRecord, now: number): HandoffBody => {
  const status = statusOf(record, now);
  return {
    status,
    ...(status === 'received' ? { photo: record.photo! } : {}),
    ...(status === 'confirming' ? { triesLeft: record.triesLeft! } : {}),
    expiresAt: new Date(stateEndsAt(record)).toISOString(),
  };
};

/** A small JSON body, or the 400/422 that says what is wrong with it. */
async function readJson<T>(request: Request, bytes: number, schema: z.ZodType<T>): Promise<T> {
  let body: unknown;
  try {
    body = JSON.parse(await readRequestText(request, bytes));
  } catch (error) {
    if (error instanceof ProxyError) throw error;
    throw new ProxyError(400, 'invalid_request', 'The request body must be JSON.');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProxyError(
      422,
      'validation_failed',
      `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'is not valid'}`,
    );
  }
  return parsed.data;
}

async function readHandoff(services: HandoffServices, handle: string): Promise<HandoffRecord> {
  const { id } = await services.handles.open('handoff', handle);
  const record = await services.store.readHandoff(id);
  if (!record) throw new ProxyError(404, 'invalid_handle', 'This hand-off link is not valid.');
  return record;
}

export function handoffRoutes(services: HandoffServices): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();

  const writes = rateLimit(services.writes, services.client);
  app.post('/', writes, async (c) => {
    const asked = await readJson(c.req.raw, services.limits.jsonBytes, startRequest);
    const product = await services.findProduct(asked.product);
    if (!product || product.enabled === false)
      throw new ProxyError(404, 'unknown_product', 'This product has no try-on.');
    if (!productAsVariant(product, asked.variant))
      throw new ProxyError(422, 'unknown_variant', 'This colour or size of the product has no try-on.');
    const record: HandoffRecord = {
      id: randomId(),
      code: newHandoffCode(),
      product: product.id,
      expiresAt: services.now() + HANDOFF_TTL_MS,
      ...(asked.variant ? { variant: asked.variant } : {}),
    };
    await services.store.createHandoff(record, HANDOFF_KEEP_MS);
    // The handle lives as long as the store keeps the hand-off, so a late read says "expired", not 404.
    const { handle } = await services.handles.mint(
      'handoff',
      { id: record.id },
      0,
      Math.ceil((record.expiresAt + HANDOFF_KEEP_MS) / 1000),
    );
    services.log({ event: 'handoff_started', product: product.id, requestId: c.get('requestId') });
    return noStoreJson(
      { handoff: handle, code: record.code, expiresAt: new Date(record.expiresAt).toISOString() },
      201,
    );
  });

  const reads = rateLimit(services.reads, services.client);
  app.get('/:handle', reads, async (c) => {
    const record = await readHandoff(services, c.req.param('handle'));
    return noStoreJson(bodyOf(record, services.now()));
  });
  app.get('/:handle/events', reads, handoffEvents(services));

  // The number the phone showed, typed on the desktop: the photo is the desktop's only now. A
  // malformed number is 422 and takes no try (it cannot be a guess at the phone's number).
  app.post('/:handle/confirm', writes, async (c) => {
    const { id } = await services.handles.open('handoff', c.req.param('handle'));
    const typed = await readJson(c.req.raw, services.limits.jsonBytes, confirmRequest);
    const number = confirmationNumberOf(typed.number);
    if (!number) throw new ProxyError(422, 'validation_failed', 'number: must be the 6 digits your phone shows');
    const confirmation = await services.store.confirmHandoff(id, number, services.now());
    const requestId = c.get('requestId');
    if (confirmation.outcome !== 'received') {
      if (confirmation.outcome === 'wrong' || confirmation.outcome === 'locked')
        services.log({ level: 'warn', event: 'handoff_number_wrong', outcome: confirmation.outcome, requestId });
      throw confirmationRefusal(confirmation);
    }
    services.log({ event: 'handoff_confirmed', requestId });
    const record = await services.store.readHandoff(id);
    if (!record) throw confirmationRefusal({ outcome: 'unknown' });
    return noStoreJson(bodyOf(record, services.now()));
  });
  return app;
}

/**
 * The hand-off as SSE: its state at once, then again whenever it changes (the store is asked every
 * HANDOFF_POLL_MS, since the phone's upload and the confirmation may reach any instance), until it
 * is received or expired, the browser leaves, or streamMaxMs passes (the widget reconnects, or polls).
 */
function handoffEvents(services: HandoffServices): Handler<ProxyEnv> {
  const slots = new StreamSlots(services.limits);
  return async (c) => {
    const first = await readHandoff(services, c.req.param('handle') ?? '');
    const release = slots.take(services.client(c));
    c.header('cache-control', 'no-store');
    c.header('x-accel-buffering', 'no');
    return streamSSE(
      c,
      async (stream) => {
        services.metrics.sseConnections(1);
        let closed = false;
        let wake: (() => void) | undefined;
        const stop = () => {
          closed = true;
          wake?.();
        };
        stream.onAbort(stop);
        const heartbeat = setInterval(
          () => void stream.write(': heartbeat\n\n').catch(() => undefined),
          services.limits.heartbeatMs,
        );
        const deadline = setTimeout(stop, services.limits.streamMaxMs);
        try {
          let last = '';
          let record: HandoffRecord | undefined = first;
          while (!closed && record) {
            const body = bodyOf(record, services.now());
            const text = JSON.stringify(body);
            if (text !== last) {
              last = text;
              await stream.writeSSE({ event: 'handoff', data: text });
            }
            if (body.status !== 'waiting' && body.status !== 'confirming') break;
            // Until the next look, or the end of the code (or of the number), whichever comes first.
            const pause = Math.max(0, Math.min(HANDOFF_POLL_MS, stateEndsAt(record) - services.now()));
            await new Promise<void>((resolve) => {
              wake = resolve;
              setTimeout(resolve, pause);
            });
            wake = undefined;
            if (!closed) record = await services.store.readHandoff(record.id);
          }
        } finally {
          clearInterval(heartbeat);
          clearTimeout(deadline);
          release();
          services.metrics.sseConnections(-1);
        }
      },
      sayStreamFailed(services.log, 'The hand-off stream failed.'),
    );
  };
}
