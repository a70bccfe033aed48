// The browser engines the widget's suites run in: Chromium, Firefox and WebKit (WebKitGTK), all
// three by default. TRYON_ENGINES narrows a run (`TRYON_ENGINES=firefox`, `TRYON_ENGINES=chromium,webkit`).
// `npm test` finds or installs each engine's programs first (scripts/prerequisites.ts) and passes
// their paths in CHROME_PATH, FIREFOX_PATH, WEBKIT_DRIVER_PATH and XVFB_PATH; run on its own, the
// runner takes Debian's paths.
import { chromeLauncher } from '@web/test-runner-chrome';
import { CHROMIUM_ARGS } from './chromium-args.js';
import { firefoxLauncher } from './firefox.js';
import { webkitLauncher } from './webkit.js';

export const ENGINES = /** @type {const} */ (['chromium', 'firefox', 'webkit']);

/** @returns {('chromium' | 'firefox' | 'webkit')[]} */
export function chosenEngines(value = process.env.TRYON_ENGINES) {
  if (!value) return [...ENGINES];
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((name) => !ENGINES.includes(/** @type {any} */ (name)));
  // A misspelt engine would otherwise run nothing and pass.
  if (unknown.length > 0)
    throw new Error(`TRYON_ENGINES: unknown engine ${unknown.join(', ')} (known: ${ENGINES.join(', ')})`);
  return /** @type {any} */ (names);
}

export function engineLaunchers(engines = chosenEngines()) {
  return engines.map((engine) => {
    switch (engine) {
      case 'chromium': {
        const launcher = chromeLauncher({
          launchOptions: {
            executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
            args: CHROMIUM_ARGS,
            headless: true,
          },
        });
        // The launcher calls any installed Chromium "Chrome"; the counts name the engine.
        launcher.name = 'Chromium';
        return launcher;
      }
      case 'firefox':
        return firefoxLauncher(process.env.FIREFOX_PATH || '/usr/bin/firefox-esr');
      case 'webkit':
        return webkitLauncher({
          driverPath: process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver',
          xvfbPath: process.env.XVFB_PATH || '/usr/bin/Xvfb',
        });
    }
  });
}
