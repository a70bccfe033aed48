// The build's own guarantees: the CDN build's shape and budgets, SRI hashes a browser would
// accept, the strict-CSP hazard scan, and the platform packages carrying the widget's files.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BUDGETS, buildCdn, buildIntegrations, checkBudgets, findCspHazards, measure, sriHash, type BuildResult,
} from '../../scripts/build.js';

let work: string;
let cdn: BuildResult;
let cdnMs: number;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'tryon-build-'));
  const started = performance.now();
  cdn = await buildCdn({ outDir: join(work, 'cdn'), quiet: true });
  cdnMs = performance.now() - started;
});

after(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('CDN build', () => {
  test('one entry module, one lazily imported panel chunk and the HEIC decoder the panel imports on demand, sizes measured', async () => {
    const names = cdn.files.map((f) => f.file).sort();
    assert.equal(names.length, 3, names.join(', '));
    assert.match(names[0]!, /^heic-[\w-]+\.js$/);
    assert.equal(names[1], 'tryon-button.js');
    assert.match(names[2]!, /^tryon-panel-[\w-]+\.js$/);
    const [heic, , panelChunk] = names as [string, string, string];
    for (const file of cdn.files) {
      const bytes = await readFile(join(cdn.outDir, file.file));
      assert.equal(file.bytes, bytes.length);
      assert.ok(file.gzip > 0 && file.gzip < file.bytes, `${file.file} gzip size is measured`);
    }
    const entry = await readFile(join(cdn.outDir, 'tryon-button.js'), 'utf8');
    assert.ok(entry.includes(panelChunk), 'the entry names the panel chunk');
    assert.ok(!entry.includes(heic), 'the entry does not name the HEIC decoder');
    const panel = await readFile(join(cdn.outDir, panelChunk), 'utf8');
    assert.match(panel, new RegExp(`import\\(\\s*[\`'"]\\./${heic.replace(/[.]/g, '\\.')}[\`'"]\\s*\\)`), 'the panel imports the decoder only when asked');
    const decoder = await readFile(join(cdn.outDir, heic), 'utf8');
    assert.match(decoder, /[`'"]AGFzbQEAAAAB/, 'the decoder carries its wasm inside (base64 of the wasm header)');
    assert.match(entry, /customElements/, 'the entry registers the element');
    // npm test runs with NODE_ENV=test; the shipped bytes must still be Lit's production build.
    assert.doesNotMatch(entry, /Lit is in dev mode/);
    assert.doesNotMatch(entry, /^\s*\/\/ /m, 'minified: no comments');
    assert.doesNotMatch(entry, /\n\t/, 'minified: no indented code');
  });

  test('within budget: the button ≤ 10 KB gzipped, button + panel ≤ 30 KB, the HEIC decoder on its own', () => {
    const budgets = checkBudgets(cdn);
    assert.deepEqual(budgets.problems, []);
    assert.ok(budgets.button > 1000 && budgets.button <= BUDGETS.button, `button ${budgets.button} B`);
    assert.ok(budgets.buttonAndPanel > budgets.button && budgets.buttonAndPanel <= BUDGETS.buttonAndPanel);
    // The decoder is counted on its own: button + panel is exactly those two files.
    const gzipOf = (pattern: RegExp) => cdn.files.filter((f) => pattern.test(f.file)).reduce((sum, f) => sum + f.gzip, 0);
    assert.equal(budgets.buttonAndPanel, gzipOf(/^tryon-(button|panel-[\w-]+)\.js$/));
    assert.equal(budgets.heicDecoder, gzipOf(/^heic-[\w-]+\.js$/));
    assert.ok(budgets.heicDecoder > 100_000 && budgets.heicDecoder <= BUDGETS.heicDecoder, `HEIC decoder ${budgets.heicDecoder} B`);
    console.log(`  measured: button ${budgets.button} B gz, button + panel ${budgets.buttonAndPanel} B gz, HEIC decoder ${budgets.heicDecoder} B gz, buildCdn ${Math.round(cdnMs)} ms`);
  });

  test('a build over budget is reported', () => {
    const over: BuildResult = {
      outDir: cdn.outDir,
      files: [
        { file: 'tryon-button.js', bytes: 50_000, gzip: BUDGETS.button + 1 },
        { file: 'tryon-panel-x.js', bytes: 90_000, gzip: BUDGETS.buttonAndPanel },
      ],
    };
    const problems = checkBudgets(over).problems;
    assert.equal(problems.length, 2);
    assert.match(problems[0]!, /button is \d+ B gzipped, over/);
    assert.match(problems[1]!, /button \+ panel/);
    assert.match(checkBudgets({ outDir: cdn.outDir, files: [] }).problems[0]!, /missing/);
    const heavyDecoder = checkBudgets({ outDir: cdn.outDir, files: [
      { file: 'tryon-button.js', bytes: 20_000, gzip: 7_000 },
      { file: 'heic-x.js', bytes: 3_000_000, gzip: BUDGETS.heicDecoder + 1 },
    ] });
    assert.equal(heavyDecoder.buttonAndPanel, 7_000);
    assert.deepEqual(heavyDecoder.problems.map((p) => /HEIC decoder is \d+ B gzipped, over/.test(p)), [true]);
  });

  test('the SRI hash is the sha384 a browser computes (Web Crypto) and changes with one byte', async () => {
    const path = join(cdn.outDir, 'tryon-button.js');
    const bytes = await readFile(path);
    const digest = Buffer.from(await crypto.subtle.digest('SHA-384', bytes)).toString('base64');
    assert.equal(await sriHash(path), `sha384-${digest}`);
    const altered = join(work, 'altered.js');
    await writeFile(altered, Buffer.concat([bytes, Buffer.from(' ')]));
    assert.notEqual(await sriHash(altered), await sriHash(path));
  });

  test('no strict-CSP hazard in the build; the scan does catch eval, new Function and string timers', async () => {
    assert.deepEqual(await findCspHazards(cdn.outDir), []);
    const bad = join(work, 'bad');
    await mkdir(bad, { recursive: true });
    await writeFile(join(bad, 'a.js'), 'const x = eval("1+1");');
    await writeFile(join(bad, 'b.js'), 'const f = new Function("return 1");');
    await writeFile(join(bad, 'c.js'), 'setTimeout("alert(1)", 10);');
    await writeFile(join(bad, 'd.js'), 'const ok = obj.evaluate(1); const y = retrieval(2);');
    const found = await findCspHazards(bad);
    assert.deepEqual(found.sort(), ['a.js: eval(', 'b.js: new Function(', 'c.js: a string passed to setTimeout/setInterval']);
  });

  test('measure() of the output folder matches what buildCdn reported', async () => {
    assert.deepEqual(await measure(cdn.outDir), cdn.files);
  });

  test('fast enough to run at every demo start', () => {
    assert.ok(cdnMs < 15_000, `buildCdn took ${Math.round(cdnMs)} ms`);
  });
});

describe('platform packages', () => {
  test('the Shopify extension and the WordPress plugin carry the CDN build in assets/', async () => {
    const [shopify, woocommerce] = await buildIntegrations(cdn.outDir, join(work, 'dist'));
    assert.ok(shopify && woocommerce);
    const expected = cdn.files.map((f) => f.file).sort();
    assert.deepEqual((await readdir(join(shopify, 'assets'))).sort(), expected);
    assert.deepEqual((await readdir(join(woocommerce, 'assets'))).sort(), expected);
    assert.deepEqual((await readdir(join(shopify, 'blocks'))), ['tryon-button.liquid']);
    assert.ok((await readdir(shopify)).includes('shopify.extension.toml'));
    assert.ok(!(await readdir(shopify)).some((name) => name.endsWith('.ts')), 'the proxy-side TypeScript stays out of the theme extension');
    const plugin = await readFile(join(woocommerce, 'tryon-button.php'), 'utf8');
    assert.match(plugin, /Plugin Name:\s+Virtual Try-On Button/);
    const asset = await readFile(join(woocommerce, 'assets/tryon-button.js'));
    assert.deepEqual(asset, await readFile(join(cdn.outDir, 'tryon-button.js')));
  });
});
