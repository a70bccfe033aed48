// The desktop → phone hand-off against the real sandbox, on every store: the desktop's handle and
// the phone's code differ; the phone's upload with the code gives the desktop a photo it tries on
// with the consent given on the phone; a code is single use (also under parallel uploads on two
// instances sharing Redis or Durable Objects), lives 10 minutes and reads nothing; a made-up handle is 404.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { personPhoto, startStack, startTryon, waitForStatus, type Stack, type TryonAnswer, useStack } from './stack.js';
import { readEvents, type SseEvent } from './sse.js';
import { sharedStores, stackOn, STORE_KINDS } from './stores.js';

interface Started {
  handoff: string;
  code: string;
  expiresAt: string;
}
interface HandoffBody {
  status: string;
  photo?: string;
  expiresAt: string;
}

const CONSENT_VERSION = '0123456789abcdef01';

export async function startHandoff(
  stack: { url: string },
  body: Record<string, unknown> = { product: 'dress-aline-indigo' },
): Promise<Started> {
  const response = await fetch(`${stack.url}/handoffs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 201, await response.clone().text());
  return (await response.json()) as Started;
}

/** The phone's upload: its code and consent first, then the photo (as the widget's FormData sends them). */
export async function phoneUpload(
  stack: { url: string },
  code: string,
  fields: Record<string, string> = {},
): Promise<Response> {
  const form = new FormData();
  form.append('handoff', code);
  form.append('consent', 'true');
  form.append('consentVersion', CONSENT_VERSION);
  form.append('consentLanguage', 'hi');
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.append('photo', new Blob([(await personPhoto()) as BlobPart], { type: 'image/jpeg' }), 'me.jpg');
  return fetch(`${stack.url}/photos`, { method: 'POST', body: form });
}

const codeOf = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;
const read = async (stack: Stack, handle: string) =>
  (await (await fetch(`${stack.url}/handoffs/${handle}`)).json()) as HandoffBody;

for (const kind of STORE_KINDS) {
  describe(`hand-off from desktop to phone (${kind})`, () => {
    let stack: Stack;
    before(async () => {
      stack = await stackOn(kind);
    });
    after(async () => {
      await stack.close();
    });

    it('the phone’s photo reaches the desktop, which tries it on with the phone’s consent', async () => {
      const started = await startHandoff(stack);
      assert.match(started.handoff, /^v1\.handoff\./);
      assert.match(started.code, /^[2-9A-HJKMNP-TV-Z]{10}$/);
      assert.ok(!started.handoff.includes(started.code));
      const left = Date.parse(started.expiresAt) - Date.now();
      assert.ok(left > 9 * 60_000 && left <= 10 * 60_000, `${left} ms left`);
      assert.equal((await read(stack, started.handoff)).status, 'waiting');

      // The desktop watches the stream; the phone uploads meanwhile (typed with a dash and lower case).
      const events: SseEvent[] = [];
      const watching = readEvents(`${stack.url}/handoffs/${started.handoff}/events`, (event) => events.push(event));
      const typed = `${started.code.slice(0, 5).toLowerCase()}-${started.code.slice(5)}`;
      const upload = await phoneUpload(stack, typed);
      assert.equal(upload.status, 201, await upload.clone().text());
      assert.equal(((await upload.json()) as { handoff: string }).handoff, 'received');
      await watching;
      assert.deepEqual(
        events.map((e) => [e.event, (JSON.parse(e.data) as HandoffBody).status]),
        [
          ['handoff', 'waiting'],
          ['handoff', 'received'],
        ],
      );
      const received = await read(stack, started.handoff);
      assert.equal(received.status, 'received');
      assert.match(received.photo!, /^v1\.photo\./);

      const tryon = await startTryon(stack, { product: 'dress-aline-indigo', photo: received.photo });
      assert.equal(tryon.status, 202, await tryon.clone().text());
      await waitForStatus(stack, ((await tryon.json()) as TryonAnswer).tryon, (s) => s.status === 'succeeded');
      const line = stack.logs.filter((entry) => entry.event === 'consent').at(-1)!;
      assert.equal(line.source, 'handoff');
      assert.equal(line.consentVersion, CONSENT_VERSION);
      assert.equal(line.consentLanguage, 'hi');
    });

    it('a second use of a code is refused before anything is uploaded; a made-up code or handle is 404', async () => {
      const started = await startHandoff(stack);
      assert.equal((await phoneUpload(stack, started.code)).status, 201);
      const uploads = stack.upstreamCalls.length;
      const again = await phoneUpload(stack, started.code);
      assert.equal(again.status, 409);
      assert.equal(await codeOf(again), 'handoff_used');
      assert.equal(stack.upstreamCalls.length, uploads, 'no upload upstream for a used code');
      const madeUpCode = await phoneUpload(stack, 'ABCDEFGHJK');
      assert.equal(madeUpCode.status, 404);
      assert.equal(await codeOf(madeUpCode), 'handoff_unknown');
      assert.equal(await codeOf(await phoneUpload(stack, 'not a code')), 'handoff_unknown');
      // The code reads nothing: it is not a handle.
      assert.equal((await fetch(`${stack.url}/handoffs/${started.code}`)).status, 404);
      const madeUp = await fetch(`${stack.url}/handoffs/v1.handoff.AAAA.BBBB`);
      assert.equal(madeUp.status, 404);
      assert.equal(await codeOf(madeUp), 'invalid_handle');
    });

    it('a hand-off upload without consent is 422 consent_required; an unknown product 404', async () => {
      const started = await startHandoff(stack);
      const refused = await phoneUpload(stack, started.code, { consent: 'false' });
      assert.equal(refused.status, 422);
      assert.equal(await codeOf(refused), 'consent_required');
      assert.equal((await read(stack, started.handoff)).status, 'waiting');
      const unknown = await fetch(`${stack.url}/handoffs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ product: 'nope' }),
      });
      assert.equal(unknown.status, 404);
      const badVariant = await fetch(`${stack.url}/handoffs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ product: 'dress-aline-indigo', variant: 'nope' }),
      });
      assert.equal(await codeOf(badVariant), 'unknown_variant');
    });
  });
}

describe('hand-off codes expire after 10 minutes', () => {
  let clock = Date.now();
  let stack: Stack;
  before(async () => {
    stack = await startStack({ proxy: { now: () => clock } });
  });
  after(async () => {
    await stack.close();
  });

  it('an expired code is 410 handoff_expired on the phone, and the desktop reads "expired"', async () => {
    const started = await startHandoff(stack);
    clock += 10 * 60_000 + 1;
    const late = await phoneUpload(stack, started.code);
    assert.equal(late.status, 410);
    assert.equal(await codeOf(late), 'handoff_expired');
    assert.equal((await read(stack, started.handoff)).status, 'expired');
  });
});

for (const kind of ['redis', 'durable'] as const) {
  describe(`a code is single use across instances (${kind})`, () => {
    it('parallel uploads with one code on two instances: exactly one gives its photo', async (t) => {
      const [storeA, storeB] = await sharedStores(kind, 2);
      const a = await useStack(t, { proxy: { store: storeA! } });
      const b = await useStack(t, { proxy: { store: storeB!, baseUrl: a.sandboxUrl } });
      const started = await startHandoff(a);
      const answers = await Promise.all([a, b, a, b, a, b].map((stack) => phoneUpload(stack, started.code)));
      const statuses = answers.map((r) => r.status).sort();
      assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409]);
      const winner = answers.find((r) => r.status === 201)!;
      const photo = ((await winner.json()) as { photo: string }).photo;
      // Both instances tell the desktop the same photo.
      assert.equal((await read(b, started.handoff)).photo, photo);
      assert.equal((await read(a, started.handoff)).photo, photo);
    });
  });
}
