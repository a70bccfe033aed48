import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import {
  button,
  dialogOf,
  fakeProxy,
  mount,
  openAndConsent,
  panelRoot,
  pickPhoto,
  drawnPhoto,
  reach,
  recordEvents,
  statusText,
  until,
  submitTryon,
  tryOnUntil,
  HELD_AFTER_QUEUED,
  HELD_TWICE,
} from './helpers.js';
import type { FakeRequest } from './helpers.js';

describe('the try-on flow', () => {
  beforeEach(() => sessionStorage.clear());

  it('goes consent → photo → uploading → queued → rendering → result, accessible at every step', async () => {
    const fake = await fakeProxy({
      photoHold: true,
      steps: HELD_TWICE,
    });
    const el = await mount(fake);
    expect(el.status).to.equal('idle');
    expect(el.getAttribute('status')).to.equal('idle');
    await expect(el).to.be.accessible();

    await el.open();
    await reach(el, 'consent');
    expect(dialogOf(el).open).to.equal(true);
    expect(dialogOf(el).getAttribute('aria-labelledby')).to.equal('dialog-title');
    expect(panelRoot(el).getElementById('dialog-title')?.textContent).to.equal('Virtual try-on');
    await expect(el).to.be.accessible();

    panelRoot(el).querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    await reach(el, 'consent');
    button(el, 'Continue').click();
    await reach(el, 'photo');
    expect(el.getAttribute('status')).to.equal('photo');
    await expect(el).to.be.accessible();

    await pickPhoto(el, await drawnPhoto(600, 800));
    const preview = panelRoot(el).querySelector<HTMLImageElement>('img[part="preview"]')!;
    expect(preview.alt).to.equal('Your photo, ready to send');
    expect((await fake.log()).some((r) => r.path === '/photos')).to.equal(false);
    await expect(el).to.be.accessible();

    button(el, 'Try it on').click();
    await reach(el, 'uploading');
    expect(statusText(el)).to.match(/^Uploading your photo: \d+%$/);
    await expect(el).to.be.accessible();
    await fake.release();

    await reach(el, 'queued');
    await until(() => statusText(el) === 'Waiting for a free moment…', 'queued text');
    expect(panelRoot(el).querySelector('h3')!.textContent).to.equal('Putting Red Banarasi saree on you');
    expect(panelRoot(el).textContent).to.match(/\d+ seconds? so far; usually about 25 seconds/);
    await expect(el).to.be.accessible();
    await fake.release();

    await reach(el, 'rendering');
    expect(statusText(el)).to.equal('Making your try-on…');
    await expect(el).to.be.accessible();
    await fake.release();

    await reach(el, 'result');
    const image = panelRoot(el).querySelector<HTMLImageElement>('img[part="image"]')!;
    expect(image.alt).to.equal('You wearing Red Banarasi saree');
    expect(image.src).to.equal(new URL(`${fake.endpoint}/files/front.png`, location.href).href);
    for (const name of ['Download', 'Share', 'Try another photo']) expect(button(el, name)).to.exist;
    expect(statusText(el)).to.equal('Your try-on is ready.');
    await expect(el).to.be.accessible();

    // Watched over Server-Sent Events, so no polling at all.
    const watched = (await fake.log()).filter((r) => r.path.startsWith('/tryons/'));
    expect(watched.map((r) => r.path)).to.deep.equal([`/tryons/tr_${fake.endpoint.split('/')[2]}_1/events`]);

    const upload = (await fake.log()).find((r) => r.path === '/photos')!.upload!;
    expect(upload.multipart).to.equal(true);
    expect(upload.field).to.equal('photo');
    expect(upload.partType).to.equal('image/jpeg');
    expect(upload.jpeg).to.equal(true);
  });

  it('uploads nothing before consent, and the consent step links the privacy page', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake, { 'privacy-url': 'https://shop.example/privacy' });
    await el.open();
    await reach(el, 'consent');
    const link = panelRoot(el).querySelector<HTMLAnchorElement>('a[href="https://shop.example/privacy"]');
    expect(link?.textContent).to.equal('How we handle your photo');
    el.privacyUrl = 'javascript:alert(1)';
    const rendered = el.shadowRoot!.querySelector('tryon-panel') as unknown as HTMLElement & {
      requestUpdate(): void;
      updateComplete: Promise<unknown>;
    };
    rendered.requestUpdate();
    await rendered.updateComplete;
    expect(panelRoot(el).querySelector('a')).to.equal(null);
    const checkbox = panelRoot(el).querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    expect(checkbox.closest('label')?.textContent?.trim()).to.equal('I agree to upload my photo for this try-on');
    expect(button(el, 'Continue').disabled).to.equal(true);
    button(el, 'Continue').click();
    await el.updateComplete;
    expect(el.status).to.equal('consent');
    // Even a file dropped before consent is ignored.
    const panel = el.shadowRoot!.querySelector('tryon-panel') as unknown as { choose(file: Blob): Promise<void> };
    await panel.choose(await drawnPhoto(400, 400));
    const log = await fake.log();
    // Only the product was asked for (by the button's availability check, then by the dialog's own): nothing uploaded.
    expect([...new Set(log.map((r) => `${r.method} ${r.path}`))]).to.deep.equal(['GET /products/saree-red']);
  });

  it('dispatches every event with its typed detail, bubbling and composed', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    const seen = recordEvents(document.body);
    await tryOnUntil(el);
    await until(() => seen.some((e) => e.type === 'tryon-result'), 'tryon-result');
    el.close();
    await until(() => seen.some((e) => e.type === 'tryon-close'), 'tryon-close');

    const types = seen.map((e) => e.type);
    expect(types[0]).to.equal('tryon-open');
    expect(types.indexOf('tryon-submit')).to.be.greaterThan(0);
    expect(types.indexOf('tryon-result')).to.be.greaterThan(types.indexOf('tryon-submit'));
    expect(types.at(-1)).to.equal('tryon-close');
    expect(seen[0]!.detail).to.deep.equal({ product: 'saree-red' });

    const submit = seen.find((e) => e.type === 'tryon-submit')!.detail;
    expect(submit.product).to.equal('saree-red');
    expect(submit.requestId).to.match(/^[0-9a-f-]{36}$/);
    expect(submit.views).to.deep.equal(['front']);
    expect(submit.output).to.equal('image');

    const progress = seen.filter((e) => e.type === 'tryon-progress').map((e) => e.detail);
    expect(progress[0]).to.deep.include({ product: 'saree-red', status: 'uploading' });
    expect(progress[0]!.percent).to.be.within(0, 100);
    expect(types.indexOf('tryon-progress')).to.be.below(types.indexOf('tryon-submit'));
    expect(
      progress.some((p) => p.status === 'queued' && p.expectedMs === 25000 && typeof p.tryon === 'string'),
    ).to.equal(true);
    expect(progress.some((p) => p.status === 'rendering' && typeof p.elapsedMs === 'number')).to.equal(true);

    const result = seen.find((e) => e.type === 'tryon-result')!.detail;
    expect(result.requestId).to.equal(submit.requestId);
    expect(result.outputs).to.deep.equal([
      {
        view: 'front',
        type: 'image',
        contentType: 'image/png',
        url: new URL(`${fake.endpoint}/files/front.png`, location.href).href,
      },
    ]);
    expect(seen.at(-1)!.detail).to.deep.equal({ product: 'saree-red', status: 'result' });

    const body = (await fake.log()).find((r) => r.path === '/tryons')!.body!;
    // The consent text's version is checked word for word in privacy.test.ts.
    expect(body.consentVersion).to.match(/^[0-9a-f]{16}$/);
    expect(body).to.deep.equal({
      product: 'saree-red',
      photo: body.photo,
      requestId: submit.requestId,
      views: ['front'],
      consent: true,
      consentVersion: body.consentVersion,
      consentLanguage: 'en',
    });
  });

  for (const sse of [true, false]) {
    it(`cancel goes back to the photo step and stops watching (${sse ? 'Server-Sent Events' : 'polling'})`, async () => {
      const fake = await fakeProxy({
        sse,
        holdPolls: true,
        steps: HELD_AFTER_QUEUED,
      });
      const el = await mount(fake);
      const events = recordEvents(el);
      await submitTryon(el);
      const watching = (r: FakeRequest) => r.method === 'GET' && r.path.startsWith('/tryons/');
      // The page is waiting on the proxy (a stream, or a poll) held open at the hold.
      const heldAt =
        (await until(
          async () => 1 + (await fake.log()).findIndex((r) => watching(r) && r.held),
          'a held status request',
        )) - 1;
      await reach(el, 'queued');
      button(el, 'Cancel').click();
      await reach(el, 'photo');
      const cancelledAt = Date.now();
      // The page gives up the request it was waiting on: a cancel that kept watching never would.
      await until(async () => (await fake.log())[heldAt]?.closedByClient, 'the held request to be closed by the page');
      await fake.release();
      const log = await fake.log();
      expect(log.filter((r) => watching(r) && r.at >= cancelledAt)).to.deep.equal([]);
      // Nothing brings the cancelled try-on back.
      expect(events.some((e) => e.type === 'tryon-result')).to.equal(false);
      expect(el.status).to.equal('photo');
      expect(button(el, 'Choose a photo')).to.exist;
    });
  }

  it('a product changed while the dialog is open starts over at the photo step, reflected in status and focus', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    await tryOnUntil(el);
    el.product = 'saree-blue';
    await el.open();
    await reach(el, 'photo');
    expect(el.getAttribute('status')).to.equal('photo');
    // The photo already chosen stays ready to send for the new product.
    await until(() => panelRoot(el).activeElement === button(el, 'Try it on'), 'focus on Try it on');
    await until(
      async () => (await fake.log()).some((r) => r.path === '/products/saree-blue'),
      'the new product to be asked for',
    );
  });

  it('"Try another photo" starts a new logical try-on with a new requestId, and "Use my last photo" skips the upload', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    await tryOnUntil(el);
    button(el, 'Try another photo').click();
    await reach(el, 'photo');
    button(el, 'Use my last photo').click();
    await reach(el, 'result');
    const log = await fake.log();
    expect(log.filter((r) => r.path === '/photos')).to.have.length(1);
    const tryons = log.filter((r) => r.path === '/tryons').map((r) => r.body!);
    expect(tryons).to.have.length(2);
    expect(tryons[1]!.photo).to.equal(tryons[0]!.photo);
    expect(tryons[1]!.requestId).to.not.equal(tryons[0]!.requestId);
  });

  it('closing returns focus to the button and reopening shows the result again', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    await tryOnUntil(el);
    button(el, 'Close').click();
    await reach(el, 'idle');
    expect(dialogOf(el).open).to.equal(false);
    expect(document.activeElement).to.equal(el);
    expect(el.shadowRoot!.activeElement?.getAttribute('part')).to.equal('button');
    await el.open();
    await reach(el, 'result');
    expect(panelRoot(el).querySelector('img[part="image"]')).to.exist;
  });

  it('takes a photo dropped on the drop zone, and offers the camera on phones', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    await openAndConsent(el);
    const camera = panelRoot(el).querySelector<HTMLInputElement>('#camera')!;
    expect(camera.getAttribute('capture')).to.equal('user');
    expect(camera.accept).to.equal('image/*');
    expect(button(el, 'Take a photo')).to.exist;
    const file = panelRoot(el).querySelector<HTMLInputElement>('#file')!;
    expect(file.getAttribute('aria-label')).to.equal('Your photo');

    const zone = panelRoot(el).querySelector<HTMLElement>('[part="dropzone"]')!;
    const transfer = new DataTransfer();
    transfer.items.add(await drawnPhoto(400, 500));
    const over = new DragEvent('dragover', { dataTransfer: transfer, cancelable: true, bubbles: true });
    zone.dispatchEvent(over);
    expect(over.defaultPrevented).to.equal(true);
    await until(() => zone.classList.contains('over'), 'the drop highlight');
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, cancelable: true, bubbles: true }));
    await until(() => panelRoot(el).querySelector('img[part="preview"]'), "the dropped photo's preview");
    expect(zone.classList.contains('over')).to.equal(false);
    button(el, 'Try it on').click();
    await reach(el, 'result');
    expect((await fake.log()).filter((r) => r.path === '/photos')).to.have.length(1);
  });

  it('announces progress through one polite live region', async () => {
    const fake = await fakeProxy({
      steps: HELD_AFTER_QUEUED,
    });
    const el = await mount(fake);
    await tryOnUntil(el, 'queued', { width: 400, height: 500 });
    const regions = panelRoot(el).querySelectorAll('[role="status"], [aria-live]');
    expect(regions).to.have.length(1);
    expect(dialogOf(el).contains(regions[0]!)).to.equal(true);
    expect(regions[0]!.getAttribute('aria-live') ?? 'polite').to.equal('polite');
    await fake.release();
    await reach(el, 'result');
    expect(regions[0]!.textContent!.trim()).to.equal('Your try-on is ready.');
  });

  it('makes a requestId on a page without crypto.randomUUID (plain http)', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    Object.defineProperty(crypto, 'randomUUID', { configurable: true, value: undefined });
    try {
      await tryOnUntil(el, 'result', { width: 400, height: 500 });
    } finally {
      delete (crypto as { randomUUID?: unknown }).randomUUID;
    }
    expect(typeof crypto.randomUUID).to.equal('function');
    const body = (await fake.log()).find((r) => r.path === '/tryons')!.body!;
    expect(body['requestId']).to.match(/^[0-9a-f]{32}$/);
  });

  it('starts over for a new product: its own product answer and a new requestId', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    const seen = recordEvents(el);
    await tryOnUntil(el, 'result', { width: 400, height: 500 });
    el.close();
    await reach(el, 'idle');
    el.product = 'lehenga-green';
    await el.open();
    // Consent was given in this page already; the photo step comes next.
    await reach(el, 'photo');
    button(el, 'Use my last photo').click();
    await reach(el, 'result');
    const log = await fake.log();
    // Each product asked for in turn (the button's availability check and the dialog's own, each).
    expect([
      ...new Set(log.filter((r) => r.method === 'GET' && r.path.startsWith('/products/')).map((r) => r.path)),
    ]).to.deep.equal(['/products/saree-red', '/products/lehenga-green']);
    const bodies = log.filter((r) => r.path === '/tryons').map((r) => r.body!);
    expect(bodies.map((b) => b['product'])).to.deep.equal(['saree-red', 'lehenga-green']);
    expect(bodies[1]!['requestId']).to.not.equal(bodies[0]!['requestId']);
    expect(seen.filter((e) => e.type === 'tryon-result').map((e) => e.detail.product)).to.deep.equal([
      'saree-red',
      'lehenga-green',
    ]);
  });

  it('offers the last photo only until it expires', async () => {
    const fake = await fakeProxy();
    const key = `tryon:${new URL(fake.endpoint, location.href).href}:photo`;
    sessionStorage.setItem(
      key,
      JSON.stringify({ photo: 'ph_old', expiresAt: new Date(Date.now() - 1000).toISOString() }),
    );
    const el = await mount(fake);
    await openAndConsent(el);
    expect([...panelRoot(el).querySelectorAll('button')].map((b) => b.textContent!.trim())).to.not.include(
      'Use my last photo',
    );
    expect(sessionStorage.getItem(key)).to.equal(null);
  });

  it('moves the before/after divide with the pointer too', async () => {
    const { compare, slider } = await comparisonOnResult(await mount(await fakeProxy()));
    expect(slider.getAttribute('aria-valuenow')).to.equal('50');
    // The divide travels over the image as drawn (object-fit: contain), not the blank beside it.
    const box = drawnBoxOf(compare);
    compare.dispatchEvent(
      new PointerEvent('pointerdown', {
        clientX: box.left + box.width / 4,
        clientY: box.top + 5,
        bubbles: true,
        pointerId: 1,
        buttons: 1,
      }),
    );
    await until(() => slider.getAttribute('aria-valuenow') === '25', 'the divide at 25 %');
    expect(compare.style.getPropertyValue('--pos')).to.equal('25%');
  });

  it('moves the divide with a finger: a press, then a drag, that the page does not take for a scroll', async () => {
    const { compare, slider } = await comparisonOnResult(await mount(await fakeProxy()));
    // Without it a finger's drag pans the page and the divide never sees the moves.
    expect(getComputedStyle(compare).touchAction).to.equal('none');
    // Measured at each touch: the divide travels over the image as drawn, not the blank beside it.
    const finger = (type: string, fraction: number) => {
      const box = drawnBoxOf(compare);
      compare.dispatchEvent(
        new PointerEvent(type, {
          clientX: box.left + box.width * fraction,
          clientY: box.top + box.height / 2,
          bubbles: true,
          pointerId: 7,
          pointerType: 'touch',
          isPrimary: true,
          buttons: 1,
        }),
      );
    };
    finger('pointerdown', 0.2);
    await until(() => slider.getAttribute('aria-valuenow') === '20', 'the divide at 20 % on the press');
    finger('pointermove', 0.7);
    await until(() => slider.getAttribute('aria-valuenow') === '70', 'the divide at 70 % after the drag');
    expect(compare.style.getPropertyValue('--pos')).to.equal('70%');
  });

  it('on a right-to-left page, the divide follows the finger and the arrow keys the way the page reads', async () => {
    const fake = await fakeProxy();
    const el = await mount(fake);
    document.documentElement.dir = 'rtl';
    try {
      await rightToLeft(el);
    } finally {
      document.documentElement.removeAttribute('dir');
    }
  });
});

/**
 * A whole run to the result, then its before/after comparison once the result image has decoded,
 * so the box it is drawn in is known.
 */
async function comparisonOnResult(
  el: Awaited<ReturnType<typeof mount>>,
): Promise<{ compare: HTMLElement; slider: HTMLElement }> {
  await tryOnUntil(el, 'result', { width: 400, height: 500 });
  // The try-on shows whole first: the divide is asked for with "Before and after".
  panelRoot(el).querySelector<HTMLButtonElement>('[part~="compare-toggle"]')!.click();
  const compare = await until(() => panelRoot(el).querySelector<HTMLElement>('[part="compare"]'), 'the comparison');
  const image = compare.querySelector<HTMLImageElement>('img[part="image"]')!;
  await until(() => image.complete && image.naturalWidth > 0, 'the result decoded');
  return { compare, slider: compare.querySelector<HTMLElement>('[role="slider"]')! };
}

/** Where the result image is drawn inside its box (object-fit: contain): what the divide travels over. */
function drawnBoxOf(compare: HTMLElement): { left: number; top: number; width: number; height: number } {
  const image = compare.querySelector<HTMLImageElement>('img[part="image"]')!;
  const box = image.getBoundingClientRect();
  const scale = Math.min(box.width / image.naturalWidth, box.height / image.naturalHeight);
  const width = image.naturalWidth * scale;
  return { left: box.left + (box.width - width) / 2, top: box.top, width, height: box.height };
}

/** The compare slider on a right-to-left page, by finger and by arrow keys. */
async function rightToLeft(el: Awaited<ReturnType<typeof mount>>): Promise<void> {
  const { compare, slider } = await comparisonOnResult(el);
  expect(getComputedStyle(dialogOf(el)).direction).to.equal('rtl');
  const box = drawnBoxOf(compare);
  // A finger a quarter of the way in from the left of the drawn image is three quarters of the way from the start.
  compare.dispatchEvent(
    new PointerEvent('pointerdown', {
      clientX: box.left + box.width / 4,
      clientY: box.top + 5,
      bubbles: true,
      pointerId: 3,
      pointerType: 'touch',
      buttons: 1,
    }),
  );
  await until(() => slider.getAttribute('aria-valuenow') === '75', 'the divide at 75 %');
  slider.focus();
  // Real key presses, as each engine delivers them: → goes back towards the start.
  await sendKeys({ press: 'ArrowRight' });
  await until(() => slider.getAttribute('aria-valuenow') === '70', 'the divide at 70 % after →');
  await sendKeys({ press: 'ArrowLeft' });
  await sendKeys({ press: 'ArrowLeft' });
  await until(() => slider.getAttribute('aria-valuenow') === '80', 'the divide at 80 % after ← ←');
}
