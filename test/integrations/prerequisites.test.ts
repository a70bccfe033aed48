// The test command's check of system programs: found through their environment variable or PATH,
// and, when missing where it may not install them, an error saying what to install, at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePrograms, findProgram, programsFor, type Program } from '../../scripts/prerequisites.js';

const absent = {
  name: 'nginx', env: 'NGINX_PATH', executables: ['tryon-no-such-program'], debianPackage: 'tryon-no-such-package',
  suites: ['node'], purpose: 'a control',
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
    assert.throws(() => ensurePrograms([absent], { mayInstall: false }),
      /Missing: nginx \(a control\)\.\nInstall them \(Debian\/Ubuntu: apt-get install -y tryon-no-such-package;.*set NGINX_PATH/s);
    assert.ok(Date.now() - started < 2000);
  } finally {
    if (saved !== undefined) process.env.NGINX_PATH = saved;
  }
});

test('each suite asks only for the programs it starts', () => {
  assert.deepEqual(programsFor(['typecheck']), []);
  assert.deepEqual(programsFor(['widget']).map((p) => p.debianPackage), ['chromium']);
  assert.deepEqual(programsFor(['e2e']).map((p) => p.debianPackage), ['chromium']);
  assert.deepEqual(programsFor(['node']).map((p) => p.debianPackage),
    ['chromium', 'php-cli', 'redis-server', 'nginx', 'mariadb-server', 'wordpress']);
});

test('a folder program (WordPress) is the folder holding its marker file, named by its variable or found where Debian puts it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tryon-folder-program-'));
  const wordpress = {
    name: 'wordpress', env: 'WORDPRESS_PATH', executables: [], folder: { candidates: [join(dir, 'nowhere')], marker: 'wp-settings.php' },
    debianPackage: 'wordpress', suites: ['node'], purpose: 'a control',
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
