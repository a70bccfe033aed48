// Shared test tools: the shopper's steps (mount, consent, photo, try-on, reload), element lookups
// across shadow roots, generated photos; the fake proxy's client and scenarios are fake-scenario.ts,
// re-exported here.
import { expect, fixture, html } from '@open-wc/testing';
import type { TryonButton } from '../../widget/tryon-button.js';
import '../../widget/tryon-button.js';
import type { Fake, FakeRequest } from './fake-scenario.js';

export * from './fake-scenario.js';

export async function mount(fake: Fake, attributes: Record<string, string | boolean> = {}): Promise<TryonButton> {
  const el = await fixture<TryonButton>(
    html`<tryon-button product="saree-red" endpoint=${fake.endpoint} prefetch="interaction" poll-interval="50"></tryon-button>`,
  );
  el.pollInterval = 50;
  // Drawn test photos hold no person: the photo check is off unless a test sets `photo-check` (as pickPhoto says).
  if (!('photo-check' in attributes)) el.setAttribute('photo-check', 'off');
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false) el.removeAttribute(name);
    else el.setAttribute(name, value === true ? '' : value);
  }
  await el.updateComplete;
  return el;
}

/** Polls a condition with a bounded wait, for things no event announces (a fake's log, a render). */
export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs = 8000): Promise<NonNullable<T>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
  }
}

export function panelRoot(el: TryonButton): ShadowRoot {
  const panel = el.shadowRoot?.querySelector('tryon-panel');
  if (!panel?.shadowRoot) throw new Error('The panel is not rendered.');
  return panel.shadowRoot;
}

/** The element focused inside the widget, through both shadow roots. */
export function focused(el: TryonButton): Element | null {
  const panel = el.shadowRoot!.querySelector('tryon-panel');
  return panel?.shadowRoot?.activeElement ?? el.shadowRoot!.activeElement;
}

export function dialogOf(el: TryonButton): HTMLDialogElement {
  const dialog = panelRoot(el).querySelector('dialog');
  if (!dialog) throw new Error('No dialog.');
  return dialog;
}

/** The control with this accessible name (visible text or aria-label), or undefined. */
export function control<E extends HTMLElement = HTMLButtonElement>(
  el: TryonButton,
  name: string,
  selector = 'button',
): E | undefined {
  const all = [...panelRoot(el).querySelectorAll<E>(selector)];
  return all.find((node) => (node.getAttribute('aria-label') ?? node.textContent ?? '').trim() === name);
}

export function button(el: TryonButton, name: string): HTMLButtonElement {
  const found = control(el, name);
  if (!found) throw new Error(`No button named "${name}" in step ${el.status}`);
  return found;
}

export function statusText(el: TryonButton): string {
  return panelRoot(el).querySelector('[role="status"]')?.textContent?.trim() ?? '';
}

export async function reach(el: TryonButton, status: string, timeoutMs = 8000): Promise<void> {
  await until(() => el.status === status, `status "${status}" (now "${el.status}")`, timeoutMs);
  await el.updateComplete;
  const panel = el.shadowRoot?.querySelector('tryon-panel') as
    (HTMLElement & { updateComplete?: Promise<unknown> }) | null;
  await panel?.updateComplete;
}

/** Opens the dialog and gives consent; `continueLabel` is the consent's button in the page's language. */
export async function openAndConsent(el: TryonButton, continueLabel = 'Continue'): Promise<void> {
  await el.open();
  await reach(el, 'consent');
  const box = panelRoot(el).querySelector<HTMLInputElement>('input[type="checkbox"]');
  box?.click();
  await reach(el, 'consent');
  await until(() => !button(el, continueLabel).disabled, `${continueLabel} enabled`);
  button(el, continueLabel).click();
  await reach(el, 'photo');
}

/** How a test's try-on starts: the drawn photo's size and, in another language, the two buttons' labels. */
export interface TryonStart {
  /** The drawn photo's width and height; 500 × 700 unless told. */
  width?: number;
  height?: number;
  /** The consent's button in the page's language ("Continue" unless told). */
  continueLabel?: string;
  /** The photo step's submit button in the page's language ("Try it on" unless told). */
  submitLabel?: string;
}

/**
 * The sequence nearly every try-on test starts with: open, consent, pick a drawn photo, press "Try it on".
 * It returns once the try-on is sent (the click), not when it ends: a test waits for what it is about.
 */
export async function submitTryon(el: TryonButton, start: TryonStart = {}): Promise<void> {
  await openAndConsent(el, start.continueLabel);
  await pickPhoto(el, await drawnPhoto(start.width ?? 500, start.height ?? 700));
  button(el, start.submitLabel ?? 'Try it on').click();
}

/** `submitTryon`, then waits for the try-on to reach `status` (its result unless told). */
export async function tryOnUntil(el: TryonButton, status = 'result', start: TryonStart = {}): Promise<void> {
  await submitTryon(el, start);
  await reach(el, status);
}

/**
 * `submitTryon` against a fake whose steps hold (`{hold: true}`), then waits until the fake holds one of
 * the page's requests there: the try-on is in flight and stays so until `fake.release()`. Returns the
 * held request; `held` picks which one counts (any held request unless told).
 */
export async function startHeldTryon(
  fake: Fake,
  el: TryonButton,
  start: TryonStart & { held?: (request: FakeRequest) => boolean; what?: string } = {},
): Promise<FakeRequest> {
  const held = start.held ?? ((request: FakeRequest) => request.held === true);
  await submitTryon(el, start);
  return until(async () => (await fake.log()).find(held), start.what ?? 'a request held by the fake');
}

/** Draws a test photo: a left half red, right half blue, so orientation can be checked by pixels. */
export async function drawnPhoto(width: number, height: number, type = 'image/jpeg'): Promise<File> {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  context.fillStyle = '#ff0000';
  context.fillRect(0, 0, width / 2, height);
  context.fillStyle = '#0000ff';
  context.fillRect(width / 2, 0, width / 2, height);
  const blob = await canvas.convertToBlob({ type, quality: 0.95 });
  return new File([blob], type === 'image/png' ? 'me.png' : 'me.jpg', { type });
}

/**
 * Gives the photo step a file as if the shopper had picked it. The tests' drawn photos hold no
 * person, so unless a test asks for the photo check (sets `photo-check` itself: photo-check.test.ts)
 * it is turned off here, where every test picks its photo.
 */
export async function pickPhoto(el: TryonButton, file: File): Promise<void> {
  if (!el.hasAttribute('photo-check')) el.setAttribute('photo-check', 'off');
  const input = panelRoot(el).querySelector<HTMLInputElement>('#file');
  if (!input) throw new Error('No file input.');
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  const panel = el.shadowRoot!.querySelector('tryon-panel') as unknown as {
    preparing: boolean;
    updateComplete: Promise<unknown>;
  };
  input.dispatchEvent(new Event('change', { bubbles: true }));
  expect(panel.preparing).to.equal(true);
  await until(() => !panel.preparing, 'the photo to be prepared');
  await panel.updateComplete;
}

/**
 * A reload of the page: `first` goes away, and a new `<tryon-button>` on the same endpoint is connected
 * in a fresh container whose events are recorded. `attributes` are set before it is connected (its
 * product too, when named; else the test sets it, as a framework would, a moment later), and
 * `pollInterval` as the property.
 */
export async function reloadPage(
  first: TryonButton,
  fake: Fake,
  attributes: Record<string, string> = {},
  pollInterval?: number,
): Promise<{ again: TryonButton; seen: { type: string; detail: any }[] }> {
  first.remove();
  const container = await fixture<HTMLDivElement>(html`<div></div>`);
  const seen = recordEvents(container);
  const again = document.createElement('tryon-button') as TryonButton;
  again.setAttribute('endpoint', fake.endpoint);
  again.setAttribute('prefetch', 'interaction');
  for (const [name, value] of Object.entries(attributes)) again.setAttribute(name, value);
  if (pollInterval !== undefined) again.pollInterval = pollInterval;
  container.append(again);
  return { again, seen };
}

/** Collects the widget's events, in order. */
export function recordEvents(el: HTMLElement): { type: string; detail: any }[] {
  const seen: { type: string; detail: any }[] = [];
  for (const type of [
    'tryon-open',
    'tryon-close',
    'tryon-submit',
    'tryon-progress',
    'tryon-preview',
    'tryon-result',
    'tryon-fidelity',
    'tryon-error',
  ]) {
    el.addEventListener(type, (event) => seen.push({ type, detail: (event as CustomEvent).detail }));
  }
  return seen;
}

/** Runs `run` with console.error captured into `said` (each call's arguments as one line), then puts console.error back. */
export async function withConsoleErrors<T>(run: (said: string[]) => Promise<T>): Promise<T> {
  const said: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => {
    said.push(args.map(String).join(' '));
  };
  try {
    return await run(said);
  } finally {
    console.error = error;
  }
}
