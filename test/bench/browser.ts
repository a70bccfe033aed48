// Chromium for the browser benches: the system's, as every test here uses.
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.js';
import { Unavailable } from './report.js';

export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Unavailable('no Chromium found (install chromium or set CHROME_PATH)');
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}

/**
 * A fresh page whose `page.evaluate` callbacks survive tsx: its transform names functions with a
 * `__name` helper that exists in Node but not in the page.
 */
export async function openPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn);');
  return context.newPage();
}
