// Media emulation, viewports and screenshots in every engine the widget's tests run in.
import { emulateMedia, executeServerCommand, setViewport } from '@web/test-runner-commands';

/**
 * emulateMedia goes through the DevTools protocol: Chromium's only. In Firefox (WebDriver BiDi) and
 * WebKit (WebDriver) it throws; there the page keeps the engine's own scheme (light) and motion,
 * and this says false so that a test can skip what needs another.
 */
export async function emulate(media: Parameters<typeof emulateMedia>[0]): Promise<boolean> {
  try {
    await emulateMedia(media);
    return true;
  } catch (error) {
    if (/CDP support is required|not supported for browser type/.test(String(error))) return false;
    throw error;
  }
}

/**
 * Sets the viewport. WebKitGTK's window cannot be narrower than about 447 px: there a phone is
 * measured at the narrowest width the engine gives (still below the 600 px of the sheet layout).
 */
export async function viewport(size: { width: number; height: number }): Promise<void> {
  try {
    await setViewport(size);
  } catch (error) {
    const given = /asked for \d+ × \d+, the page has (\d+) × (\d+)/.exec(String(error));
    if (!given || size.width > 600 || Number(given[1]) > 480 || Number(given[2]) !== size.height) throw error;
  }
}

/** Which engine runs the test, for the screenshots' names (Chromium, Firefox or WebKit by its user agent). */
export function engine(): 'chromium' | 'firefox' | 'webkit' {
  const agent = navigator.userAgent;
  if (agent.includes('Firefox/')) return 'firefox';
  if (agent.includes('Chrome/') || agent.includes('Chromium/')) return 'chromium';
  return 'webkit';
}

/** Saves the page's viewport as `docs/screenshots/<name>.png` (scripts/browsers/commands.js); answers its size. */
export function saveScreenshot(name: string): Promise<{ width: number; height: number; bytes: number }> {
  return executeServerCommand('save-screenshot', { name });
}
