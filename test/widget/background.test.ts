// Closing the dialog while a try-on is being made: it was sent (and charged), so the page keeps
// watching it; when the result comes the button wears a ready badge, said once in a polite live
// region, and reopening shows the result. Analytics records that close as "background".
import { expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { TryonButton } from '../../widget/tryon-button.js';
import { en } from '../../widget/i18n/en.js';
import { fakeProxy, mount, panelRoot, reach, recordEvents, until, tryOnUntil, startHeldTryon } from './helpers.js';

type Params = Record<string, unknown>;
const dataLayer = () => (window as { dataLayer?: Params[] }).dataLayer ?? [];

function badgeOf(el: TryonButton): HTMLElement | null {
  return el.shadowRoot!.querySelector<HTMLElement>('[part="ready-badge"]');
}

function liveRegionOf(el: TryonButton): HTMLElement {
  // The button's own region: the dialog's is closed with it.
  const region = [...el.shadowRoot!.children].find(
    (node): node is HTMLElement => node.getAttribute('role') === 'status',
  );
  if (!region) throw new Error('The button has no live region.');
  return region;
}

/** Every text the region was given, in order, as a screen reader would be handed them. */
function recordAnnouncements(region: HTMLElement): string[] {
  const said: string[] = [];
  new MutationObserver(() => {
    const text = region.textContent?.trim() ?? '';
    if (text && text !== said.at(-1)) said.push(text);
  }).observe(region, { childList: true, characterData: true, subtree: true });
  return said;
}

function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? [])
    .slice(0, 3)
    .map(Number)
    .map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('a try-on watched after the dialog closes', () => {
  beforeEach(() => {
    sessionStorage.clear();
    delete (window as { dataLayer?: unknown }).dataLayer;
  });
  after(() => setViewport({ width: 800, height: 600 }));

  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    it(`keeps watching, shows and says the ready badge once, and reopens on the result (${viewport.width}×${viewport.height})`, async function () {
      try {
        await setViewport(viewport);
      } catch (error) {
        // WebKitGTK's MiniBrowser keeps its window at least 447 px wide: a phone's width cannot be had there.
        if (/asked for .* the page has/.test(String(error))) this.skip();
        throw error;
      }
      const fake = await fakeProxy({
        steps: [
          { status: 'queued' },
          { hold: true },
          { status: 'processing' },
          { status: 'succeeded', outputs: ['front'] },
        ],
      });
      const el = await mount(fake, { analytics: 'dataLayer' });
      const events = recordEvents(el);
      await startHeldTryon(fake, el, {
        held: (r) => r.path.endsWith('/events') && r.held === true,
        what: 'the stream to wait at the hold',
      });
      await reach(el, 'queued');

      el.close();
      await reach(el, 'idle');
      const region = liveRegionOf(el);
      const said = recordAnnouncements(region);
      const before = el.getBoundingClientRect();
      expect(badgeOf(el)).to.equal(null);
      // Still watching: the stream the page held is not given up.
      const streams = (await fake.log()).filter((r) => r.path.endsWith('/events'));
      expect(streams.map((r) => Boolean(r.closedByClient))).to.deep.equal([false]);

      await fake.release();
      await until(() => events.some((e) => e.type === 'tryon-result'), 'tryon-result while the dialog is closed');
      await until(() => badgeOf(el), 'the ready badge');
      await el.updateComplete;
      expect(el.status).to.equal('idle');
      const badge = badgeOf(el)!;
      expect(badge.textContent!.trim()).to.equal(en.readyBadge);
      // The badge describes the button; the button's name stays what it was.
      const trigger = el.shadowRoot!.querySelector<HTMLButtonElement>('button[part="button"]')!;
      expect(trigger.getAttribute('aria-describedby')).to.equal('ready-badge');
      expect(el.shadowRoot!.getElementById('ready-badge')).to.equal(badge);
      expect(badge.getAttribute('aria-hidden')).to.equal('true');
      await until(() => said.length > 0, 'the announcement');
      expect(said).to.deep.equal([en.readyInBackground.replace('{product}', 'Red Banarasi saree')]);
      expect(region.getAttribute('role')).to.equal('status');
      expect(region.getAttribute('aria-live') ?? 'polite').to.equal('polite');

      // Measured: on the button's corner, inside the viewport, moving nothing on the page.
      const after = el.getBoundingClientRect();
      expect([after.width, after.height, after.x, after.y]).to.deep.equal([
        before.width,
        before.height,
        before.x,
        before.y,
      ]);
      const rect = badge.getBoundingClientRect();
      expect(rect.width).to.be.greaterThan(0);
      expect(rect.right).to.be.at.most(innerWidth);
      expect(rect.left).to.be.at.least(0);
      expect(rect.top).to.be.below(after.top + after.height / 2);
      const style = getComputedStyle(badge);
      expect(contrast(style.color, style.backgroundColor)).to.be.at.least(4.5);
      await expect(el).to.be.accessible();

      // Reopened: the result, and the badge and its words go.
      trigger.click();
      await reach(el, 'result');
      expect(panelRoot(el).querySelector('img[part="image"]')).to.exist;
      await el.updateComplete;
      expect(badgeOf(el)).to.equal(null);
      expect(trigger.hasAttribute('aria-describedby')).to.equal(false);
      expect(said).to.have.length(1);
      const log = await fake.log();
      expect(log.filter((r) => r.path === '/tryons')).to.have.length(1);

      // Analytics: the close was a background one; the result still counts, timed from its submit.
      const pushed = dataLayer().map((entry) => entry['event']);
      expect(pushed).to.deep.equal(['tryon_open', 'tryon_submit', 'tryon_close', 'tryon_result', 'tryon_open']);
      expect(dataLayer()[2]).to.deep.include({ event: 'tryon_close', outcome: 'background' });
      expect(dataLayer()[3]).to.deep.include({
        event: 'tryon_result',
        outcome: 'result',
        views: 'front',
        output: 'image',
      });
      expect(Number.isInteger(dataLayer()[3]!['duration_ms'])).to.equal(true);
    });
  }

  it('a dialog closed before the try-on was sent stops, and says "closed"', async () => {
    const fake = await fakeProxy({ photoHold: true });
    const el = await mount(fake, { analytics: 'dataLayer' });
    await tryOnUntil(el, 'uploading');
    el.close();
    await reach(el, 'idle');
    await fake.release();
    expect(dataLayer().find((entry) => entry['event'] === 'tryon_close')).to.deep.include({ outcome: 'closed' });
    expect(badgeOf(el)).to.equal(null);
  });
});
