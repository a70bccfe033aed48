// The test commands (@web/test-runner-commands) the widget's tests use, made to work in every
// engine, and one of ours: `save-screenshot`, a picture of the page for the docs in every engine. The stock ones cover Chromium; over WebDriver (WebKit) they cannot set the viewport or
// hold a key down (Shift+Tab), and puppeteer's Firefox (WebDriver BiDi) knows no key "Space".
// The runner adds the stock plugins itself, ahead of the config's own (a config plugin never sees
// those commands), so this module wraps the stock factories where the runner takes them from.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { grabX } from './x-screenshot.js';

const require = createRequire(import.meta.url);
// The package's index re-exports each factory through a getter, read when the runner calls it;
// the factories' own modules hold them as plain, replaceable properties.
const stockDir = dirname(require.resolve('@web/test-runner-commands/plugins'));
const stock = {
  sendKeys: require(join(stockDir, 'sendKeysPlugin.js')),
  setViewport: require(join(stockDir, 'setViewportPlugin.js')),
};

/** WebDriver's codes for the named keys the tests press (W3C WebDriver, "Keyboard actions"). */
const WEBDRIVER_KEYS = {
  Shift: '\uE008',
  Control: '\uE009',
  Alt: '\uE00A',
  Meta: '\uE03D',
  Tab: '\uE004',
  Enter: '\uE007',
  Escape: '\uE00C',
  Space: ' ',
  Backspace: '\uE003',
  Delete: '\uE017',
  Home: '\uE011',
  End: '\uE010',
  PageUp: '\uE00E',
  PageDown: '\uE00F',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
};
function webdriverKey(name) {
  const key = WEBDRIVER_KEYS[name] ?? (name.length === 1 ? name : undefined);
  if (key === undefined) throw new Error(`send-keys: no WebDriver code for the key "${name}"`);
  return key;
}

/** Keys each WebDriver session holds down (a `down` not yet `up`), by session id. */
const held = new Map();

async function webdriverSendKeys(session, payload) {
  const driver = session.browser.driver;
  const down = held.get(session.id) ?? [];
  const act = (actions) => driver.performActions([{ type: 'key', id: 'keyboard', actions }]);
  if ('down' in payload) {
    const key = webdriverKey(payload.down);
    await act([{ type: 'keyDown', value: key }]);
    held.set(session.id, [...down, key]);
    return true;
  }
  if ('up' in payload) {
    const key = webdriverKey(payload.up);
    await act([{ type: 'keyUp', value: key }]);
    held.set(
      session.id,
      down.filter((k) => k !== key),
    );
    return true;
  }
  if ('press' in payload && down.length > 0) {
    // The stock press releases every key afterwards; pressed here, the held keys stay held.
    const key = webdriverKey(payload.press);
    await act([
      ...down.map((k) => ({ type: 'keyDown', value: k })),
      { type: 'keyDown', value: key },
      { type: 'keyUp', value: key },
    ]);
    return true;
  }
  return undefined;
}

/** Sizes the window so that the page's viewport (innerWidth × innerHeight) is the one asked for. */
async function webdriverSetViewport(session, { width, height }) {
  const driver = session.browser.driver;
  // The page's size after two frames: a resize that is still under way has then reached layout.
  // Measured in the middle of one, WebKit once answered the old width beside the new window's size,
  // and the difference asked WebKitWebDriver for a negative window.
  const inner = async () => {
    const answer = await driver.executeAsync(
      'const done = arguments[arguments.length - 1];' +
        'requestAnimationFrame(() => requestAnimationFrame(() => done([innerWidth, innerHeight])));',
    );
    return Array.isArray(answer) && answer.length === 2 && answer.every(Number.isInteger) ? answer : undefined;
  };
  const fits = (n) => Number.isInteger(n) && n > 0 && n < 2 ** 31;
  await driver.setWindowSize(width, height);
  // The window's frame and any toolbar take their share: grow the window by what is missing.
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = await inner();
    if (!before) continue;
    if (before[0] === width && before[1] === height) return true;
    const size = await driver.getWindowSize();
    const after = await inner();
    // The page and the window are read one after the other: only a pair taken while nothing moved
    // says how big the frame is.
    if (!after || after[0] !== before[0] || after[1] !== before[1]) continue;
    const target = { width: size?.width + width - after[0], height: size?.height + height - after[1] };
    if (!fits(target.width) || !fits(target.height)) continue;
    await driver.setWindowSize(target.width, target.height);
  }
  const [innerWidth, innerHeight] = (await inner()) ?? [NaN, NaN];
  if (innerWidth !== width || innerHeight !== height) {
    throw new Error(`set-viewport: asked for ${width} × ${height}, the page has ${innerWidth} × ${innerHeight}`);
  }
  return true;
}

function wrap(factory, own) {
  return (...args) => {
    const plugin = factory(...args);
    const executeCommand = plugin.executeCommand.bind(plugin);
    plugin.executeCommand = async (context) => (await own(context)) ?? executeCommand(context);
    return plugin;
  };
}

let installed = false;
export function installEngineCommands() {
  if (installed) return;
  installed = true;
  stock.sendKeys.sendKeysPlugin = wrap(stock.sendKeys.sendKeysPlugin, async ({ command, payload, session }) => {
    if (command !== 'send-keys' || !payload || typeof payload !== 'object') return undefined;
    if (session.browser.type === 'webdriver') return webdriverSendKeys(session, payload);
    if (session.browser.type === 'puppeteer' && payload.press === 'Space') {
      // puppeteer names the space bar "Space" for Chromium, but over WebDriver BiDi only " ".
      await session.browser.getPage(session.id).keyboard.press(' ');
      return true;
    }
    return undefined;
  });
  stock.setViewport.setViewportPlugin = wrap(
    stock.setViewport.setViewportPlugin,
    async ({ command, payload, session }) => {
      if (command !== 'set-viewport' || session.browser.type !== 'webdriver') return undefined;
      return webdriverSetViewport(session, payload);
    },
  );
}

/**
 * The page's viewport in WebKit, read from its X display (x-screenshot.js: WebKitWebDriver's own
 * screenshot never answers there). Xvfb runs no window manager, so the window has no frame, and
 * the toolbar webkit.js shrinks sits above the page: the viewport is the window's bottom-right
 * innerWidth × innerHeight.
 */
async function webdriverViewport(session) {
  const { display, driver } = session.browser;
  if (!display) throw new Error('save-screenshot: this WebDriver browser runs on no X display of ours');
  const window = await driver.getWindowRect();
  const [width, height] = await driver.execute('return [innerWidth, innerHeight]');
  const region = { x: window.x + window.width - width, y: window.y + window.height - height, width, height };
  const rgb = await grabX(display, region);
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** Where `save-screenshot` writes: the docs' pictures, and nowhere else. */
const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');

/**
 * `save-screenshot` with `{ name }`: the page's viewport as `docs/screenshots/<name>.png` (a name of
 * lower-case letters, digits and hyphens only, so a test cannot write elsewhere), in a palette of
 * colours, as the end-to-end screenshots are. Chromium and Firefox through puppeteer, WebKit from
 * its X display. Answers the picture's width, height and bytes.
 */
export function screenshotPlugin() {
  return {
    name: 'tryon-save-screenshot',
    async executeCommand({ command, payload, session }) {
      if (command !== 'save-screenshot') return undefined;
      const name = payload && typeof payload === 'object' ? payload.name : undefined;
      if (typeof name !== 'string' || !/^[a-z0-9][a-z0-9-]{0,80}$/.test(name))
        throw new Error(`save-screenshot: a name of a-z, 0-9 and "-" is needed, not ${JSON.stringify(name)}`);
      let shot;
      if (session.browser.type === 'webdriver') {
        shot = await webdriverViewport(session);
      } else if (session.browser.type === 'puppeteer') {
        shot = Buffer.from(await session.browser.getPage(session.id).screenshot({ type: 'png' }));
      } else {
        throw new Error(`save-screenshot: no screenshot for browser type ${session.browser.type}`);
      }
      const png = await sharp(shot).png({ palette: true, quality: 80, compressionLevel: 9, effort: 10 }).toBuffer();
      const { width, height } = await sharp(png).metadata();
      await mkdir(SCREENSHOTS, { recursive: true });
      await writeFile(join(SCREENSHOTS, `${name}.png`), png);
      return { width, height, bytes: png.length };
    },
  };
}
