// The build's own guarantees: the CDN build's shape and budgets, SRI hashes a browser would
// accept, the import map that pins every script and the check that fails the build when it does
// not, the strict-CSP hazard scan, and the platform packages carrying the widget's files.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BUDGETS,
  baseOf,
  buildCdn,
  buildIntegrations,
  checkBase,
  checkBudgets,
  checkWrittenImportMap,
  findCspHazards,
  IMPORT_MAP_FILE,
  importMapFor,
  importMapSnippet,
  jsdelivrBase,
  measure,
  sriHash,
  widgetPackage,
  writeImportMap,
  type BuildResult,
  type ImportMap,
} from '../../scripts/build.js';
import { firstScriptOf, graphOf, reachableFrom } from '../../scripts/module-graph.js';
import { cachedCdnBuild, sourcesKey } from '../../scripts/kept-builds.js';

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

/** The photo check's worker and the files it fetches: loaded by `new Worker` and fetch, not by an import. */
const byTheCheckWorker = (name: string) => /^photo-check-(worker\.js|[\w-]+\.(json|bin|wasm))$/.test(name);
/** The photo preparation's worker and its chunks: started by URL (photo.ts), not imported. */
const byThePrepWorker = (name: string) => /^photo-prep-[\w.-]+\.js$/.test(name);
/** Read by the shop's page (pasted into its head), never fetched by the widget. */
const isImportMap = (name: string) => name === IMPORT_MAP_FILE;

describe('CDN build', () => {
  test('an entry, the core chunk it imports once the page has loaded, a lazily imported panel chunk and a HEIC decoder imported on demand, sizes measured', async () => {
    const names = cdn.files.map((f) => f.file).sort();
    const entryName = 'tryon-button.js';
    const cores = names.filter((name) => /^tryon-core-[\w-]+\.js$/.test(name));
    const panels = names.filter((name) => /^tryon-panel-[\w-]+\.js$/.test(name));
    assert.ok(names.includes(entryName), names.join(', '));
    assert.equal(cores.length, 1, names.join(', '));
    assert.equal(panels.length, 1, names.join(', '));
    const [core, panel] = [cores[0]!, panels[0]!];
    const heics = names.filter((name) => /^heic-[\w-]+\.js$/.test(name));
    assert.equal(heics.length, 1, names.join(', '));
    const heic = heics[0]!;
    for (const file of cdn.files) {
      const bytes = await readFile(join(cdn.outDir, file.file));
      assert.equal(file.bytes, bytes.length);
      assert.ok(file.gzip > 0 && file.gzip < file.bytes, `${file.file} gzip size is measured`);
    }
    const graph = graphOf(cdn.outDir);
    // The largest paint: the entry fetches nothing while the page loads; it imports the core, and only
    // the core, once the page has loaded.
    assert.deepEqual(graph.staticImports(entryName), [], 'the entry imports nothing at once');
    assert.deepEqual(graph.dynamicImports(entryName), [core], 'the entry imports the core, and nothing else, later');
    // The bundler's small runtime chunk (module namespaces) comes with the core when the core uses it.
    const runtime = graph.staticImports(core).filter((name) => /^rolldown-runtime-[\w-]+\.js$/.test(name));
    assert.deepEqual(
      graph.staticImports(core).filter((name) => !runtime.includes(name)),
      [],
      'the core imports nothing else at once',
    );
    assert.deepEqual(
      [...firstScriptOf(graph, entryName)].sort(),
      [entryName, core, ...runtime].sort(),
      'the first script is the entry and the core',
    );
    assert.ok(graph.dynamicImports(core).includes(panel), 'the core imports the panel on demand');
    assert.ok(graph.staticImports(panel).includes(core), 'the panel shares the core');
    // The entry is loaded with whatever query the shop adds (?ver=, ?v=): a chunk that imported
    // it by its plain name would load a second copy of the widget and of Lit.
    for (const chunk of names.filter((name) => name !== entryName)) {
      assert.ok(
        !graph.staticImports(chunk).includes(entryName) && !graph.dynamicImports(chunk).includes(entryName),
        `${chunk} never imports the entry`,
      );
    }
    // And every chunk is one the entry can reach: nothing built for nobody. The photo check's worker
    // is named by the check's chunk, and the worker names its models and wasm.
    assert.deepEqual(
      [...reachableFrom(graph, entryName)].sort(),
      names.filter((name) => !byTheCheckWorker(name) && !byThePrepWorker(name) && !isImportMap(name)),
    );
    const photoChunk = names.find((name) => /^tryon-panel-[\w-]+\.js$/.test(name))!;
    assert.match(
      await readFile(join(cdn.outDir, photoChunk), 'utf8'),
      /\.\/photo-prep-worker\.js/,
      'the panel starts the photo worker beside itself',
    );
    const prepWorker = await readFile(join(cdn.outDir, 'photo-prep-worker.js'), 'utf8');
    // libheif is shipped once: the worker fetches the page's own chunk rather than a copy of its own.
    const heicChunk = names.find((name) => /^heic-[\w-]+\.js$/.test(name))!;
    assert.ok(prepWorker.includes(`import("./${heicChunk}")`), `the worker imports ${heicChunk}`);
    assert.deepEqual(
      names.filter((name) => /heic/.test(name)),
      [heicChunk],
      'one libheif chunk in the build',
    );
    assert.doesNotMatch(
      prepWorker,
      /\bimport\s*\{[^}]*\}\s*from\s*['"]\.\/(tryon|heic-)/,
      'the worker imports nothing of the page statically',
    );
    const checkChunk = names.find((name) => /^photo-check-[\w-]+\.js$/.test(name) && !byTheCheckWorker(name))!;
    assert.match(await readFile(join(cdn.outDir, checkChunk), 'utf8'), /\.\/photo-check-worker\.js/);
    const worker = await readFile(join(cdn.outDir, 'photo-check-worker.js'), 'utf8');
    for (const file of names.filter((name) => byTheCheckWorker(name) && /\.(json|wasm)$/.test(name)))
      assert.ok(worker.includes(file), `the worker fetches ${file}`);
    const entry = await readFile(join(cdn.outDir, entryName), 'utf8');
    assert.ok(!firstScriptOf(graph, entryName).has(heic), 'the first script does not carry the HEIC decoder');
    const importers = names.filter((name) => graph.dynamicImports(name).includes(heic));
    assert.ok(
      importers.length > 0 && importers.every((name) => !firstScriptOf(graph, entryName).has(name) || name === core),
      'the decoder is imported only on demand',
    );
    const coreText = await readFile(join(cdn.outDir, core), 'utf8');
    const decoder = await readFile(join(cdn.outDir, heic), 'utf8');
    assert.match(decoder, /[`'"]AGFzbQEAAAAB/, 'the decoder carries its wasm inside (base64 of the wasm header)');
    assert.match(entry, /addEventListener\(`load`/, "the entry waits for the page's load");
    assert.match(coreText, /customElements/, 'the core registers the element');
    assert.ok(cdn.files.find((f) => f.file === entryName)!.gzip < 512, 'the entry is only the wait');
    // npm test runs with NODE_ENV=test; the shipped bytes must still be Lit's production build.
    assert.doesNotMatch(coreText, /Lit is in dev mode/);
    assert.doesNotMatch(coreText, /^\s*\/\/ /m, 'minified: no comments');
    assert.doesNotMatch(coreText, /\n\t/, 'minified: no indented code');
    // The styles' CSS is minified too (vite.config.ts): no comment, no indent, rules intact.
    const panelText = await readFile(join(cdn.outDir, panel), 'utf8');
    for (const [name, text] of [
      ['core', coreText],
      ['panel', panelText],
    ] as const) {
      assert.doesNotMatch(text, /:host\s*\{\s*\n/, `${name}: the styles are not shipped as written`);
      assert.doesNotMatch(text, /\/\* --_accent|\/\* A bottom sheet/, `${name}: no CSS comment is shipped`);
    }
    assert.match(panelText, /dialog\.sheet\{width: ?100%;max-width: ?100%;/, "the panel's rules survive minification");
    // The registrations are side effects the bundler must keep (widget/package.json `sideEffects`):
    // without them the button renders and its dialog never opens.
    assert.match(panelText, /customElements\.define\(`tryon-panel`/, 'the panel chunk registers <tryon-panel>');
    assert.match(
      coreText,
      /customElements\.define\(/,
      'the core registers <tryon-button> (the entry only waits for load)',
    );
  });

  test('within budget: the first script ≤ 10 KB gzipped, button + panel ≤ 43 KB, the HEIC decoder and the models and hand-off on their own', () => {
    const budgets = checkBudgets(cdn);
    assert.deepEqual(budgets.problems, []);
    const core = cdn.files.map((f) => f.file).find((f) => /^tryon-core-[\w-]+\.js$/.test(f))!;
    assert.deepEqual(budgets.firstScript.sort(), [...firstScriptOf(graphOf(cdn.outDir), 'tryon-button.js')].sort());
    assert.ok(
      budgets.firstScript.includes('tryon-button.js') && budgets.firstScript.includes(core),
      'the first script counts the entry and the core it imports',
    );
    assert.ok(budgets.button > 1000 && budgets.button <= BUDGETS.button, `button ${budgets.button} B`);
    assert.ok(budgets.buttonAndPanel > budgets.button && budgets.buttonAndPanel <= BUDGETS.buttonAndPanel);
    // The decoder is counted on its own, and of the dictionaries other than English only the
    // largest, since a page fetches at most one: button + panel is every other script.
    const gzipOf = (pattern: RegExp) =>
      cdn.files.filter((f) => f.file.endsWith('.js') && pattern.test(f.file)).reduce((sum, f) => sum + f.gzip, 0);
    const largestDictionary = Math.max(
      ...cdn.files.filter((f) => /^(?!en-)[a-z]{2,3}-[\w-]+\.js$/.test(f.file)).map((f) => f.gzip),
    );
    // The photo check is counted apart too (bytes on disk, its own budget).
    assert.ok(
      budgets.photoCheck > 500_000 && budgets.photoCheck <= BUDGETS.photoCheckOnDisk,
      `photo check ${budgets.photoCheck} B`,
    );
    // So is the photo preparation: its worker, or the same steps as a chunk of their own where no worker can run.
    // The models' and hand-off's screens and the QR code library are fetched only when asked for: budgeted apart.
    assert.equal(
      budgets.buttonAndPanel,
      gzipOf(
        /^(?!heic-)(?!photo-check-)(?!photo-prep-)(?!photo-pipeline-)(?!check-[a-z]{2,3}-)(?!(alternatives|nano|svg)-)(?!look-)(?!outfit-[a-z]{2,3}-)(?!(?!en-)[a-z]{2,3}-[\w-]+\.js$)/,
      ) + largestDictionary,
    );
    assert.equal(budgets.alternatives, gzipOf(/^(alternatives|nano|svg)-[\w-]+\.js$/));
    // "Complete the look" is fetched only for a product with pieces: its chunk and one language's words, budgeted apart.
    const largestOutfitWords = Math.max(
      ...cdn.files.filter((f) => /^outfit-[a-z]{2,3}-[\w-]+\.js$/.test(f.file)).map((f) => f.gzip),
    );
    assert.equal(budgets.outfit, gzipOf(/^look-[\w-]+\.js$/) + largestOutfitWords);
    assert.ok(budgets.outfit > 1000 && budgets.outfit <= BUDGETS.outfit, `complete the look ${budgets.outfit} B`);
    assert.ok(
      budgets.alternatives > 1000 && budgets.alternatives <= BUDGETS.alternatives,
      `models and hand-off ${budgets.alternatives} B`,
    );
    assert.equal(budgets.heicDecoder, gzipOf(/^heic-[\w-]+\.js$/));
    assert.ok(
      budgets.heicDecoder > 100_000 && budgets.heicDecoder <= BUDGETS.heicDecoder,
      `HEIC decoder ${budgets.heicDecoder} B`,
    );
    console.log(
      `  measured: button ${budgets.button} B gz, button + panel ${budgets.buttonAndPanel} B gz, HEIC decoder ${budgets.heicDecoder} B gz, buildCdn ${Math.round(cdnMs)} ms`,
    );
  });

  test('languages do not add up: a page pays for English and its own language only', () => {
    const base = [
      { file: 'tryon-button.js', bytes: 20_000, gzip: 8000 },
      { file: 'tryon-panel-x.js', bytes: 40_000, gzip: 13_000 },
      { file: 'en-x.js', bytes: 4000, gzip: 1800 },
    ];
    const many: BuildResult = {
      outDir: cdn.outDir,
      files: [
        ...base,
        ...Array.from({ length: 40 }, (_, i) => ({
          file: `l${String.fromCharCode(97 + (i % 26))}${i < 26 ? '' : 'x'}-h${i}.js`,
          bytes: 9000,
          gzip: 2300 + i,
        })),
      ],
    };
    const counted = checkBudgets(many);
    assert.equal(counted.buttonAndPanel, 8000 + 13_000 + 1800 + 2339, 'the largest dictionary, once');
    assert.deepEqual(counted.problems, []);
    // A dictionary too big for any page to pay is still caught.
    const huge = checkBudgets({
      outDir: cdn.outDir,
      files: [...base, { file: 'ar-h.js', bytes: 90_000, gzip: BUDGETS.buttonAndPanel - (8000 + 13_000 + 1800) + 1 }],
    });
    assert.match(huge.problems[0]!, /button \+ panel/);
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
    const heavyDecoder = checkBudgets({
      outDir: cdn.outDir,
      files: [
        { file: 'tryon-button.js', bytes: 20_000, gzip: 7_000 },
        { file: 'heic-x.js', bytes: 3_000_000, gzip: BUDGETS.heicDecoder + 1 },
      ],
    });
    assert.equal(heavyDecoder.buttonAndPanel, 7_000);
    assert.deepEqual(
      heavyDecoder.problems.map((p) => /HEIC decoder is \d+ B gzipped, over/.test(p)),
      [true],
    );
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

  test('importmap.json pins every script of the build (entry, chunks, workers) by the sha384 of its bytes, under this version on jsDelivr', async () => {
    const map = JSON.parse(await readFile(join(cdn.outDir, IMPORT_MAP_FILE), 'utf8')) as ImportMap;
    const base = jsdelivrBase((await widgetPackage()).version);
    const scripts = cdn.files.filter((f) => f.file.endsWith('.js')).map((f) => f.file);
    assert.ok(scripts.includes('photo-prep-worker.js') && scripts.includes('photo-check-worker.js'));
    assert.ok(scripts.some((name) => /^tryon-panel-[\w-]+\.js$/.test(name)));
    assert.deepEqual(Object.keys(map.integrity).sort(), scripts.map((name) => `${base}${name}`).sort());
    for (const name of scripts)
      assert.equal(map.integrity[`${base}${name}`], await sriHash(join(cdn.outDir, name)), name);
    assert.deepEqual(map.imports, {});
    assert.deepEqual(await checkWrittenImportMap(cdn.outDir), []);
  });

  test('the build check fails, naming the file, for a chunk whose bytes changed, a script the map lacks, and an entry for no file', async () => {
    const copy = join(work, 'pinned');
    await cp(cdn.outDir, copy, { recursive: true });
    const core = cdn.files.map((f) => f.file).find((name) => /^tryon-core-[\w-]+\.js$/.test(name))!;
    // A chunk altered after the map was written (a later build step, a hand edit).
    await writeFile(join(copy, core), `${await readFile(join(copy, core), 'utf8')}\n;globalThis.altered = 1;\n`);
    // A worker or lazy chunk the map never heard of.
    await writeFile(join(copy, 'photo-extra-worker.js'), 'postMessage(1);\n');
    const map = JSON.parse(await readFile(join(copy, IMPORT_MAP_FILE), 'utf8')) as ImportMap;
    const base = baseOf(map)!;
    // And a pin left for a file that is gone.
    map.integrity[`${base}gone-123.js`] = map.integrity[`${base}tryon-button.js`]!;
    await writeFile(join(copy, IMPORT_MAP_FILE), JSON.stringify(map));
    const problems = await checkWrittenImportMap(copy);
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(
      problems.find((p) => p.startsWith(core)) ?? '',
      /does not match the import map: its bytes hash to sha384-/,
    );
    assert.match(problems.find((p) => p.startsWith('photo-extra-worker.js')) ?? '', /is not in the import map/);
    assert.match(problems.find((p) => p.includes('gone-123.js')) ?? '', /not a script of this build/);
    // A fresh map for the changed folder pins it again.
    await writeImportMap(copy, base);
    assert.deepEqual(await checkWrittenImportMap(copy), []);
    await rm(join(copy, IMPORT_MAP_FILE));
    assert.deepEqual(await checkWrittenImportMap(copy), [`${IMPORT_MAP_FILE} is missing from ${copy}`]);
  });

  test("a map's base is a folder URL a browser resolves the same on every page: absolute or from the root, ending in /", async () => {
    for (const base of ['/widget/', 'https://cdn.example.com/tryon/', 'http://127.0.0.1:8080/cdn/'])
      assert.doesNotThrow(() => checkBase(base), base);
    // Relative to each page, or not a folder: no key would match a chunk's URL and nothing would be checked.
    for (const base of [
      './',
      'widget/',
      '/widget',
      '//cdn.example.com/tryon/',
      'https://cdn.example.com',
      'ftp://x/y/',
    ])
      assert.throws(() => checkBase(base), /base must be an http\(s\) URL or a path from the site's root/, base);
    const map = await importMapFor(cdn.outDir, '/widget/');
    assert.ok(map.integrity['/widget/tryon-button.js']);
    const { html: snippet, cspHash } = importMapSnippet(map, '/widget/');
    assert.ok(snippet.indexOf('<script type="importmap">') < snippet.indexOf('<script type="module"'));
    // The CSP hash is of the exact text between the map's tags.
    const inline = snippet.slice(snippet.indexOf('>') + 1, snippet.indexOf('</script>'));
    assert.deepEqual(JSON.parse(inline), map);
    assert.equal(cspHash, `'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
    assert.match(
      snippet,
      new RegExp(
        `<script type="module" src="/widget/tryon-button\\.js" integrity="${map.integrity['/widget/tryon-button.js']!.replace(/[+/]/g, '\\$&')}" crossorigin="anonymous"></script>$`,
      ),
    );
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
    assert.deepEqual(found.sort(), [
      'a.js: eval(',
      'b.js: new Function(',
      'c.js: a string passed to setTimeout/setInterval',
    ]);
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
    // The import map pins the package's jsDelivr URLs, not the platforms' own: it stays out.
    const expected = cdn.files
      .map((f) => f.file)
      .filter((name) => !isImportMap(name))
      .sort();
    // The Shopify block also loads its variant follower, built from integrations/shopify/tryon-variant.ts.
    assert.deepEqual((await readdir(join(shopify, 'assets'))).sort(), [...expected, 'tryon-variant.js'].sort());
    assert.deepEqual((await readdir(join(woocommerce, 'assets'))).sort(), expected);
    assert.deepEqual(await readdir(join(shopify, 'blocks')), ['tryon-button.liquid']);
    assert.ok((await readdir(shopify)).includes('shopify.extension.toml'));
    assert.ok(
      !(await readdir(shopify)).some((name) => name.endsWith('.ts')),
      'the proxy-side TypeScript stays out of the theme extension',
    );
    const plugin = await readFile(join(woocommerce, 'tryon-button.php'), 'utf8');
    assert.match(plugin, /Plugin Name:\s+Virtual Try-On Button/);
    // The platforms load assets/tryon-button.js with a query (?v=, ?ver=); every chunk it reaches,
    // by its plain relative name, is next to it.
    for (const assets of [join(shopify, 'assets'), join(woocommerce, 'assets')]) {
      const reached = reachableFrom(graphOf(assets), 'tryon-button.js');
      assert.deepEqual(
        [...reached].sort(),
        expected.filter((name) => !byTheCheckWorker(name) && !byThePrepWorker(name)),
        `${assets}: the entry reaches every file, and each is there`,
      );
    }
    const asset = await readFile(join(woocommerce, 'assets/tryon-button.js'));
    assert.deepEqual(asset, await readFile(join(cdn.outDir, 'tryon-button.js')));
  });
});

describe('the kept CDN build (the demo and most tests take it)', () => {
  test('is byte for byte what buildCdn makes from the same sources', async () => {
    const copy = await cachedCdnBuild(join(work, 'kept'));
    const hashes = async (result: BuildResult) =>
      Object.fromEntries(
        await Promise.all(
          result.files.map(async ({ file }) => [file, await sriHash(join(result.outDir, file))] as const),
        ),
      );
    assert.deepEqual(await hashes(copy), await hashes(cdn));
  });

  test('is built again when a source, a build script or the lockfile changes, not for dist or node_modules', async () => {
    const root = join(work, 'sources');
    const write = async (path: string, text: string) => {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), text);
    };
    await write('widget/tryon-button.ts', 'export const a = 1;');
    await write('scripts/build-widget.ts', 'export const b = 1;');
    await write('package-lock.json', '{}');
    const first = await sourcesKey(root);
    assert.match(first, /^[0-9a-f]{24}$/);
    await write('widget/dist/cdn/tryon-button.js', 'built');
    await write('widget/node_modules/lit/index.js', 'installed');
    assert.equal(await sourcesKey(root), first, 'what the build writes or npm installs is not a source');
    const keys = new Set([first]);
    for (const [path, text] of [
      ['widget/tryon-button.ts', 'export const a = 2;'],
      ['widget/i18n/hi.ts', 'export default {};'],
      ['scripts/build-widget.ts', 'export const b = 2;'],
      ['vite.config.ts', 'export default {};'],
      ['package-lock.json', '{"lockfileVersion":3}'],
    ] as const) {
      await write(path, text);
      keys.add(await sourcesKey(root));
    }
    assert.equal(keys.size, 6, 'each change makes a new key');
  });
});
