// `npm run release`'s parts (scripts/release.ts, scripts/zip.ts): the platform zips open with
// Info-ZIP's unzip (what WordPress's upload reads the same way: one top-level folder, every file
// intact), the checksums are sha256sum's, and the release note is the changelog's newest section.
// The whole release (npm pack --workspaces with each prepack) runs from a clean clone before a
// release, as docs/architecture.md says: it builds into the packages' own folders.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCdn, buildIntegrations, jsdelivrBase, listFiles, projectRoot, sriHash } from '../../scripts/build.js';
import { cachedCdnBuild } from '../../scripts/kept-builds.js';
import { checksums, newestSection, pinningSection } from '../../scripts/release.js';
import { zipFolder } from '../../scripts/zip.js';

let work: string;

function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({
        code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
        output: `${stdout}${stderr}${error && !stdout && !stderr ? String(error) : ''}`,
      });
    });
  });
}

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'tryon-release-'));
});

after(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('release artifacts', () => {
  test('the WordPress plugin zip: one top-level folder tryon-button/, every file byte for byte, the built widget inside', async () => {
    const cdn = await buildCdn({ outDir: join(work, 'cdn'), quiet: true });
    const [, plugin] = await buildIntegrations(cdn.outDir, join(work, 'dist'));
    const zip = join(work, 'tryon-button-wordpress.zip');
    await writeFile(zip, await zipFolder(plugin!, 'tryon-button'));
    // unzip is Info-ZIP's, the format WordPress's ZipArchive and PclZip read.
    const unzip = process.env.UNZIP_PATH ?? 'unzip';
    const tested = await run(unzip, ['-t', zip], work);
    if (/ENOENT/.test(tested.output) || tested.code === -2)
      assert.fail('Info-ZIP unzip is needed for this test (Debian: apt-get install -y unzip)');
    assert.equal(tested.code, 0, tested.output);
    assert.match(tested.output, /No errors detected/);
    const listed = await run(unzip, ['-Z1', zip], work);
    const names = listed.output.trim().split('\n');
    assert.ok(
      names.every((name) => name.startsWith('tryon-button/')),
      `one top-level folder: ${names.filter((n) => !n.startsWith('tryon-button/')).join(', ')}`,
    );
    assert.ok(
      names.includes('tryon-button/tryon-button.php') && names.includes('tryon-button/assets/tryon-button.js'),
      names.join(', '),
    );
    const out = join(work, 'unzipped');
    assert.equal((await run(unzip, ['-q', zip, '-d', out], work)).code, 0);
    const original = await listFiles(plugin!);
    assert.equal(names.filter((n) => !n.endsWith('/')).length, original.length);
    for (const path of original) {
      assert.deepEqual(
        await readFile(join(out, 'tryon-button', path.slice(plugin!.length + 1))),
        await readFile(path),
        path,
      );
    }
    // The same files make the same bytes: the checksum of a release can be reproduced.
    assert.deepEqual(await zipFolder(plugin!, 'tryon-button'), await readFile(zip));
  });

  test("the release note's pinning section: the jsDelivr snippet with this build's hashes, refused for a build its map does not match", async () => {
    const cdn = await cachedCdnBuild(join(work, 'cdn-pinned'));
    const section = await pinningSection(cdn.outDir, '0.1.0');
    const entry = `${jsdelivrBase('0.1.0')}tryon-button.js`;
    assert.ok(
      section.includes(
        `<script type="module" src="${entry}" integrity="${await sriHash(join(cdn.outDir, 'tryon-button.js'))}" crossorigin="anonymous"></script>`,
      ),
      section,
    );
    const panel = cdn.files.find((f) => /^tryon-panel-[\w-]+\.js$/.test(f.file))!.file;
    assert.ok(section.includes(`"${jsdelivrBase('0.1.0')}${panel}": "${await sriHash(join(cdn.outDir, panel))}"`));
    assert.match(section, /allows the inline map with `'sha256-[\w+/=]+'` in `script-src`/);
    await writeFile(join(cdn.outDir, panel), `${await readFile(join(cdn.outDir, panel), 'utf8')};\n`);
    await assert.rejects(
      pinningSection(cdn.outDir, '0.1.0'),
      new RegExp(`does not pin the CDN build:\\n${panel.replace('.', '\\.')} does not match`),
    );
  });

  test('SHA256SUMS is what sha256sum -c accepts, and a changed byte fails it', async () => {
    await writeFile(join(work, 'a.tgz'), 'first');
    await writeFile(join(work, 'b.zip'), 'second');
    await writeFile(join(work, 'SHA256SUMS'), await checksums(work, ['a.tgz', 'b.zip']));
    const ok = await run('sha256sum', ['-c', 'SHA256SUMS'], work);
    assert.equal(ok.code, 0, ok.output);
    assert.match(ok.output, /a\.tgz: OK\nb\.zip: OK/);
    await writeFile(join(work, 'b.zip'), 'changed');
    assert.notEqual((await run('sha256sum', ['-c', 'SHA256SUMS'], work)).code, 0);
  });

  test("the release note is the newest section of CHANGELOG.md, and its version is every package's", async () => {
    const sample = '# Changelog\n\nIntro.\n\n## 0.2.0 — 2026-12-01\n\n- New.\n\n## 0.1.0\n\n- Old.\n';
    assert.deepEqual(newestSection(sample), { version: '0.2.0', text: '## 0.2.0 — 2026-12-01\n\n- New.' });
    assert.deepEqual(newestSection('## [1.0.0]\n- Only.\n'), { version: '1.0.0', text: '## [1.0.0]\n- Only.' });
    assert.throws(() => newestSection('# Changelog\n\nNothing yet.\n'), /no "## <version>" section/);
    const { version } = newestSection(await readFile(join(projectRoot, 'CHANGELOG.md'), 'utf8'));
    for (const folder of ['widget', 'proxy', 'sandbox']) {
      const manifest = JSON.parse(await readFile(join(projectRoot, folder, 'package.json'), 'utf8')) as {
        version: string;
      };
      assert.equal(manifest.version, version, `${folder}/package.json`);
    }
  });
});
