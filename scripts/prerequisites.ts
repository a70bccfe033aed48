// The programs the test suites start that npm cannot install: the three browser engines the
// widget's suites run in (Chromium; Firefox, as Debian's firefox-esr; WebKit, as WebKitGTK's
// WebKitWebDriver with its MiniBrowser, on an Xvfb display), PHP, Redis, nginx, MariaDB with
// WordPress for the plugin's tests in a real WordPress, and opencv-doc's photos of people for the
// photo check's tests.
// `npm test` makes sure of them before any suite runs (installing Debian's packages as root on
// Debian, otherwise saying what to install) and hands their paths to the suites in environment
// variables; a test reads its program's path with `programPath()`, which also works when the test
// file is run on its own with `node --test`. The programs fetched rather than installed are in
// node-lines.ts (Node 22 and 24, from npm) and wordpress-current.ts (WordPress 7.1, from Debian sid).
// Just over 300 lines because a third of it is PROGRAMS, the table of every program with its
// variable, names and package: one table, read whole, is clearer than one split.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface Program {
  /** What the suites call it. */
  name:
    | 'chromium'
    | 'firefox'
    | 'webkit-driver'
    | 'xvfb'
    | 'php'
    | 'redis-server'
    | 'nginx'
    | 'mariadbd'
    | 'wordpress'
    | 'opencv-data'
    | 'unzip';
  /** The environment variable that carries (or overrides) its path. */
  env:
    | 'CHROME_PATH'
    | 'FIREFOX_PATH'
    | 'WEBKIT_DRIVER_PATH'
    | 'XVFB_PATH'
    | 'PHP_PATH'
    | 'REDIS_SERVER_PATH'
    | 'NGINX_PATH'
    | 'MARIADBD_PATH'
    | 'WORDPRESS_PATH'
    | 'OPENCV_DATA_PATH'
    | 'UNZIP_PATH';
  /** Executable names looked up on PATH and in the system folders. */
  executables: string[];
  /**
   * For what is a folder of files rather than a command (WordPress): where the package installs it,
   * and a file that says the folder is it. Its environment variable then names a folder.
   */
  folder?: { candidates: string[]; marker: string };
  /** Debian's package, installed with apt-get when missing. */
  debianPackage: string;
  /** Which suites of `npm test` start it. */
  suites: ('node' | 'widget' | 'e2e' | 'node-versions')[];
  /**
   * The browser engine it serves in the widget suite, which TRYON_ENGINES may leave out (the
   * other suites that start Chromium need it whatever the widget suite's engines).
   */
  engine?: Engine;
  /** Why the tests need it, said when it is missing. */
  purpose: string;
}

/** The browser engines the widget's suites run in (scripts/browsers/engines.js). */
export type Engine = 'chromium' | 'firefox' | 'webkit';
export const ENGINES: readonly Engine[] = ['chromium', 'firefox', 'webkit'];

/**
 * The engines TRYON_ENGINES names ("firefox", "chromium,webkit"), all three when it is unset. A
 * misspelt engine is an error: it would otherwise run nothing and pass.
 */
export function engineNames(value: string | undefined): Engine[] {
  if (!value) return [...ENGINES];
  const names = value
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((name) => !(ENGINES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(
      `TRYON_ENGINES: unknown engine ${unknown.join(', ') || '(none named)'}; the engines are ${ENGINES.join(', ')}.`,
    );
  }
  return names as Engine[];
}

export const PROGRAMS: readonly Program[] = [
  {
    name: 'chromium',
    env: 'CHROME_PATH',
    executables: ['chromium', 'chromium-browser', 'google-chrome'],
    debianPackage: 'chromium',
    suites: ['node', 'widget', 'e2e'],
    engine: 'chromium',
    purpose: 'browser, packaging and end-to-end tests',
  },
  {
    name: 'firefox',
    env: 'FIREFOX_PATH',
    executables: ['firefox-esr', 'firefox'],
    debianPackage: 'firefox-esr',
    suites: ['widget'],
    engine: 'firefox',
    purpose: "the widget's browser tests in Firefox",
  },
  {
    // The package depends on libwebkit2gtk-4.1-0, which brings the MiniBrowser the driver starts.
    name: 'webkit-driver',
    env: 'WEBKIT_DRIVER_PATH',
    executables: ['WebKitWebDriver'],
    debianPackage: 'webkit2gtk-driver',
    suites: ['widget'],
    engine: 'webkit',
    purpose: "the widget's browser tests in WebKit",
  },
  {
    // WebKitGTK draws on an X display even headless; the tests start their own virtual one.
    name: 'xvfb',
    env: 'XVFB_PATH',
    executables: ['Xvfb'],
    debianPackage: 'xvfb',
    suites: ['widget'],
    engine: 'webkit',
    purpose: "a display for the widget's browser tests in WebKit",
  },
  {
    name: 'php',
    env: 'PHP_PATH',
    executables: ['php'],
    debianPackage: 'php-cli',
    suites: ['node'],
    purpose: 'the WooCommerce plugin tests',
  },
  {
    name: 'redis-server',
    env: 'REDIS_SERVER_PATH',
    executables: ['redis-server'],
    debianPackage: 'redis-server',
    suites: ['node', 'node-versions'],
    purpose: 'the shared-store tests (several proxy instances on one Redis)',
  },
  {
    name: 'nginx',
    env: 'NGINX_PATH',
    executables: ['nginx'],
    debianPackage: 'nginx',
    suites: ['node', 'node-versions'],
    purpose: 'the tests of the documented reverse-proxy set-up',
  },
  {
    // Debian puts mariadbd in /usr/sbin and mariadb-install-db, from the same package, in /usr/bin.
    name: 'mariadbd',
    env: 'MARIADBD_PATH',
    executables: ['mariadbd', 'mysqld'],
    debianPackage: 'mariadb-server',
    suites: ['node'],
    purpose: 'the WordPress plugin tests (a private database for a real WordPress)',
  },
  {
    // Debian's wordpress package also brings php-mysql (mysqli), which WordPress needs.
    name: 'wordpress',
    env: 'WORDPRESS_PATH',
    executables: [],
    folder: { candidates: ['/usr/share/wordpress'], marker: 'wp-settings.php' },
    debianPackage: 'wordpress',
    suites: ['node'],
    purpose: 'the WordPress plugin tests (a real WordPress)',
  },
  {
    // Real photos of people (and a video of people walking) for the photo check's tests: a pose or
    // face model cannot be tested on drawn figures. Read in place, never copied into the repository.
    name: 'opencv-data',
    env: 'OPENCV_DATA_PATH',
    executables: [],
    folder: { candidates: ['/usr/share/doc/opencv-doc/examples/data'], marker: 'messi5.jpg' },
    debianPackage: 'opencv-doc',
    suites: ['widget', 'e2e'],
    purpose: "the photo check's tests (real photos of people: messi5.jpg, basketball1.png, fruits.jpg)",
  },
  {
    // The release's plugin zip is read back the way WordPress's upload reads it (Info-ZIP's format).
    name: 'unzip',
    env: 'UNZIP_PATH',
    executables: ['unzip'],
    debianPackage: 'unzip',
    suites: ['node'],
    purpose: 'the release test (reading the WordPress plugin zip back)',
  },
];

// Debian puts nginx in /usr/sbin, which a non-root PATH often lacks.
const SYSTEM_FOLDERS = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/local/sbin', '/usr/sbin', '/sbin'];

export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isFolderOf(path: string, marker: string): boolean {
  return existsSync(join(path, marker));
}

/** The program's path: its environment variable if that names an executable, else PATH, else the system folders. */
export function findProgram(program: Program): string | undefined {
  const fromEnv = process.env[program.env];
  if (program.folder) {
    const { candidates, marker } = program.folder;
    return [...(fromEnv ? [fromEnv] : []), ...candidates].find((path) => isFolderOf(path, marker));
  }
  if (fromEnv && isExecutable(fromEnv)) return fromEnv;
  const folders = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...SYSTEM_FOLDERS];
  for (const executable of program.executables) {
    for (const folder of folders) {
      const path = join(folder, executable);
      if (isExecutable(path)) return path;
    }
  }
  return undefined;
}

function programNamed(name: Program['name']): Program {
  const program = PROGRAMS.find((p) => p.name === name);
  if (!program) throw new Error(`unknown program ${name}`);
  return program;
}

/**
 * For tests: the path of a program they start. Throws at once, with what to install, when it is
 * missing (`npm test` installs it first; a test file run on its own may not have it).
 */
export function programPath(name: Program['name']): string {
  const program = programNamed(name);
  const found = findProgram(program);
  if (!found) {
    throw new Error(
      `${program.name} is needed for ${program.purpose}: run \`npm test\` (it installs it on Debian as root), ` +
        `or install it (Debian/Ubuntu: apt-get install -y ${program.debianPackage}) or set ${program.env}.`,
    );
  }
  return found;
}

function runApt(args: string[]): void {
  // The suites start Redis and nginx themselves, on free loopback ports: whether Debian also
  // starts them as services (it does under systemd, not in a container) does not matter.
  // Another apt-get at the same time (unattended upgrades, a person installing) holds dpkg's lock:
  // wait for it, up to five minutes, rather than fail the whole run at once.
  execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

function isDebianRoot(): boolean {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const isDebian =
    existsSync('/etc/debian_version') ||
    (existsSync('/etc/os-release') && /debian|ubuntu/i.test(readFileSync('/etc/os-release', 'utf8')));
  return isRoot && isDebian && existsSync('/usr/bin/apt-get');
}

/** The programs these suites of `npm test` start, the widget suite running in these engines. */
export function programsFor(suites: readonly string[], engines: readonly Engine[] = ENGINES): Program[] {
  return PROGRAMS.filter((program) =>
    program.suites.some(
      (suite) => suites.includes(suite) && (suite !== 'widget' || !program.engine || engines.includes(program.engine)),
    ),
  );
}

/**
 * Finds every program in `needed`, installing the missing ones with one `apt-get update` and one
 * `apt-get install` on Debian as root. Returns their paths as environment variables for the suites;
 * throws with what to install elsewhere, or when apt-get fails.
 */
export function ensurePrograms(
  needed: readonly Program[],
  {
    log = console.log,
    mayInstall = isDebianRoot(),
    apt = runApt,
  }: {
    log?: (line: string) => void;
    mayInstall?: boolean;
    /** Runs apt-get with these arguments (a test hands its own, to see what would be run). */
    apt?: (args: string[]) => void;
  } = {},
): Record<string, string> {
  let missing = needed.filter((program) => !findProgram(program));
  if (missing.length > 0) {
    const packages = missing.map((program) => program.debianPackage);
    const what = missing.map((program) => `${program.name} (${program.purpose})`).join(', ');
    if (!mayInstall) {
      throw new Error(
        `Missing: ${what}.\nInstall them (Debian/Ubuntu: apt-get install -y ${packages.join(' ')}; elsewhere your system's ` +
          `packages of the same names) or set ${missing.map((program) => program.env).join(', ')} to their paths, then run the tests again.`,
      );
    }
    log(`Missing: ${what}.\nInstalling Debian's ${packages.join(', ')} with apt-get (once; later runs find them)…`);
    const started = Date.now();
    try {
      apt(['update', '-qq']);
      apt(['install', '-y', '-qq', ...packages]);
    } catch (error) {
      throw new Error(`apt-get could not install ${packages.join(' ')}: ${(error as Error).message}`, { cause: error });
    }
    missing = missing.filter((program) => !findProgram(program));
    if (missing.length > 0) {
      throw new Error(`apt-get ran but ${missing.map((program) => program.name).join(', ')} is still not found.`);
    }
    log(`Installed ${packages.join(', ')} in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  }
  return Object.fromEntries(needed.map((program) => [program.env, findProgram(program)!]));
}
