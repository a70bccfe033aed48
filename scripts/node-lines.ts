// The other maintained Node lines the proxy's and the sandbox's suites run under (suites node22 and
// node24 in scripts/test.ts), fetched with npm itself: apart from prerequisites.ts, which finds the
// system's programs, since these come from npm into .cache/ and never from the system.
//
// Node 20 is the floor package.json declares (and what most of `npm test` runs on); 22 and 24 are
// the maintained lines a shop's server is likely to run. Their official binaries are published on
// npm as `node-<platform>-<arch>` packages, so `npm test` fetches them with npm itself (no other
// download tool, no root) into .cache/node-<major>/ once, and runs the proxy and sandbox suites
// under each (scripts/test.ts: suites node22 and node24).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isExecutable } from './prerequisites.js';

/** The Node majors the proxy and sandbox suites also run under. */
export const OTHER_NODE_MAJORS = [22, 24] as const;
export type OtherNodeMajor = (typeof OTHER_NODE_MAJORS)[number];

/** The environment variable that names (or overrides) a major's binary: NODE22_PATH, NODE24_PATH. */
export const nodeEnv = (major: OtherNodeMajor): string => `NODE${major}_PATH`;

/**
 * The path of Node `major`'s binary: NODE<major>_PATH when it names an executable, else the one in
 * `<root>/.cache/node-<major>/`, fetched there first with `npm pack node-<platform>-<arch>@<major>`
 * and unpacked with tar. Throws, saying what to do, when npm cannot fetch it.
 */
export function nodeBinary(
  major: OtherNodeMajor,
  {
    root,
    log = console.log,
    run = (command: string, args: string[], cwd: string) =>
      execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }),
  }: {
    root: string;
    log?: (line: string) => void;
    /** Runs a command in a folder and returns its output (a test hands its own). */
    run?: (command: string, args: string[], cwd: string) => string;
  },
): string {
  const fromEnv = process.env[nodeEnv(major)];
  if (fromEnv && isExecutable(fromEnv)) return fromEnv;
  const folder = join(root, '.cache', `node-${major}`);
  const binary = join(folder, 'package', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (isExecutable(binary)) return binary;
  const name = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}@${major}`;
  log(
    `Fetching Node ${major} for the proxy and sandbox suites: npm pack ${name} into ${folder} (once; later runs find it)…`,
  );
  mkdirSync(folder, { recursive: true });
  try {
    const packed = JSON.parse(run('npm', ['pack', name, '--json', '--silent'], folder)) as { filename: string }[];
    const tarball = packed[0]?.filename;
    if (!tarball) throw new Error('npm pack named no tarball');
    run('tar', ['-xzf', tarball, 'package/bin'], folder);
    rmSync(join(folder, tarball), { force: true });
  } catch (error) {
    throw new Error(
      `Could not fetch Node ${major} (${name}) with npm: ${(error as Error).message}. ` +
        `Set ${nodeEnv(major)} to a Node ${major} binary, or leave the node${major} suite out (npm test -- typecheck node widget e2e).`,
      { cause: error },
    );
  }
  if (!isExecutable(binary)) throw new Error(`npm pack ${name} unpacked no ${binary}.`);
  return binary;
}
