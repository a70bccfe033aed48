// A real WordPress for the plugin's tests: Debian's WordPress (6.1) copied into a temporary folder
// with its own wp-config.php (WP_DEBUG on, the debug log in that folder), a private MariaDB on a
// Unix socket in the same folder (no port, no system service, no password), served by
// `php -S 127.0.0.1:0`, with the plugin installed from the release's zip by WordPress's own
// upgrader (what its Upload Plugin screen runs; the widget's build in the plugin's assets/), a minimal classic theme and the WooCommerce stand-in (./woocommerce-stand-in.php, a
// must-use plugin) installed, and WordPress's update checks off (./offline.php: no Internet).
// Ports of the tests' own loopback servers are allowed to wp_safe_remote_get (./safe-ports.php).
// `{ multisite: true }` makes it a network (subdirectories) of two sites, the second at /second/;
// `{ workers: 1 }` serves it as small hostings and `php -S` alone do, one request at a time.
// `close()` stops both servers and removes the folder. mariadbd, WordPress and PHP are found as `npm test` finds them
// (scripts/prerequisites.ts), which installs Debian's packages when they are missing.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { programPath } from '../../../scripts/prerequisites.js';
import { buildIntegrations } from '../../../scripts/build.js';
import { cachedCdnBuild } from '../../../scripts/kept-builds.js';
import { wordpressZip } from '../../../scripts/release.js';
import { waitForOutput } from '../../process-output.js';

const here = fileURLToPath(new URL('.', import.meta.url));
export const PLUGIN_FILE = 'tryon-button/tryon-button.php';
export const ADMIN = { user: 'admin', password: 'a-test-password-only' } as const;

export interface PhpResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface WordPress {
  /** http://127.0.0.1:<port> */
  url: string;
  root: string;
  /** WP_DEBUG_LOG's file ('' until something is logged). */
  debugLog(): Promise<string>;
  /** Runs PHP with WordPress loaded (as a request for the home page); resolves with what it printed. */
  php(code: string): Promise<string>;
  /** A browser-like client logged in as the administrator. */
  admin(): Promise<Session>;
  /** A browser-like client logged in as that user. */
  logIn(user: string, password: string): Promise<Session>;
  /** Lets wp_safe_remote_get call this loopback port, as a site's owner would with http_allowed_safe_ports. */
  allowPort(port: number): Promise<void>;
  close(): Promise<void>;
}

/** A program run to its end with `input` on its standard input: its exit code and output. */
export function run(
  file: string,
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<PhpResult> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { timeout: options.timeoutMs ?? 30_000, env: options.env ?? process.env, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, stdout, stderr });
      },
    );
    // A program that ends without reading its input (php -l) closes the pipe first: EPIPE is
    // not a failure, its exit code and output say how it went.
    child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
    child.stdin?.end(options.input ?? '');
  });
}

/** Stops the process, and its whole group when it was started detached (php -S and its workers). */
async function stop(child: ChildProcess | undefined, group = false): Promise<void> {
  if (!child || child.pid === undefined) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      if (group) process.kill(-child.pid!, name);
      else child.kill(name);
    } catch {
      /* already gone */
    }
  };
  const running = child.exitCode === null && child.signalCode === null;
  const exited = running ? new Promise((resolve) => child.once('exit', resolve)) : Promise.resolve();
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
  // The workers may take a moment longer than their parent.
  if (group) signal('SIGKILL');
}

/** mariadb-install-db comes with mariadbd (Debian: /usr/bin next to /usr/sbin/mariadbd). */
function installDbPath(mariadbd: string): string {
  const folders = [
    dirname(mariadbd),
    join(dirname(mariadbd), '../bin'),
    ...(process.env.PATH ?? '').split(':'),
    '/usr/bin',
    '/usr/local/bin',
  ];
  for (const folder of folders) {
    for (const name of ['mariadb-install-db', 'mysql_install_db']) {
      if (existsSync(join(folder, name))) return join(folder, name);
    }
  }
  throw new Error(`mariadb-install-db not found next to ${mariadbd}: install Debian's mariadb-server`);
}

/** No mail leaves the machine (WordPress mails the admin on install): sendmail is /bin/true. */
const PHP_SETTINGS = ['-d', 'sendmail_path=/bin/true'];

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** A private MariaDB listening only on a Unix socket in `dir`. */
async function startMariaDb(dir: string): Promise<{ socket: string; child: ChildProcess }> {
  const mariadbd = programPath('mariadbd');
  const datadir = join(dir, 'data');
  const socket = join(dir, 'mysql.sock');
  // Its own temporary folder, not /tmp: a bootstrap beside another site's once lost an internal
  // temporary table from /tmp mid-install ("Error on delete of '/tmp/#sql-temptable-…'").
  const temporary = join(dir, 'tmp');
  await mkdir(temporary);
  // mariadbd refuses to run as root unless told to; as anyone else it runs as that user.
  const user = isRoot ? ['--user=root'] : [];
  const install = await run(
    installDbPath(mariadbd),
    [
      '--no-defaults',
      `--datadir=${datadir}`,
      `--tmpdir=${temporary}`,
      ...user,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      '--skip-name-resolve',
    ],
    { timeoutMs: 60_000 },
  );
  if (install.code !== 0) throw new Error(`mariadb-install-db failed:\n${install.stdout}\n${install.stderr}`);
  const child = spawn(
    mariadbd,
    [
      '--no-defaults',
      `--datadir=${datadir}`,
      `--tmpdir=${temporary}`,
      `--socket=${socket}`,
      '--skip-networking',
      ...user,
      `--pid-file=${join(dir, 'mariadbd.pid')}`,
      '--skip-log-bin',
      '--skip-name-resolve',
      '--innodb-buffer-pool-size=16M',
      '--innodb-log-file-size=8M',
      '--performance-schema=OFF',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await waitForOutput(child, /ready for connections/, 30_000, 'mariadbd');
  return { socket, child };
}

/**
 * The site's secret keys, made once: the network's wp-config.php must keep them, or a cookie signed
 * before it was written stops being valid after.
 */
function siteKeys(): string[] {
  const keys = [
    'AUTH_KEY',
    'SECURE_AUTH_KEY',
    'LOGGED_IN_KEY',
    'NONCE_KEY',
    'AUTH_SALT',
    'SECURE_AUTH_SALT',
    'LOGGED_IN_SALT',
    'NONCE_SALT',
  ];
  return keys.map((key) => `define( '${key}', '${randomBytes(32).toString('hex')}' );`);
}

function wpConfig(socket: string, debugLog: string, keys: string[], extra: string[] = []): string {
  return [
    '<?php',
    "define( 'DB_NAME', 'wordpress' );",
    "define( 'DB_USER', 'root' );",
    "define( 'DB_PASSWORD', '' );",
    `define( 'DB_HOST', ${JSON.stringify(`localhost:${socket}`)} );`,
    "define( 'DB_CHARSET', 'utf8mb4' );",
    "define( 'DB_COLLATE', '' );",
    ...keys,
    "$table_prefix = 'wp_';",
    "define( 'WP_DEBUG', true );",
    `define( 'WP_DEBUG_LOG', ${JSON.stringify(debugLog)} );`,
    "define( 'WP_DEBUG_DISPLAY', false );",
    // Offline, and nothing here should run in the background of a request.
    "define( 'WP_HTTP_BLOCK_EXTERNAL', true );",
    "define( 'DISABLE_WP_CRON', true );",
    "define( 'AUTOMATIC_UPDATER_DISABLED', true );",
    "define( 'WP_AUTO_UPDATE_CORE', false );",
    ...extra,
    "if ( ! defined( 'ABSPATH' ) ) { define( 'ABSPATH', __DIR__ . '/' ); }",
    "require_once ABSPATH . 'wp-settings.php';",
    '',
  ].join('\n');
}

/** Starts the site. The plugin is installed, not activated. */
export async function startWordPress(options: { multisite?: boolean; workers?: number } = {}): Promise<WordPress> {
  const php = programPath('php');
  const wordpress = programPath('wordpress');
  const dir = await mkdtemp(join(tmpdir(), 'tryon-wordpress-'));
  let database: ChildProcess | undefined;
  let server: ChildProcess | undefined;
  try {
    const db = await startMariaDb(dir);
    database = db.child;
    const root = join(dir, 'site');
    const debugLog = join(dir, 'debug.log');
    // Debian's wp-config.php reads /etc/wordpress; its wp-content holds the site's own files.
    await cp(wordpress, root, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (path) =>
        path !== join(wordpress, 'wp-config.php') &&
        path !== join(wordpress, 'wp-content') &&
        !path.startsWith(join(wordpress, 'wp-content/')),
    });
    for (const folder of ['plugins', 'mu-plugins', 'themes', 'uploads'])
      await mkdir(join(root, 'wp-content', folder), { recursive: true });
    const cdn = await cachedCdnBuild(join(dir, 'build/cdn'));
    const [, plugin] = await buildIntegrations(cdn.outDir, join(dir, 'build'));
    // The release's zip, installed below by WordPress's own upgrader, as its Upload Plugin screen does.
    const zip = join(dir, 'tryon-button-wordpress.zip');
    await writeFile(zip, await wordpressZip(plugin!));
    await cp(join(here, 'theme'), join(root, 'wp-content/themes/tryon-test'), { recursive: true });
    for (const muPlugin of ['woocommerce-stand-in.php', 'offline.php', 'safe-ports.php'])
      await cp(join(here, muPlugin), join(root, 'wp-content/mu-plugins', muPlugin));
    // The upgrader writes plugins straight to disk, as on a host where PHP owns wp-content.
    const keys = siteKeys();
    const fsMethod = "define( 'FS_METHOD', 'direct' );";
    await writeFile(join(root, 'wp-config.php'), wpConfig(db.socket, debugLog, keys, [fsMethod]));

    // Several workers unless asked: the tests ask the server for /tryon/health through admin-ajax.php,
    // which then asks this same server.
    // Its own process group: the workers outlive their parent, so stopping means stopping the group.
    // OPcache looks at a file's time at most every revalidate_freq seconds: a worker that served the
    // install's own request (WordPress asks its front page) would go on running the single-site
    // wp-config.php, other keys and all, after the network's was written. Every request looks here.
    // (A file younger than file_update_protection is never cached, so the two versions, seconds
    // apart, cannot share a time.)
    const opcache = ['-d', 'opcache.revalidate_freq=0'];
    server = spawn(php, [...PHP_SETTINGS, ...opcache, '-S', '127.0.0.1:0', '-t', root], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: String(options.workers ?? 4) },
      detached: true,
    });
    const started = await waitForOutput(
      server,
      /Development Server \((http:\/\/127\.0\.0\.1:\d+)\) started/,
      15_000,
      'php -S',
    );
    const url = started[1]!;
    // Its request log is not needed; reading it keeps the pipe from filling.
    server.stdout?.resume();
    server.stderr?.resume();

    const runPhp = async (code: string, extraHead = ''): Promise<string> => {
      const script = join(dir, `script-${randomBytes(6).toString('hex')}.php`);
      const host = new URL(url).host;
      await writeFile(
        script,
        [
          '<?php',
          `$_SERVER['HTTP_HOST'] = ${JSON.stringify(host)}; $_SERVER['SERVER_NAME'] = '127.0.0.1'; $_SERVER['REQUEST_URI'] = '/'; $_SERVER['SERVER_PORT'] = ${JSON.stringify(new URL(url).port)};`,
          extraHead,
          `require ${JSON.stringify(join(root, 'wp-load.php'))};`,
          code,
          '',
        ].join('\n'),
      );
      const result = await run(
        php,
        [...PHP_SETTINGS, '-d', 'display_errors=stderr', '-d', 'error_reporting=-1', script],
        { timeoutMs: 30_000 },
      );
      await rm(script, { force: true });
      if (result.code !== 0 || result.stderr !== '')
        throw new Error(`PHP failed (${result.code}):\n${result.stderr}\n${result.stdout}`);
      return result.stdout;
    };

    await runPhp(
      `
      require_once ABSPATH . 'wp-admin/includes/upgrade.php';
      $installed = wp_install( 'Saree House', ${JSON.stringify(ADMIN.user)}, 'admin@shop.example', false, '', ${JSON.stringify(ADMIN.password)} );
      update_option( 'siteurl', ${JSON.stringify(url)} );
      update_option( 'home', ${JSON.stringify(url)} );
      switch_theme( 'tryon-test' );
      echo $installed['user_id'];
    `,
      `define( 'WP_INSTALLING', true );
      $wpdb_link = new mysqli( 'localhost', 'root', '', '', 0, ${JSON.stringify(db.socket)} );
      $wpdb_link->query( 'CREATE DATABASE IF NOT EXISTS wordpress CHARACTER SET utf8mb4' );
      $wpdb_link->close();`,
    );
    // What wp-admin/update.php?action=upload-plugin does with an uploaded zip, minus the form:
    // Plugin_Upgrader::install() unpacks it (ZipArchive or PclZip) into wp-content/plugins/.
    await runPhp(`
      require_once ABSPATH . 'wp-admin/includes/file.php';
      require_once ABSPATH . 'wp-admin/includes/misc.php';
      require_once ABSPATH . 'wp-admin/includes/plugin.php';
      require_once ABSPATH . 'wp-admin/includes/class-wp-upgrader.php';
      wp_set_current_user( 1 );
      WP_Filesystem();
      $skin = new Automatic_Upgrader_Skin();
      $result = ( new Plugin_Upgrader( $skin ) )->install( ${JSON.stringify(zip)} );
      if ( true !== $result ) {
        fwrite( STDERR, 'Upload Plugin refused the zip: ' . ( is_wp_error( $result ) ? $result->get_error_message() : implode( ' ', $skin->get_upgrade_messages() ) ) );
      }
    `);
    if (!existsSync(join(root, 'wp-content/plugins', PLUGIN_FILE)))
      throw new Error(`the uploaded zip did not install ${PLUGIN_FILE}`);
    if (options.multisite)
      await makeNetwork(runPhp, root, new URL(url).host, (constants) =>
        wpConfig(db.socket, debugLog, keys, [fsMethod, ...constants]),
      );

    return {
      url,
      root,
      debugLog: async () => (existsSync(debugLog) ? readFile(debugLog, 'utf8') : ''),
      php: (code) => runPhp(code),
      admin: () => logIn(url, ADMIN.user, ADMIN.password),
      logIn: (user, password) => logIn(url, user, password),
      allowPort: async (port) => {
        await runPhp(
          `$ports = (array) get_option( 'tryon_test_safe_ports', array() ); $ports[] = ${port}; update_option( 'tryon_test_safe_ports', array_values( array_unique( $ports ) ) );`,
        );
      },
      close: async () => {
        await stop(server, true);
        await stop(database);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stop(server, true);
    await stop(database);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The site becomes a network the way network.php's instructions make one: the global tables, the
 * network's row, then the constants in wp-config.php; then a second site at /second/.
 */
async function makeNetwork(
  runPhp: (code: string) => Promise<string>,
  root: string,
  host: string,
  config: (constants: string[]) => string,
): Promise<void> {
  await runPhp(`
    require_once ABSPATH . 'wp-admin/includes/upgrade.php';
    // As network.php does: a single site's $wpdb does not name the network's tables.
    foreach ( $wpdb->tables( 'ms_global' ) as $table => $prefixed ) { $wpdb->$table = $prefixed; }
    install_network();
    $result = populate_network( 1, ${JSON.stringify(host)}, 'admin@shop.example', 'Saree House', '/', false );
    if ( is_wp_error( $result ) ) { fwrite( STDERR, $result->get_error_message() ); }
  `);
  const constants = [
    "define( 'MULTISITE', true );",
    "define( 'SUBDOMAIN_INSTALL', false );",
    `define( 'DOMAIN_CURRENT_SITE', ${JSON.stringify(host)} );`,
    "define( 'PATH_CURRENT_SITE', '/' );",
    "define( 'SITE_ID_CURRENT_SITE', 1 );",
    "define( 'BLOG_ID_CURRENT_SITE', 1 );",
  ];
  await writeFile(join(root, 'wp-config.php'), config(constants));
  await runPhp(`
    $site = wp_insert_site( array( 'domain' => ${JSON.stringify(host)}, 'path' => '/second/', 'title' => 'Second shop', 'user_id' => 1 ) );
    if ( is_wp_error( $site ) ) { fwrite( STDERR, $site->get_error_message() ); }
  `);
}

/** A cookie jar and the requests an administrator's browser would make (redirects followed by hand). */
export class Session {
  private readonly cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (/expires=Thu, 01[- ]Jan[- ]1970|max-age=0/i.test(line) || value === 'deleted') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  /** The cookies, to hand the session to Chromium or to PHP. */
  cookieList(): { name: string; value: string }[] {
    return [...this.cookies].map(([name, value]) => ({ name, value }));
  }

  /** One request, no redirect followed. */
  async request(
    path: string,
    init: {
      method?: string;
      form?: Record<string, string | string[]>;
      json?: unknown;
      headers?: Record<string, string>;
    } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = {
      ...init.headers,
      cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    };
    let body: string | undefined;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] = 'application/json';
    } else if (init.form) {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(init.form)) {
        for (const one of Array.isArray(value) ? value : [value]) params.append(name, one);
      }
      body = params.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const response = await fetch(new URL(path, this.base), {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    this.remember(response);
    return response;
  }

  /** The request, then its redirects (as GETs); resolves with the last response and its text. */
  async follow(
    path: string,
    init: Parameters<Session['request']>[1] = {},
  ): Promise<{ response: Response; url: string; text: string }> {
    let url = new URL(path, this.base).href;
    let response = await this.request(url, init);
    for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 5; hops++) {
      await response.arrayBuffer();
      url = new URL(response.headers.get('location')!, url).href;
      response = await this.request(url);
    }
    return { response, url, text: await response.text() };
  }
}

async function logIn(base: string, user: string, password: string): Promise<Session> {
  const session = new Session(base);
  session.setCookie('wordpress_test_cookie', 'WP%20Cookie%20check');
  const { response, text } = await session.follow('/wp-login.php', {
    form: { log: user, pwd: password, 'wp-submit': 'Log In', redirect_to: `${base}/wp-admin/`, testcookie: '1' },
  });
  if (response.status !== 200 || !/id="wpadminbar"|wp-admin-bar/.test(text)) {
    throw new Error(`logging in as ${user} failed: HTTP ${response.status}\n${text.slice(0, 2000)}`);
  }
  return session;
}
