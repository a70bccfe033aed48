// Finds the Chromium that browser and end-to-end tests drive. Tools that download their own
// browser fail on these machines, so we use the system's, and on Debian as root we install it.
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Flags that keep Chromium quiet and working as root on a closed network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless=new',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export function findChromium(): string | undefined {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return CANDIDATES.find((path) => existsSync(path));
}

function isDebianRoot(): boolean {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const isDebian = existsSync('/etc/debian_version') ||
    (existsSync('/etc/os-release') && /debian|ubuntu/i.test(readFileSync('/etc/os-release', 'utf8')));
  return isRoot && isDebian;
}

/** Returns a Chromium path, installing Debian's package when possible; throws with advice otherwise. */
export function ensureChromium(log: (line: string) => void = console.log): string {
  const found = findChromium();
  if (found) return found;
  if (!isDebianRoot()) {
    throw new Error(
      'No Chromium found. Install Chromium (Debian/Ubuntu: apt-get install -y chromium) ' +
        'or set CHROME_PATH to a Chromium or Chrome binary, then run the tests again.',
    );
  }
  log('No Chromium found: installing Debian\'s chromium package with apt-get (needed by browser tests)…');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const installed = findChromium();
  if (!installed) throw new Error('apt-get installed chromium but no binary was found at /usr/bin/chromium.');
  log(`Chromium installed at ${installed}.`);
  return installed;
}
