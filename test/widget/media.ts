// Media emulation and viewports in every engine the widget's tests run in.
import { emulateMedia, setViewport } from '@web/test-runner-commands';

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
