// WordPress 7.1, the current release, for the plugin's suites beside Debian's 6.1 (suite
// wordpress71 in scripts/test.ts): apart from prerequisites.ts, which finds installed programs,
// since this one is unpacked into .cache/ from Debian sid and never installed on the system.
//
// The plugin claims WordPress 6.1 (bookworm's `wordpress`, installed above) as its floor and is
// tested up to the current release. Debian sid carries 7.1: its package, and the libraries its
// symlinks point at (PHPMailer, getID3, the JavaScript libraries Debian keeps out of WordPress's
// tree), are fetched with `apt-get download` through a private sources list and state folder and
// unpacked with `dpkg -x` into .cache/wordpress-<version>/, installing nothing on the system. It
// runs on bookworm's PHP 8.2 (WordPress 7.1 asks for PHP 7.4 or newer).
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const CURRENT_WORDPRESS = '7.1';
/** The environment variable that names (or overrides) the current WordPress's folder. */
export const CURRENT_WORDPRESS_ENV = 'WORDPRESS_71_PATH';
/** sid's wordpress and the packages its symlinks point into. */
const WORDPRESS_PACKAGES = [
  'wordpress',
  'libphp-phpmailer',
  'php-getid3',
  'libjs-underscore',
  'libjs-lodash',
  'libjs-jquery-ui',
  'libjs-cropper',
];

/**
 * Each symlink of an unpacked tree made absolute: into the tree when what it points at was unpacked
 * there too, else at the system's own file (a link such as wp-includes/certificates/ca-bundle.crt →
 * /etc/ssl/…). Debian's links are relative to where the package installs; the suites copy the
 * WordPress folder elsewhere, where a relative link would point at nothing.
 */
function anchorSymlinks(tree: string, folder = tree): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) anchorSymlinks(tree, path);
    else if (entry.isSymbolicLink()) {
      const installedAt = '/' + relative(tree, path);
      const target = resolve(dirname(installedAt), readlinkSync(path));
      const unpacked = join(tree, target);
      unlinkSync(path);
      symlinkSync(existsSync(unpacked) ? unpacked : target, path);
    }
  }
}

/** `folder`, once its wp-includes/version.php says it is the current release (never a version passed off as another). */
function checkedWordPress(folder: string): string {
  const file = join(folder, 'wp-includes/version.php');
  const version = /\$wp_version = '([^']+)'/.exec(existsSync(file) ? readFileSync(file, 'utf8') : '')?.[1];
  if (version !== CURRENT_WORDPRESS && !version?.startsWith(`${CURRENT_WORDPRESS}.`)) {
    throw new Error(
      `${folder} is WordPress ${version ?? '(no version)'}, not ${CURRENT_WORDPRESS}: Debian sid has moved on; ` +
        'update CURRENT_WORDPRESS in scripts/wordpress-current.ts and the plugin\'s "Tested up to" once its suites pass on it.',
    );
  }
  return folder;
}

/**
 * The folder of WordPress 7.1: WORDPRESS_71_PATH when it holds wp-settings.php, else
 * `<root>/.cache/wordpress-7.1/usr/share/wordpress`, fetched from Debian sid first (apt-get with a
 * private sources list and state, then dpkg -x). Throws, saying what to do, when that fails or
 * sid's package is another version than 7.1 (never a version passed off as another).
 */
export function currentWordPress({
  root,
  log = console.log,
  run = (command: string, args: string[], cwd: string) =>
    execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
}: {
  root: string;
  log?: (line: string) => void;
  run?: (command: string, args: string[], cwd: string) => string;
}): string {
  const fromEnv = process.env[CURRENT_WORDPRESS_ENV];
  if (fromEnv && existsSync(join(fromEnv, 'wp-settings.php'))) return checkedWordPress(fromEnv);
  const cache = join(root, '.cache', `wordpress-${CURRENT_WORDPRESS}`);
  const tree = join(cache, 'tree');
  const folder = join(tree, 'usr/share/wordpress');
  if (existsSync(join(folder, 'wp-settings.php'))) return checkedWordPress(folder);
  log(
    `Fetching WordPress ${CURRENT_WORDPRESS} from Debian sid into ${cache} (apt-get download and dpkg -x: nothing is installed; once)…`,
  );
  try {
    rmSync(cache, { recursive: true, force: true });
    for (const sub of ['state/lists/partial', 'cache/archives/partial', 'debs', 'tree'])
      mkdirSync(join(cache, sub), { recursive: true });
    const sources = join(cache, 'sources.list');
    writeFileSync(sources, 'deb http://deb.debian.org/debian sid main\n');
    const options = [
      '-o',
      `Dir::Etc::SourceList=${sources}`,
      '-o',
      'Dir::Etc::SourceParts=/dev/null',
      '-o',
      `Dir::State=${join(cache, 'state')}`,
      '-o',
      `Dir::Cache=${join(cache, 'cache')}`,
      '-o',
      'Debug::NoLocking=1',
    ];
    run('apt-get', [...options, '-qq', 'update'], cache);
    run('apt-get', [...options, '-qq', 'download', ...WORDPRESS_PACKAGES], join(cache, 'debs'));
    for (const deb of readdirSync(join(cache, 'debs')).filter((name) => name.endsWith('.deb'))) {
      run('dpkg', ['-x', join(cache, 'debs', deb), tree], cache);
    }
    rmSync(join(cache, 'state'), { recursive: true, force: true });
    rmSync(join(cache, 'cache'), { recursive: true, force: true });
    anchorSymlinks(tree);
  } catch (error) {
    throw new Error(
      `Could not fetch WordPress ${CURRENT_WORDPRESS} from Debian sid: ${(error as Error).message}. ` +
        `Set ${CURRENT_WORDPRESS_ENV} to a WordPress ${CURRENT_WORDPRESS} folder, or leave the wordpress71 suite out (npm test -- typecheck node widget e2e).`,
      { cause: error },
    );
  }
  return checkedWordPress(folder);
}
