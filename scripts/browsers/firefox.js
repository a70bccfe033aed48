// Firefox for the widget's browser tests: Debian's firefox-esr, driven by puppeteer-core over
// WebDriver BiDi. @web/test-runner-chrome's launcher takes a puppeteer of our choosing; handed
// puppeteer-core ≥ 24 and `browser: 'firefox'`, it launches the installed Firefox and downloads
// nothing (these machines have no network for a browser download).
import puppeteer from 'puppeteer-core';
import { chromeLauncher } from '@web/test-runner-chrome';

/** @param {string} executablePath */
export function firefoxLauncher(executablePath) {
  return chromeLauncher({
    puppeteer,
    createPage: async ({ context }) => withViewportWithoutOrientation(await context.newPage()),
    launchOptions: {
      browser: 'firefox',
      executablePath,
      headless: true,
      // Firefox's own updates, telemetry and first-run pages reach for the network and can pop
      // windows over the page under test.
      extraPrefsFirefox: {
        'app.update.enabled': false,
        'browser.shell.checkDefaultBrowser': false,
        'datareporting.policy.dataSubmissionEnabled': false,
        'toolkit.telemetry.enabled': false,
        'network.captive-portal-service.enabled': false,
        'browser.safebrowsing.malware.enabled': false,
        'browser.safebrowsing.phishing.enabled': false,
      },
    },
  });
}

/**
 * puppeteer-core 24.43 sets a viewport over BiDi with two commands at once: the size, and a screen
 * orientation. Firefox ESR 140 knows the first and answers "unknown command" to the second, which
 * failed every file before its first test. The size is still set (both were sent together), so an
 * orientation this Firefox cannot take is let go, and any other error is not.
 * @param {import('puppeteer-core').Page} page
 */
function withViewportWithoutOrientation(page) {
  const setViewport = page.setViewport.bind(page);
  page.setViewport = async (viewport) => {
    try {
      await setViewport(viewport);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!(message.includes('setScreenOrientationOverride') && message.includes('unknown command'))) throw error;
    }
  };
  return page;
}
