// WebKit for the widget's browser tests: WebKitGTK's MiniBrowser, driven through WebKitWebDriver
// (Debian's webkit2gtk-driver) by webdriverio and @web/test-runner-webdriver. WebKitGTK draws on
// an X display even when nobody looks, so each run starts its own Xvfb on a display the X server
// picks itself (-displayfd: no clash with another run), then the driver on a free loopback port,
// and stops both when the run ends, however it ends.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webdriverLauncher } from '@web/test-runner-webdriver';

/** Where Debian's libwebkit2gtk-4.1-0 (a dependency of webkit2gtk-driver) puts MiniBrowser. */
export const MINIBROWSER_PATH = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** @type {Set<import('node:child_process').ChildProcess>} */
const started = new Set();
function stopAll() {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
  started.clear();
}
/** Stops them and waits for them to be gone (reaped here, not left to an init that may not). */
async function stopAndWait() {
  const children = [...started].filter((child) => child.exitCode === null && child.signalCode === null);
  const gone = children.map(
    (child) =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        // The X server and the driver stop at once on SIGTERM; a hung one is killed after 5 s.
        setTimeout(() => {
          child.kill('SIGKILL');
        }, 5000).unref();
      }),
  );
  stopAll();
  await Promise.all(gone);
}

let watching = false;
/** Whatever ends the run (its end, a failure, Ctrl-C), no X server or driver is left behind. */
function stopAllWhenTheRunEnds() {
  if (watching) return;
  watching = true;
  process.once('exit', stopAll);
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.once(signal, () => {
      stopAll();
      process.exit(130);
    });
  }
}

/** @param {string} what @param {import('node:child_process').ChildProcess} child */
function failedToStart(what, child) {
  return new Promise((_, reject) => {
    child.once('error', (error) => reject(new Error(`${what} did not start: ${error.message}`)));
    child.once('exit', (code, signal) => reject(new Error(`${what} exited before it was ready (${signal ?? code})`)));
  });
}

/** Starts Xvfb on a display of its choosing; resolves with that display, e.g. ':99'. */
async function startXvfb(xvfbPath) {
  const child = spawn(xvfbPath, ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1920x1080x24'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const display = new Promise((resolve) => {
    let said = '';
    child.stdio[3].on('data', (chunk) => {
      said += chunk;
      if (said.includes('\n')) resolve(`:${said.trim()}`);
    });
  });
  try {
    return await Promise.race([display, failedToStart('Xvfb', child)]);
  } catch (error) {
    throw new Error(`${error.message}\n${stderr}`, { cause: error });
  }
}

/**
 * A GTK configuration for MiniBrowser whose toolbar shrinks to nothing: its buttons and address
 * bar otherwise keep the window at least 447 px wide, and the tests lay the widget out at a
 * phone's 390 px. (GTK's CSS styles the browser's own widgets, never the page.)
 */
function compactGtk() {
  const home = mkdtempSync(join(tmpdir(), 'tryon-webkit-gtk-'));
  mkdirSync(join(home, 'gtk-3.0'));
  writeFileSync(
    join(home, 'gtk-3.0', 'gtk.css'),
    'window > * { min-width: 0; } toolbar, toolbar *, headerbar, headerbar *, entry, button { min-width: 0; min-height: 0; padding: 0; margin: 0; font-size: 1px; -gtk-icon-transform: scale(0.01); }\n',
  );
  process.once('exit', () => rmSync(home, { recursive: true, force: true }));
  return home;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once the driver answers /status, the WebDriver way of saying it takes sessions. */
async function driverReady(port, child) {
  const deadline = Date.now() + 20000;
  const exited = failedToStart('WebKitWebDriver', child);
  exited.catch(() => {});
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return exited;
    try {
      const response = await fetch(`http://127.0.0.1:${port}/status`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`WebKitWebDriver did not answer on port ${port} within 20 s`);
}

/**
 * A web-test-runner launcher for WebKitGTK: @web/test-runner-webdriver's, started once Xvfb and
 * the driver are up (its initialize is where the runner waits for a browser to be ready).
 * @param {{ driverPath: string, xvfbPath: string, minibrowserPath?: string }} paths
 */
export function webkitLauncher({ driverPath, xvfbPath, minibrowserPath = MINIBROWSER_PATH }) {
  const options = {
    hostname: '127.0.0.1',
    port: 0,
    logLevel: /** @type {const} */ ('error'),
    capabilities: {
      browserName: 'MiniBrowser',
      // webdriverio 9 otherwise asks for a WebDriver BiDi session (webSocketUrl), which
      // WebKitWebDriver cannot give, and the session is refused.
      'wdio:enforceWebDriverClassic': true,
      'webkitgtk:browserOptions': { binary: minibrowserPath, args: ['--automation'] },
    },
  };
  const launcher = webdriverLauncher(options);
  const initialize = launcher.initialize.bind(launcher);
  const stop = launcher.stop.bind(launcher);
  launcher.initialize = async (config, testFiles) => {
    stopAllWhenTheRunEnds();
    const display = await startXvfb(xvfbPath);
    launcher.display = display;
    const port = await freePort();
    const driver = spawn(driverPath, [`--port=${port}`, '--host=local'], {
      // Xvfb has no GPU: composited layers would be drawn through Mesa's software OpenGL, which
      // doubled the engine's CPU for the same pages. Without compositing, WebKit paints directly;
      // layout, script, events and the accessibility tree are the same.
      env: { ...process.env, DISPLAY: display, XDG_CONFIG_HOME: compactGtk(), WEBKIT_DISABLE_COMPOSITING_MODE: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    started.add(driver);
    await driverReady(port, driver);
    options.port = port;
    await initialize(config, testFiles);
    // The runner names the browser after the capabilities ("MiniBrowser"); shoppers know it as WebKit.
    launcher.name = 'WebKit';
  };
  launcher.stop = async () => {
    try {
      await stop();
    } finally {
      await stopAndWait();
    }
  };
  return launcher;
}
