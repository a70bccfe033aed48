// What every end-to-end file needs: the demo shop started on free ports against a sandbox with a
// live key (so charges show in /sandbox/state), a Chromium, and the shopper's moves found by role
// and label. Pages that fail a test leave a screenshot in test/e2e/screenshots/.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.js';
import { startDemo } from '../../demo/start.js';
import type { Demo, DemoOptions } from '../../demo/start.js';
import { goOnPastPhotoCheck } from './photo-check.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const SHOPPER_PHOTO = join(root, '.cache/demo-shop/images/shopper.jpg');
const SCREENSHOTS = join(root, 'test/e2e/screenshots');

/** A live sandbox key: live keys are charged per tier, so a second charge would show. */
export const LIVE_KEY = 'sk_live_e2e_shop';
export const WORKSPACE = 'ws_e2e';

/** Generous for a loaded two-core machine; every wait below is for an event, bounded by this. */
export const WAIT = 30_000;

export interface SandboxJob {
  id: string;
  type: string;
  status: string;
  tier: string;
  views: string[];
  charged: number;
  idempotency_key: string | null;
  parent: string | null;
  polls: number;
}

export interface SandboxState {
  workspaces: Record<string, { credits: number; jobs: SandboxJob[] }>;
  requests: Record<string, number>;
}

export interface Shop {
  url: string;
  browser: Browser;
  /** The sandbox as the test sees it: state, faults, held jobs, and /v1 reads with the live key. */
  sandbox: {
    url: string;
    state(): Promise<SandboxState>;
    workspace(): Promise<{ credits: number; jobs: SandboxJob[] }>;
    fault(fault: Record<string, unknown>): Promise<void>;
    clearFaults(): Promise<void>;
    release(jobId: string): Promise<void>;
    job(jobId: string): Promise<Record<string, unknown>>;
  };
  close(): Promise<void>;
}

async function json(response: Response, what: string): Promise<unknown> {
  const text = await response.text();
  assert.ok(response.ok, `${what}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Starts the demo (sandbox speed 0 unless told: renders finish as fast as they are drawn) and a browser. */
export async function openShop(
  options: Pick<DemoOptions, 'proxyLimits' | 'proxyStore' | 'env' | 'speed'> = {},
): Promise<Shop> {
  const demo: Demo = await startDemo({
    port: 0,
    sandboxPort: 0,
    speed: 0,
    quiet: true,
    sandboxKeys: { [LIVE_KEY]: WORKSPACE },
    ...options,
  });
  const executablePath = findChromium();
  if (!executablePath) {
    await demo.close();
    throw new Error("No Chromium found: install Debian's chromium package or set CHROME_PATH.");
  }
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  } catch (error) {
    await demo.close();
    throw error;
  }
  const sandboxUrl = demo.sandboxUrl;
  assert.ok(sandboxUrl, 'the demo started no sandbox (are TRYON_API_KEY and TRYON_BASE_URL set?)');
  const sandbox: Shop['sandbox'] = {
    url: sandboxUrl,
    state: async () => (await json(await fetch(`${sandboxUrl}/sandbox/state`), 'sandbox state')) as SandboxState,
    workspace: async () => {
      const state = await sandbox.state();
      return state.workspaces[WORKSPACE] ?? { credits: 100, jobs: [] };
    },
    fault: async (fault) => {
      await json(
        await fetch(`${sandboxUrl}/sandbox/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(fault),
        }),
        'sandbox fault',
      );
    },
    clearFaults: async () => {
      await json(await fetch(`${sandboxUrl}/sandbox/faults`, { method: 'DELETE' }), 'clear faults');
    },
    release: async (jobId) => {
      await json(
        await fetch(`${sandboxUrl}/sandbox/jobs/${encodeURIComponent(jobId)}/release`, { method: 'POST' }),
        'release job',
      );
    },
    job: async (jobId) =>
      (await json(
        await fetch(`${sandboxUrl}/v1/jobs/${encodeURIComponent(jobId)}`, {
          headers: { authorization: `Bearer ${LIVE_KEY}` },
        }),
        'job',
      )) as Record<string, unknown>,
  };
  return {
    url: demo.url,
    browser,
    sandbox,
    close: async () => {
      await browser.close().catch(() => undefined);
      await demo.close();
    },
  };
}

function fileName(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 80) || 'page'
  );
}

/**
 * Runs `use` with a fresh page (its own context: no shared sessionStorage between tests) and
 * saves a screenshot if it throws. Browser-side errors are collected so a test can assert none.
 */
export async function withPage<T>(
  shop: Shop,
  title: string,
  use: (page: Page, problems: string[]) => Promise<T>,
  options: BrowserContextOptions = {},
): Promise<T> {
  const context = await shop.browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const problems: string[] = [];
  // The pages run under `script-src 'self'`: any violation (an inline script, an eval in the
  // widget) is a failure the shop's owner would see in their console.
  await context.exposeBinding('reportViolation', (_source, text: string) => {
    problems.push(`csp: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { reportViolation(text: string): void }).reportViolation(
        `${event.violatedDirective} blocked ${event.blockedURI}`,
      );
    });
  });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      problems.push(`csp: ${message.text()}`);
  });
  try {
    return await use(page, problems);
  } catch (error) {
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, `${fileName(title)}.png`), fullPage: true }).catch(() => undefined);
    throw error;
  } finally {
    await context.close();
  }
}

// ── the shopper's moves, found by role and label ──

export function tryonDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Virtual try-on' });
}

/** Opens the product page and presses the try-on button (its label may be themed). */
export async function openProduct(page: Page, shop: Shop, productId: string): Promise<void> {
  await page.goto(`${shop.url}/products/${productId}`);
  // The element upgrades when the widget's module runs; its button lives in the shadow root. A label
  // given as light-DOM text is visible before that, so the upgrade itself is waited for too.
  await page.locator('tryon-button').first().waitFor();
  await page.waitForFunction(() => customElements.get('tryon-button') !== undefined);
}

export async function startTryon(page: Page, label = 'Try it on'): Promise<Locator> {
  await page.getByRole('button', { name: label, exact: true }).click();
  const dialog = tryonDialog(page);
  await dialog.waitFor({ state: 'visible' });
  return dialog;
}

export async function giveConsent(dialog: Locator): Promise<void> {
  await dialog.getByRole('checkbox', { name: 'I agree to upload my photo for this try-on' }).check();
  await dialog.getByRole('button', { name: 'Continue' }).click();
}

export async function choosePhoto(dialog: Locator): Promise<void> {
  await dialog.getByLabel('Your photo', { exact: true }).setInputFiles(SHOPPER_PHOTO);
  await goOnPastPhotoCheck(dialog);
}

export async function submit(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Try it on', exact: true }).click();
}

/** The whole shopper path up to pressing "Try it on" in the dialog. */
export async function tryOn(page: Page, label = 'Try it on'): Promise<Locator> {
  const dialog = await startTryon(page, label);
  await giveConsent(dialog);
  await choosePhoto(dialog);
  await submit(dialog);
  return dialog;
}

/**
 * A result image's accessible name: "You wearing <product>", then what the proxy's check says of its
 * colours when it says anything (" — Colours checked against the product"). From the start of the
 * name: the first look's "A quick preview of you wearing …" holds the same words.
 */
export function resultName(productName: string): RegExp {
  return new RegExp(`^You wearing ${productName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( — |$)`);
}

/** Waits for a result image to be shown and really decoded; returns its size. */
export async function resultImage(
  dialog: Locator,
  productName: string,
): Promise<{ width: number; height: number; src: string }> {
  const image = dialog.getByRole('img', { name: resultName(productName) }).first();
  await image.waitFor({ state: 'visible' });
  await image.evaluate((element) => {
    const img = element as HTMLImageElement;
    return img.complete && img.naturalWidth > 0 ? undefined : img.decode();
  });
  return image.evaluate((element) => {
    const img = element as HTMLImageElement;
    return { width: img.naturalWidth, height: img.naturalHeight, src: img.currentSrc || img.src };
  });
}

/** Polls the sandbox until `check` holds; for conditions no browser event reports. */
export async function until<T>(
  what: string,
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = WAIT,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > deadline)
      assert.fail(`timed out waiting for ${what}; last seen ${JSON.stringify(value).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

/** Jobs the shopper's try-ons created (a catalog's children are not separate try-ons). */
export function topJobs(jobs: SandboxJob[]): SandboxJob[] {
  return jobs.filter((job) => job.parent === null);
}
