// A small fake of the token proxy's public API (docs/proxy.md) for the widget's browser
// tests, served by web-test-runner's dev server. Each test gets its own scenario under
// `/fake/<sid>/tryon` and drives it through `/fake-control/<sid>`:
//   POST /fake-control/<sid>          scenario JSON (see `defaults` below)
//   GET  /fake-control/<sid>/log      every request this scenario saw (method, path, JSON body, upload facts;
//                                     `held` when it waited at a hold, `closedByClient` when the page gave it up)
//   POST /fake-control/<sid>/release  lets one `{hold: true}` step (or a held upload) go on
//   GET  /fake-control/<sid>/photo    the bytes of the last photo uploaded, exactly as the widget sent them
//   POST /fake-control/<sid>/outage   ends an outage (`outageAfterPreview`): the proxy answers again
// Renders are scripted steps: each poll (or each SSE event) moves one step on; a hold waits.

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const defaults = {
  product: {
    product: 'saree-red',
    views: ['front'],
    video: false,
    tier: 'standard',
    name: 'Red Banarasi saree',
    retention: { photoSeconds: 3600, resultSeconds: 86400, shareLinkSeconds: 86400 },
  },
  // Errors served, one per request, before the route answers normally.
  photoErrors: [],
  tryonErrors: [],
  forgetErrors: [],
  statusErrors: [],
  sse: true,
  sseDelayMs: 20,
  photoHold: false,
  // Every GET /products/… waits for the first release (later ones answer at once): a shopper
  // quicker than the proxy's answer.
  productHold: false,
  // How long an uploaded photo's handle stays valid (its `expiresAt`).
  photoExpiresInMs: 3600_000,
  // With polling, a poll reaching a `{hold: true}` step waits for the release instead of answering.
  holdPolls: false,
  steps: [{ status: 'queued' }, { status: 'processing' }, { status: 'succeeded', outputs: ['front'] }],
  // The steps of the first try-on only (null: `steps`); every later one takes `steps` (a retry that works).
  firstSteps: null,
  // The HTTP status GET /files/… answers (an expired or revoked file: 404).
  fileStatus: 200,
  // File names answered 404 whatever fileStatus says (e.g. 'preview-front.png'): one picture that does not load.
  brokenFiles: [],
  // From the first poll that carries a succeeded first look, every request answers a gateway's 502
  // page (a stopped proxy behind nginx) until POST /outage: the first look's picture fails with it.
  outageAfterPreview: false,
  // How many GET /files/… are served before fileStatus applies (null: from the first); served ones
  // are no-store (and Vary: *), so a later request of the same file is asked again rather than taken from a cache.
  fileFailsAfter: null,
  videoSteps: [{ status: 'processing' }, { status: 'succeeded', video: true }],
  // A colour preview's steps (POST /tryons with quality "preview"); its files are `draft-<variant>-front.png`.
  colourSteps: [{ status: 'processing' }, { status: 'succeeded', outputs: ['front'] }],
  // A hand-off (POST /handoffs): its phone's photo comes after this many reads of GET /handoffs/{h}
  // (no stream: the widget polls); then it is "confirming" until POST /handoffs/{h}/confirm carries
  // handoffNumber (each wrong number takes one of handoffTries; none left ends it). Only the first
  // handoffsAnswered hand-offs ever hear from a phone; later ones stay waiting.
  handoffReadsUntilReceived: 2,
  handoffsAnswered: Infinity,
  // With handoffHold, no phone answers until the first release (then after the reads above).
  handoffHold: false,
  handoffNumber: '123456',
  handoffTries: 5,
  // "Complete the look": a piece over a try-on (POST /tryons with `over`) takes these steps (its files
  // are `<piece>-<variant>-front.png`, its first look's `preview-<piece>-<variant>-front.png`); at most
  // outfitMax pieces in one outfit, the first try-on included, as the real proxy's default.
  pieceSteps: [
    { status: 'processing', preview: 'succeeded' },
    { status: 'succeeded', outputs: ['front'] },
  ],
  outfitMax: 3,
  // Errors served, one per piece (POST /tryons with `over`), before the fake judges it itself.
  pieceErrors: [],
};

const scenarios = new Map();

function scenario(sid) {
  let found = scenarios.get(sid);
  if (!found) {
    found = {
      config: { ...defaults },
      log: [],
      tryons: new Map(),
      releases: 0,
      holdsPassed: 0,
      waiters: [],
      photos: 0,
    };
    scenarios.set(sid, found);
  }
  return found;
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function json(ctx, status, body, headers = {}) {
  ctx.status = status;
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
  ctx.set('cache-control', 'no-store');
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(body);
}

function fail(ctx, error) {
  const status = error.status ?? 503;
  const headers = error.retryAfter ? { 'retry-after': String(error.retryAfter) } : {};
  if (error.destroy) {
    // A dropped connection: the browser sees a network error, as when the shopper goes offline.
    // An answer no engine accepts (two different Content-Lengths, which Chromium and Firefox
    // refuse; a NUL in a header, which WebKit's libsoup refuses), then the connection drops: a
    // network error in the page. (A bare drop is not enough: Chrome silently re-sends a request
    // whose reused connection closed; nor are bytes that are not HTTP: Firefox reads them as an
    // HTTP/0.9 answer, 200 OK.)
    ctx.respond = false;
    ctx.req.socket.end('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\nX-Dropped: \x00\r\n\r\n');
    return;
  }
  if (error.refused) {
    // Sent on to a port where nothing listens: the connection is refused, a network error in every
    // engine (Firefox reads the bytes of `destroy` as an HTTP/0.9 answer), as when a proxy is down.
    ctx.status = 307;
    ctx.set('location', 'http://127.0.0.1:9/refused');
    ctx.body = '';
    return;
  }
  if (error.raw) {
    ctx.status = status;
    ctx.body = error.raw;
    return;
  }
  json(
    ctx,
    status,
    { error: { code: error.code, message: error.message ?? error.code, retryable: error.retryable ?? status >= 500 } },
    headers,
  );
}

/** Waits for the next release of a hold; resolves false if the client went away first. */
function waitRelease(state, req) {
  return new Promise((resolve) => {
    if (state.releases > state.holdsPassed) {
      state.holdsPassed += 1;
      resolve(true);
      return;
    }
    const waiter = () => {
      state.holdsPassed += 1;
      resolve(true);
    };
    state.waiters.push(waiter);
    req?.on('close', () => {
      const at = state.waiters.indexOf(waiter);
      if (at >= 0) {
        state.waiters.splice(at, 1);
        resolve(false);
      }
    });
  });
}

function answerOf(sid, step, tryon) {
  const base = `/fake/${sid}/tryon/files`;
  // A variant's files carry its id, so a test can tell which colour it is shown.
  const prefix = tryon?.variant ? `${tryon.variant}-` : '';
  // A step's `url` stands in for every output's URL, as a hostile endpoint would answer; `{file}` in it is the file's own path.
  const url = (file) => (step.url === undefined ? file : step.url.replaceAll('{file}', file));
  const outputs = (step.outputs ?? []).map((view) => ({
    view,
    url: url(`${base}/${prefix}${view}.png`),
    type: 'image',
    contentType: 'image/png',
  }));
  if (step.video)
    outputs.push({ view: 'front', url: url(`${base}/video.mp4`), type: 'video', contentType: 'video/mp4' });
  const answer = { status: step.status, outputs };
  if (step.error) answer.error = step.error;
  // The proxy's check against the product, as the step gives it (docs/proxy.md).
  if (step.fidelity) answer.fidelity = step.fidelity;
  if (tryon?.pieces) answer.pieces = tryon.pieces;
  // A step's `preview` is the first look's status beside the full render's; succeeded carries its front image.
  if (step.preview) {
    answer.preview = {
      status: step.preview,
      outputs:
        step.preview === 'succeeded'
          ? [{ view: 'front', url: url(`${base}/preview-${prefix}front.png`), type: 'image', contentType: 'image/png' }]
          : [],
    };
  }
  return answer;
}

/** The answer a poll gets now: moves one step on, waiting at a hold until it is released. */
function pollStep(state, tryon) {
  const steps = tryon.steps;
  let step = steps[Math.min(tryon.cursor, steps.length - 1)];
  if (step.hold) {
    if (state.releases > state.holdsPassed) {
      state.holdsPassed += 1;
      tryon.cursor += 1;
      step = steps[Math.min(tryon.cursor, steps.length - 1)];
    } else {
      return tryon.last ?? { status: 'queued' };
    }
  }
  if (tryon.cursor < steps.length - 1) tryon.cursor += 1;
  tryon.last = step;
  return step;
}

async function stream(ctx, sid, state, tryon, entry) {
  ctx.respond = false;
  const res = ctx.res;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  res.flushHeaders?.();
  let open = true;
  ctx.req.on('close', () => {
    open = false;
  });
  while (open && tryon.cursor < tryon.steps.length) {
    const step = tryon.steps[tryon.cursor];
    if (step.hold) {
      entry.held = true;
      if (!(await waitRelease(state, ctx.req))) {
        entry.closedByClient = true;
        return;
      }
      tryon.cursor += 1;
      continue;
    }
    tryon.last = step;
    res.write(`event: status\ndata: ${JSON.stringify(answerOf(sid, step, tryon))}\n\n`);
    tryon.cursor += 1;
    if (step.status === 'succeeded' || step.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, state.config.sseDelayMs));
  }
  if (open) res.end();
}

async function control(ctx, sid, rest) {
  const state = scenario(sid);
  if (ctx.method === 'POST' && rest === '') {
    const body = JSON.parse((await readBody(ctx.req)).toString('utf8') || '{}');
    state.config = { ...defaults, ...body };
    state.log = [];
    state.tryons = new Map();
    state.releases = 0;
    state.holdsPassed = 0;
    state.productReleased = false;
    state.productWaiters = [];
    state.handoffReleased = false;
    state.outage = undefined;
    return json(ctx, 200, { ok: true });
  }
  if (ctx.method === 'GET' && rest === '/log') return json(ctx, 200, state.log);
  if (ctx.method === 'GET' && rest === '/photo') {
    if (!state.lastPhoto)
      return json(ctx, 404, { error: { code: 'not_found', message: 'No photo uploaded yet.', retryable: false } });
    ctx.status = 200;
    ctx.type = 'application/octet-stream';
    ctx.body = state.lastPhoto;
    return;
  }
  if (ctx.method === 'POST' && rest === '/outage') {
    state.outage = false;
    return json(ctx, 200, { ok: true });
  }
  if (ctx.method === 'POST' && rest === '/release') {
    if (state.config.productHold && !state.productReleased) {
      state.productReleased = true;
      for (const answer of state.productWaiters.splice(0)) answer();
      return json(ctx, 200, { releases: state.releases });
    }
    if (state.config.handoffHold && !state.handoffReleased) {
      state.handoffReleased = true;
      return json(ctx, 200, { releases: state.releases });
    }
    state.releases += 1;
    const waiter = state.waiters.shift();
    waiter?.();
    return json(ctx, 200, { releases: state.releases });
  }
  return json(ctx, 404, { error: { code: 'not_found', message: 'No such control route.', retryable: false } });
}

async function proxy(ctx, sid, path) {
  const state = scenario(sid);
  const config = state.config;
  const entry = { method: ctx.method, path, at: Date.now() };
  state.log.push(entry);
  if (state.outage) {
    entry.outage = true;
    return fail(ctx, { status: 502, code: '', raw: '<html><body><h1>502 Bad Gateway</h1></body></html>' });
  }

  let match;
  if (ctx.method === 'GET' && (match = /^\/products\/([^/]+)$/.exec(path))) {
    if (!config.product) return fail(ctx, { status: 404, code: 'unknown_product', retryable: false });
    if (config.productHold && !state.productReleased)
      await new Promise((resolve) => state.productWaiters.push(resolve));
    return json(ctx, 200, { ...config.product, product: decodeURIComponent(match[1]) });
  }

  // "See it on a model": the model's picture, a drawn person.
  if (ctx.method === 'GET' && /^\/products\/[^/]+\/models\/[^/]+$/.test(path)) {
    ctx.status = 200;
    ctx.set('content-type', 'image/svg+xml');
    ctx.body =
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="160"><rect width="120" height="160" fill="#e9c9a1"/><circle cx="60" cy="40" r="20" fill="#8d5524"/><rect x="35" y="64" width="50" height="80" fill="#355070"/></svg>';
    return;
  }

  // The hand-off: a code at once; received after a few reads (the widget polls: no stream here).
  if (ctx.method === 'POST' && path === '/handoffs') {
    entry.body = JSON.parse((await readBody(ctx.req)).toString('utf8') || '{}');
    state.handoffReads = 0;
    state.handoffs = (state.handoffs ?? 0) + 1;
    state.handoffConfirmed = false;
    state.handoffTriesLeft = config.handoffTries;
    return json(ctx, 201, {
      handoff: `ho_${sid}`,
      code: 'ABCDEFGHJK',
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
    });
  }
  const handoffState = () => {
    const came =
      state.handoffs <= (config.handoffsAnswered ?? Infinity) &&
      (!config.handoffHold || state.handoffReleased) &&
      state.handoffReads > config.handoffReadsUntilReceived;
    const status = state.handoffConfirmed
      ? 'received'
      : !came
        ? 'waiting'
        : state.handoffTriesLeft > 0
          ? 'confirming'
          : 'expired';
    return {
      status,
      ...(status === 'received' ? { photo: `ph_${sid}_phone` } : {}),
      ...(status === 'confirming' ? { triesLeft: state.handoffTriesLeft } : {}),
      expiresAt: new Date(Date.now() + (came ? 300_000 : 600_000)).toISOString(),
    };
  };
  if (ctx.method === 'GET' && (match = /^\/handoffs\/([^/]+)(\/events)?$/.exec(path))) {
    if (match[2]) return fail(ctx, { status: 404, code: 'not_found', retryable: false });
    state.handoffReads = (state.handoffReads ?? 0) + 1;
    return json(ctx, 200, handoffState());
  }
  if (ctx.method === 'POST' && /^\/handoffs\/[^/]+\/confirm$/.test(path)) {
    entry.body = JSON.parse((await readBody(ctx.req)).toString('utf8') || '{}');
    const now = handoffState().status;
    if (now === 'waiting') return fail(ctx, { status: 409, code: 'handoff_waiting', retryable: false });
    if (now === 'expired') return fail(ctx, { status: 410, code: 'handoff_tries_used', retryable: false });
    if (entry.body.number === config.handoffNumber) {
      state.handoffConfirmed = true;
      return json(ctx, 200, handoffState());
    }
    state.handoffTriesLeft -= 1;
    if (state.handoffTriesLeft <= 0) return fail(ctx, { status: 410, code: 'handoff_tries_used', retryable: false });
    return json(ctx, 422, {
      error: {
        code: 'handoff_wrong_number',
        message: 'That is not the number.',
        retryable: false,
        triesLeft: state.handoffTriesLeft,
      },
    });
  }

  if (ctx.method === 'POST' && path === '/photos') {
    const body = await readBody(ctx.req);
    const type = String(ctx.get('content-type'));
    const partType = /content-type:\s*([^\r\n]+)/i.exec(body.subarray(0, 1024).toString('latin1'))?.[1];
    const start = body.indexOf('\r\n\r\n') + 4;
    const payload = body.subarray(start);
    // The part's bytes end where the closing delimiter ("\r\n--boundary--") begins.
    state.lastPhoto = payload.subarray(0, payload.lastIndexOf(Buffer.from('\r\n--', 'latin1')));
    entry.upload = {
      multipart: type.startsWith('multipart/form-data'),
      field: /name="([^"]+)"/.exec(body.subarray(0, 512).toString('latin1'))?.[1],
      partType,
      bytes: body.length,
      jpeg: payload[0] === 0xff && payload[1] === 0xd8,
      exif: payload.includes(Buffer.from('Exif\0\0', 'latin1')),
    };
    if (config.photoHold && !(await waitRelease(state, ctx.req))) return;
    const error = config.photoErrors.shift();
    if (error) return fail(ctx, error);
    state.photos += 1;
    // A phone's upload for a hand-off (its fields come before the photo): the number to type on the computer.
    const handoff = body.subarray(0, 2048).toString('latin1').includes('name="handoff"');
    return json(ctx, 201, {
      photo: `ph_${sid}_${state.photos}`,
      expiresAt: new Date(Date.now() + config.photoExpiresInMs).toISOString(),
      ...(handoff ? { handoff: 'confirming', confirmation: config.handoffNumber } : {}),
    });
  }

  if (ctx.method === 'DELETE' && (match = /^\/photos\/([^/]+)$/.exec(path))) {
    const error = config.forgetErrors.shift();
    if (error) return fail(ctx, error);
    // Like the real proxy: the photo's try-ons answer 404 from now on.
    const photo = decodeURIComponent(match[1]);
    for (const tryon of state.tryons.values()) if (tryon.key.startsWith(`${photo}|`)) tryon.forgotten = true;
    ctx.status = 204;
    ctx.body = null;
    return;
  }

  if (ctx.method === 'POST' && path === '/tryons') {
    const body = JSON.parse((await readBody(ctx.req)).toString('utf8') || '{}');
    entry.body = body;
    const error = config.tryonErrors.shift();
    if (error) return fail(ctx, error);
    if (body.over !== undefined) return overTryon(ctx, sid, state, body);
    // Like the real proxy: a model's picture is the shop's (no consent), and must be one the product lists.
    if (body.model !== undefined && !(config.product?.models ?? []).some((m) => m.id === body.model)) {
      return fail(ctx, { status: 422, code: 'unknown_model', retryable: false });
    }
    if (body.model === undefined && body.consent !== true)
      return fail(ctx, { status: 422, code: 'consent_required', retryable: false });
    // Like the real proxy: a variant the product does not list is refused.
    const listed = config.product?.variants;
    if (body.variant !== undefined && !(Array.isArray(listed) && listed.some((v) => v.id === body.variant))) {
      return fail(ctx, { status: 422, code: 'unknown_variant', retryable: false });
    }
    // Like the real proxy: the same requestId for the same photo (and variant) is the same try-on.
    const key = `${body.photo ?? `model:${body.model}`}|${body.requestId}|${body.output ?? 'image'}|${body.variant ?? ''}|${body.quality ?? ''}`;
    let tryon = [...state.tryons.values()].find((t) => t.key === key);
    const draft = body.quality === 'preview';
    if (draft && !tryon) {
      // Like the real proxy: colour previews per photo are capped by the product's colourPreviews.
      const made = [...state.tryons.values()].filter((t) => t.draft && t.photo === body.photo).length;
      if (made >= (config.colourPreviewCap ?? config.product?.colourPreviews ?? 0))
        return fail(ctx, { status: 429, code: 'colour_preview_limit', retryable: false });
    }
    if (!tryon) {
      const handle = `tr_${sid}_${state.tryons.size + 1}`;
      const first = config.firstSteps && ![...state.tryons.values()].some((t) => !t.draft);
      const steps =
        body.output === 'video'
          ? config.videoSteps
          : draft
            ? config.colourSteps
            : first
              ? config.firstSteps
              : config.steps;
      tryon = {
        key,
        handle,
        steps,
        cursor: 0,
        views: draft ? ['front'] : (body.views ?? config.product?.views ?? ['front']),
        variant: draft ? `draft-${body.variant}` : body.variant,
        draft,
        photo: body.photo,
      };
      state.tryons.set(handle, tryon);
    }
    return json(ctx, 202, { tryon: tryon.handle, status: 'queued', views: tryon.views });
  }

  // "Add the look to cart" told to the proxy: the outfit's last piece and every piece (docs/proxy.md, "The cart report").
  if (ctx.method === 'POST' && (match = /^\/tryons\/([^/]+)\/cart$/.exec(path))) {
    entry.body = JSON.parse((await readBody(ctx.req)).toString('utf8') || '{}');
    const tryon = state.tryons.get(decodeURIComponent(match[1]));
    if (!tryon?.pieces) return fail(ctx, { status: 404, code: 'invalid_handle', retryable: false });
    ctx.status = 204;
    ctx.body = null;
    return;
  }

  if (ctx.method === 'GET' && (match = /^\/tryons\/([^/]+)(\/events)?$/.exec(path))) {
    const tryon = state.tryons.get(decodeURIComponent(match[1]));
    if (!tryon || tryon.forgotten) return fail(ctx, { status: 404, code: 'invalid_handle', retryable: false });
    if (match[2]) {
      if (!config.sse) return fail(ctx, { status: 404, code: 'not_found', retryable: false });
      return stream(ctx, sid, state, tryon, entry);
    }
    const error = config.statusErrors.shift();
    if (error) return fail(ctx, error);
    if (config.holdPolls && tryon.steps[tryon.cursor]?.hold) {
      // The poll itself waits for the release, so a test can see the client give it up.
      entry.held = true;
      if (!(await waitRelease(state, ctx.res))) {
        entry.closedByClient = true;
        ctx.respond = false;
        return;
      }
      tryon.cursor += 1;
    }
    const answer = answerOf(sid, pollStep(state, tryon), tryon);
    if (config.outageAfterPreview && answer.preview?.status === 'succeeded' && state.outage === undefined)
      state.outage = true;
    return json(ctx, 200, answer);
  }

  // The exposure report of a page with a holdout (POST /exposures): taken, as the proxy takes it.
  if (ctx.method === 'POST' && path === '/exposures') {
    ctx.status = 204;
    return;
  }

  if (ctx.method === 'GET' && (match = /^\/files\/([^/]+)$/.exec(path))) {
    if (config.brokenFiles.includes(match[1])) return fail(ctx, { status: 404, code: 'not_found', retryable: false });
    const counting = config.fileFailsAfter !== null;
    const served = (state.filesServed = (state.filesServed ?? 0) + 1);
    if (config.fileStatus !== 200 && (!counting || served > config.fileFailsAfter)) {
      return fail(ctx, { status: config.fileStatus, code: 'not_found', retryable: false });
    }
    ctx.status = 200;
    ctx.set('cache-control', counting ? 'no-store' : 'private, max-age=60');
    // Chromium's memory cache reuses an image for a fetch() of its URL even when no-store; Vary: * stops that.
    if (counting) ctx.set('vary', '*');
    if (match[1].endsWith('.mp4')) {
      ctx.type = 'video/mp4';
      ctx.body = Buffer.alloc(64);
    } else {
      ctx.type = 'image/png';
      ctx.body = PNG;
    }
    return;
  }

  return fail(ctx, { status: 404, code: 'not_found', retryable: false });
}

/**
 * A piece over a finished try-on (`over`), refused as the real proxy refuses it: a handle it never
 * made (404), a base not finished (409 base_not_ready), a piece the product does not list
 * (422 not_a_pair), or one piece too many (422 outfit_too_long). The same requestId over the same
 * base is the same try-on.
 */
function overTryon(ctx, sid, state, body) {
  const config = state.config;
  const error = config.pieceErrors.shift();
  if (error) return fail(ctx, error);
  const base = state.tryons.get(body.over);
  if (!base || base.forgotten) return fail(ctx, { status: 404, code: 'invalid_handle', retryable: false });
  if (base.last?.status !== 'succeeded') return fail(ctx, { status: 409, code: 'base_not_ready', retryable: false });
  const pair = (config.product?.pairs ?? []).find((p) => p.product === body.product);
  if (!pair) return fail(ctx, { status: 422, code: 'not_a_pair', retryable: false });
  if (body.variant !== undefined && !pair.variants.some((v) => v.id === body.variant))
    return fail(ctx, { status: 422, code: 'unknown_variant', retryable: false });
  const key = `over:${body.over}|${body.requestId}|${body.product}|${body.variant ?? ''}`;
  let tryon = [...state.tryons.values()].find((t) => t.key === key);
  if (!tryon) {
    const below = base.pieces ?? [
      { product: config.product.product ?? 'saree-red', ...(base.variant ? { variant: base.variant } : {}) },
    ];
    // As the real proxy counts: the pieces of one outfit, the first try-on included.
    if (below.length >= config.outfitMax) return fail(ctx, { status: 422, code: 'outfit_too_long', retryable: false });
    const handle = `tr_${sid}_${state.tryons.size + 1}`;
    const piece = { product: body.product, ...(body.variant ? { variant: body.variant } : {}) };
    tryon = {
      key,
      handle,
      steps: config.pieceSteps,
      cursor: 0,
      views: base.views,
      variant: `${body.product}-${body.variant ?? ''}`,
      pieces: [...below, piece],
      photo: base.photo,
    };
    state.tryons.set(handle, tryon);
  }
  return json(ctx, 202, { tryon: tryon.handle, status: 'queued', views: tryon.views });
}

/** web-test-runner middleware: the fake proxy and its control routes. */
export function fakeProxyMiddleware() {
  return async function fakeProxy(ctx, next) {
    let match = /^\/fake-control\/([\w-]+)(\/.*)?$/.exec(ctx.path);
    if (match) return control(ctx, match[1], match[2] ?? '');
    match = /^\/fake\/([\w-]+)\/tryon(\/.*)$/.exec(ctx.path);
    if (match) {
      try {
        return await proxy(ctx, match[1], match[2]);
      } catch (error) {
        return json(ctx, 500, { error: { code: 'internal_error', message: String(error), retryable: false } });
      }
    }
    return next();
  };
}
