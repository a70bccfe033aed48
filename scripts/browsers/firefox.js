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
