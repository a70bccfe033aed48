// The desktop → phone hand-off against the real sandbox, on every store: the desktop's handle and
// the phone's code differ; the phone's upload with the code answers a confirmation number to the
// phone alone, and the desktop gets the photo (and tries it on with the consent given on the
// phone) only once that number is typed there; wrong numbers are limited, also under parallel
// guesses on two instances sharing Redis or Durable Objects; a code is single use (also under
// parallel uploads), lives 10 minutes and reads nothing; a made-up handle is 404.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { personPhoto, startStack, startTryon, waitForStatus, type Stack, type TryonAnswer, useStack } from './stack.js';
import { readEvents, type SseEvent } from './sse.js';

/** Resolves once `check` holds, asking again on each turn of the event loop's timers. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}
import { SHARED_STORE_KINDS, sharedStores, stackOn, STORE_KINDS } from './stores.js';
import { MemoryStore } from '../../proxy/store/memory.js';
import type { ProxyStore } from '../../proxy/store/store.js';

interface Started {
  handoff: string;
  code: string;
  expiresAt: string;
}
interface HandoffBody {
  status: string;
  photo?: string;
  triesLeft?: number;
  expiresAt: string;
}
interface PhoneAnswer {
  photo: string;
  handoff: string;
  confirmation: string;
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

/** The desktop types a number (`number` as sent: a string, or anything else for the 422s). */
export const confirm = (stack: { url: string }, handle: string, number: unknown): Promise<Response> =>
  fetch(`${stack.url}/handoffs/${handle}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ number }),
  });

/** A 6-digit number other than `right`. */
const wrongFor = (right: string, n = 1): string => String((Number(right) + n) % 1_000_000).padStart(6, '0');

/** The phone's upload to a fresh hand-off: the hand-off and what the phone was told. */
async function uploaded(stack: Stack): Promise<{ started: Started; phone: PhoneAnswer }> {
  const started = await startHandoff(stack);
  const upload = await phoneUpload(stack, started.code);
  assert.equal(upload.status, 201, await upload.clone().text());
  return { started, phone: (await upload.json()) as PhoneAnswer };
}

for (const kind of STORE_KINDS) {
  describe(`hand-off from desktop to phone (${kind})`, () => {
    let stack: Stack;
    before(async () => {
      // Room for every write these tests make in one minute (the limit itself is tested below).
      stack = await stackOn(kind, { proxy: { limits: { ratePerMinute: 300 } } });
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
      const phone = (await upload.json()) as PhoneAnswer;
      assert.equal(phone.handoff, 'confirming');
      assert.match(phone.confirmation, /^[0-9]{6}$/);

      // Until the number is typed on the desktop, nothing it reads holds the photo or the number.
      await until(() => events.some((e) => (JSON.parse(e.data) as HandoffBody).status === 'confirming'));
      const confirming = await (await fetch(`${stack.url}/handoffs/${started.handoff}`)).text();
      assert.equal((JSON.parse(confirming) as HandoffBody).status, 'confirming');
      assert.equal((JSON.parse(confirming) as HandoffBody).triesLeft, 5);
      for (const text of [confirming, ...events.map((e) => e.data)]) {
        assert.ok(!text.includes(phone.photo) && !text.includes('v1.photo.'), text);
        assert.ok(!text.includes(phone.confirmation), text);
      }

      // A slip of the finger takes one try; the right number (typed with a space) gives the photo.
      const slip = await confirm(stack, started.handoff, wrongFor(phone.confirmation));
      assert.equal(slip.status, 422);
      const slipBody = (await slip.json()) as { error: { code: string; triesLeft: number } };
      assert.equal(slipBody.error.code, 'handoff_wrong_number');
      assert.equal(slipBody.error.triesLeft, 4);
      assert.ok(!JSON.stringify(slipBody).includes(phone.photo));
      const right = await confirm(
        stack,
        started.handoff,
        `${phone.confirmation.slice(0, 3)} ${phone.confirmation.slice(3)}`,
      );
      assert.equal(right.status, 200, await right.clone().text());
      assert.equal(((await right.json()) as HandoffBody).photo, phone.photo);
      await watching;
      assert.deepEqual(
        events.map((e) => [e.event, (JSON.parse(e.data) as HandoffBody).status]),
        [
          ['handoff', 'waiting'],
          ['handoff', 'confirming'],
          ['handoff', 'received'],
        ],
      );
      const received = await read(stack, started.handoff);
      assert.equal(received.status, 'received');
      assert.equal(received.photo, phone.photo);
      assert.match(received.photo!, /^v1\.photo\./);
      assert.ok(
        !stack.logs.some((entry) => JSON.stringify(entry).includes(phone.confirmation)),
        'the number is never logged',
      );

      const tryon = await startTryon(stack, { product: 'dress-aline-indigo', photo: received.photo });
      assert.equal(tryon.status, 202, await tryon.clone().text());
      await waitForStatus(stack, ((await tryon.json()) as TryonAnswer).tryon, (s) => s.status === 'succeeded');
      const line = stack.logs.filter((entry) => entry.event === 'consent').at(-1)!;
      assert.equal(line.source, 'handoff');
      assert.equal(line.consentVersion, CONSENT_VERSION);
      assert.equal(line.consentLanguage, 'hi');
    });

    it('a desktop that does not know the phone’s number never gets the photo: wrong numbers end the hand-off', async () => {
      const { started, phone } = await uploaded(stack);
      const answers: string[] = [];
      for (let n = 1; n <= 5; n++) {
        const guess = await confirm(stack, started.handoff, wrongFor(phone.confirmation, n));
        answers.push(`${guess.status} ${await guess.text()}`);
      }
      assert.deepEqual(
        answers.map((a) => a.split(' ')[0]),
        ['422', '422', '422', '422', '410'],
      );
      assert.deepEqual(
        answers.slice(0, 4).map((a) => (JSON.parse(a.slice(4)) as { error: { triesLeft: number } }).error.triesLeft),
        [4, 3, 2, 1],
      );
      assert.equal((JSON.parse(answers[4]!.slice(4)) as { error: { code: string } }).error.code, 'handoff_tries_used');
      // Not even the right number helps now, and every read says the hand-off ended, without the photo.
      const late = await confirm(stack, started.handoff, phone.confirmation);
      assert.equal(late.status, 410);
      assert.equal(await codeOf(late), 'handoff_tries_used');
      const ended = await (await fetch(`${stack.url}/handoffs/${started.handoff}`)).text();
      assert.equal((JSON.parse(ended) as HandoffBody).status, 'expired');
      const streamed = await readEvents(`${stack.url}/handoffs/${started.handoff}/events`);
      assert.deepEqual(
        streamed.map((e) => (JSON.parse(e.data) as HandoffBody).status),
        ['expired'],
      );
      for (const text of [ended, ...answers, ...streamed.map((e) => e.data)])
        assert.ok(!text.includes(phone.photo) && !text.includes('v1.photo.'), text);
    });

    it('confirming answers clear errors: waiting 409, already confirmed 409, a malformed number 422 without taking a try', async () => {
      const started = await startHandoff(stack);
      const early = await confirm(stack, started.handoff, '123456');
      assert.equal(early.status, 409);
      assert.equal(await codeOf(early), 'handoff_waiting');
      assert.equal((await read(stack, started.handoff)).status, 'waiting');
      assert.equal((await phoneUpload(stack, started.code)).status, 201, 'a guess before the upload took nothing');

      const handle = started.handoff;
      for (const bad of ['12345', '1234567', 'abcdef', 123456, null]) {
        const refused = await confirm(stack, handle, bad);
        assert.equal(refused.status, 422, String(bad));
        assert.equal(await codeOf(refused), 'validation_failed');
      }
      const notJson = await fetch(`${stack.url}/handoffs/${handle}/confirm`, { method: 'POST', body: 'number=1' });
      assert.equal(notJson.status, 400);
      assert.equal((await read(stack, handle)).triesLeft, 5, 'none of those was a guess');
      const madeUp = await confirm(stack, 'v1.handoff.AAAA.BBBB', '123456');
      assert.equal(madeUp.status, 404);
      assert.equal(await codeOf(madeUp), 'invalid_handle');

      const { started: done, phone } = await uploaded(stack);
      assert.equal((await confirm(stack, done.handoff, phone.confirmation)).status, 200);
      const again = await confirm(stack, done.handoff, phone.confirmation);
      assert.equal(again.status, 409);
      assert.equal(await codeOf(again), 'handoff_confirmed');
      const wrongAfter = await confirm(stack, done.handoff, wrongFor(phone.confirmation));
      assert.equal(await codeOf(wrongAfter), 'handoff_confirmed');
      assert.equal((await read(stack, done.handoff)).photo, phone.photo, 'a later guess takes nothing back');
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

describe('hand-off codes expire after 10 minutes, numbers 5 minutes after the photo came', () => {
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
    const confirmLate = await confirm(stack, started.handoff, '123456');
    assert.equal(confirmLate.status, 410);
    assert.equal(await codeOf(confirmLate), 'handoff_expired');
  });

  it('a number typed after its 5 minutes is 410 handoff_expired, and the desktop reads "expired" with no photo', async () => {
    const started = await startHandoff(stack);
    const upload = await phoneUpload(stack, started.code);
    const phone = (await upload.json()) as PhoneAnswer;
    const confirming = await read(stack, started.handoff);
    assert.equal(confirming.status, 'confirming');
    assert.equal(Date.parse(confirming.expiresAt), clock + 5 * 60_000, 'the number’s end, not the code’s');
    clock += 5 * 60_000;
    const late = await confirm(stack, started.handoff, phone.confirmation);
    assert.equal(late.status, 410);
    assert.equal(await codeOf(late), 'handoff_expired');
    const ended = await read(stack, started.handoff);
    assert.equal(ended.status, 'expired');
    assert.equal(ended.photo, undefined);
  });
});

for (const kind of STORE_KINDS) {
  describe(`parallel wrong numbers never get more tries than allowed (${kind})`, () => {
    it('twelve guesses at once over HTTP (on two instances when shared): four wrong, the rest refused, no photo', async (t) => {
      const [storeA, storeB] = kind === 'memory' ? [undefined, undefined] : await sharedStores(kind, 2);
      const a = await useStack(t, { proxy: storeA ? { store: storeA } : {} });
      const b = storeB ? await useStack(t, { proxy: { store: storeB, baseUrl: a.sandboxUrl } }) : a;
      const { started, phone } = await uploaded(a);
      const guesses = await Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          confirm(n % 2 ? b : a, started.handoff, wrongFor(phone.confirmation, n + 1)).then(async (r) => ({
            status: r.status,
            text: await r.text(),
          })),
        ),
      );
      const wrong = guesses.filter((g) => g.status === 422);
      assert.equal(wrong.length, 4, JSON.stringify(guesses));
      assert.deepEqual(
        wrong.map((g) => (JSON.parse(g.text) as { error: { triesLeft: number } }).error.triesLeft).sort(),
        [1, 2, 3, 4],
      );
      assert.deepEqual(
        guesses
          .filter((g) => g.status !== 422)
          .map((g) => [g.status, (JSON.parse(g.text) as { error: { code: string } }).error.code]),
        Array.from({ length: 8 }, () => [410, 'handoff_tries_used']),
      );
      const right = await confirm(b, started.handoff, phone.confirmation);
      assert.equal(await codeOf(right), 'handoff_tries_used');
      for (const stack of [a, b]) {
        const state = await read(stack, started.handoff);
        assert.equal(state.status, 'expired');
        assert.equal(state.photo, undefined);
      }
    });

    it('the store itself: forty guesses at once take exactly the tries allowed', async () => {
      const stores = kind === 'memory' ? [new MemoryStore()] : await sharedStores(kind, 3);
      const [first] = stores as [ProxyStore];
      const now = Date.now();
      await first.createHandoff({ id: `h_${now}`, code: 'ABCDEFGHJK', product: 'p', expiresAt: now + 60_000 }, 60_000);
      const pairing = { confirmation: '314159', triesLeft: 5, confirmBy: now + 60_000 };
      assert.equal(await first.receiveHandoff('ABCDEFGHJK', 'v1.photo.x', pairing, now), 'received');
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, n) =>
          stores[n % stores.length]!.confirmHandoff(`h_${now}`, `00000${n % 10}`, now),
        ),
      );
      const wrong = outcomes.filter((o) => o.outcome === 'wrong');
      assert.equal(wrong.length, 4);
      assert.equal(outcomes.filter((o) => o.outcome === 'locked').length, 36);
      assert.equal((await first.confirmHandoff(`h_${now}`, '314159', now)).outcome, 'locked');
      const record = await first.readHandoff(`h_${now}`);
      assert.equal(record?.triesLeft, 0);
      assert.notEqual(record?.confirmed, true);
    });
  });
}

describe('confirming is a write', () => {
  it('is held to the write rate limit: 429 with Retry-After, and a refused request takes no try', async (t) => {
    const stack = await useStack(t, { proxy: { limits: { ratePerMinute: 4 } } });
    const { started, phone } = await uploaded(stack);
    assert.equal((await confirm(stack, started.handoff, wrongFor(phone.confirmation))).status, 422);
    assert.equal((await confirm(stack, started.handoff, wrongFor(phone.confirmation, 2))).status, 422);
    const limited = await confirm(stack, started.handoff, wrongFor(phone.confirmation, 3));
    assert.equal(limited.status, 429);
    assert.equal(await codeOf(limited), 'rate_limited');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal((await read(stack, started.handoff)).triesLeft, 3);
  });
});

for (const kind of SHARED_STORE_KINDS) {
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
      const { photo, confirmation: number } = (await winner.json()) as PhoneAnswer;
      // Neither instance tells the desktop the photo before its number is typed; then both do.
      assert.equal((await read(b, started.handoff)).photo, undefined);
      assert.equal((await confirm(b, started.handoff, number)).status, 200);
      assert.equal((await read(b, started.handoff)).photo, photo);
      assert.equal((await read(a, started.handoff)).photo, photo);
    });
  });
}
