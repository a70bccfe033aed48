// Every size the README and the docs quote between `<!-- size:… -->` markers is the one a fresh
// build measures (scripts/size-figures.ts; `npm run build` writes them), and the figures that the
// README, the architecture map and the widget's doc quote are all marked, so none is a stale copy.
// The same for what a shop deploys: the Shopify extension's folder (built afresh from that CDN
// build) and the proxy's Worker bundle (bundled afresh). The installed widget's figure is held
// against a real install in package-install.test.ts, which installs the packed tarball anyway.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildIntegrations, checkBudgets, projectRoot } from '../../scripts/build.js';
import { cachedCdnBuild } from '../../scripts/kept-builds.js';
import {
  installFigures,
  QUOTING_FILES,
  quotedBytes,
  quotedSizes,
  sizeFigures,
  sizeOf,
  staleSizeFigures,
  withSizeFigures,
  type SizeFigure,
} from '../../scripts/size-figures.js';
import { buildWorker } from '../../scripts/worker.js';

describe('sizes quoted in the docs', () => {
  let figures: Record<Exclude<SizeFigure, 'widget-installed'>, string>;
  let shopifyBytes: number;
  let worker: { bytes: number; gzipBytes: number; code: Buffer };
  let outDir: string;
  before(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'tryon-size-figures-'));
    const cdn = await cachedCdnBuild(join(outDir, 'cdn'));
    const [shopify] = await buildIntegrations(cdn.outDir, join(outDir, 'integrations'));
    shopifyBytes = await sizeOf(shopify!);
    const workerFile = join(outDir, 'worker/worker.js');
    const bundle = await buildWorker({ outFile: workerFile });
    worker = { ...bundle, code: await readFile(workerFile) };
    const { 'widget-installed': _installed, ...deployed } = installFigures({
      widgetInstalled: 0,
      shopifyExtension: shopifyBytes,
      workerBundle: bundle.bytes,
      workerBundleGzip: bundle.gzipBytes,
    });
    figures = { ...sizeFigures(checkBudgets(cdn)), ...deployed };
    console.log(
      `  measured: first script ${figures['first-script']}, button + panel ${figures['button-and-panel']} / ${figures['button-and-panel-largest-language']} (gzip); Shopify extension ${figures['shopify-extension']}; Worker ${figures['worker-bundle']}, ${figures['worker-bundle-gzip']} gzip`,
    );
  });
  after(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  test("each quoted figure is the fresh build's", async () => {
    assert.deepEqual(await staleSizeFigures(projectRoot, figures), []);
  });

  test("the README, the architecture map and the widget's doc quote the first script through a marker", async () => {
    for (const file of ['README.md', 'docs/architecture.md', 'docs/widget.md']) {
      const names = quotedSizes(await readFile(join(projectRoot, file), 'utf8')).map((q) => q.name);
      assert.ok(names.includes('first-script'), `${file} quotes the first script through a marker`);
    }
  });

  test("the Shopify extension's and the Worker's figures are the folder's files and the bundle's bytes", async () => {
    // Measured here apart from the figures' own functions: the folder's files one by one, the
    // bundle's bytes as read back and gzipped.
    assert.ok(shopifyBytes > 1024 * 1024, `the extension holds the CDN build: ${shopifyBytes} B`);
    assert.equal(worker.code.length, worker.bytes);
    assert.equal(gzipSync(worker.code).length, worker.gzipBytes);
    const quoted = await quotedByName();
    for (const [name, bytes] of [
      ['shopify-extension', shopifyBytes],
      ['worker-bundle', worker.bytes],
      ['worker-bundle-gzip', worker.gzipBytes],
    ] as const) {
      assert.ok((quoted.get(name) ?? []).length > 0, `${name} is quoted through a marker`);
      for (const figure of quoted.get(name)!) {
        const { bytes: said, rounding } = quotedBytes(figure);
        assert.ok(Math.abs(said - bytes) <= rounding, `${name}: quoted ${figure}, measured ${bytes} B`);
      }
    }
  });

  test('every install, extension and bundle size in the README and the integration docs is under a marker', async () => {
    const unmarked: string[] = [];
    for (const file of [
      'README.md',
      'docs/integrations/npm.md',
      'docs/integrations/shopify.md',
      'docs/integrations/deploy-proxy.md',
    ])
      unmarked.push(
        ...unmarkedSizes(await readFile(join(projectRoot, file), 'utf8')).map((size) => `${file}: ${size}`),
      );
    assert.deepEqual(unmarked, []);
    // The same look finds the copies these docs once held.
    assert.deepEqual(
      unmarkedSizes('Installed alone the package and `lit` take\n5.97 MB (most of it the HEIC decoder).'),
      ['5.97 MB'],
    );
    assert.deepEqual(unmarkedSizes('The bundle is about 123 KiB gzip without catalog images'), ['123 KiB']);
    assert.deepEqual(unmarkedSizes('Shopify allows a 10 MB extension; photo uploads up to 15 MiB'), []);
  });

  test('a quoted figure reads back as the bytes it stands for, to its rounding', () => {
    assert.deepEqual(quotedBytes('7.5 MB'), { bytes: 7.5 * 1024 * 1024, rounding: 0.05 * 1024 * 1024 });
    assert.deepEqual(quotedBytes('149 KiB'), { bytes: 149 * 1024, rounding: 512 });
    assert.throws(() => quotedBytes('about 2 MB'), /not a size figure/);
  });

  test('a stale figure is found, and rewriting puts the measured one in its place', async () => {
    const text = 'The button is <!-- size:first-script -->1.0 KB<!-- /size --> gzipped.';
    assert.deepEqual(quotedSizes(text), [{ name: 'first-script', quoted: '1.0 KB' }]);
    assert.equal(
      withSizeFigures(text, figures),
      `The button is <!-- size:first-script -->${figures['first-script']}<!-- /size --> gzipped.`,
    );
    assert.throws(
      () => withSizeFigures('<!-- size:no-such -->1 KB<!-- /size -->', figures),
      /no size figure named "no-such"/,
    );
    // A figure this run did not measure keeps its marker's text.
    const installed = 'Installed: <!-- size:widget-installed -->7.5 MB<!-- /size -->.';
    assert.equal(withSizeFigures(installed, figures), installed);
  });
});

/**
 * Sizes in MB or KiB outside a marker whose nearby words (60 characters either side) are about
 * an install, a package, a folder or a bundle, and not a limit, an allowance or a photo: a copy
 * nothing keeps true.
 */
function unmarkedSizes(text: string): string[] {
  const bare = text.replace(/<!-- size:[a-z-]+ -->[^<]*<!-- \/size -->/g, '<marked>');
  return [...bare.matchAll(/\d+(?:\.\d+)? ?(?:MB|KiB)\b/g)]
    .filter((m) => {
      const near = bare.slice(Math.max(0, m.index - 60), m.index + m[0].length + 60);
      return /\b(install|installed|package|folder|bundle)\b/i.test(near) && !/limit|allow|upload|photo/i.test(near);
    })
    .map((m) => m[0]);
}

/** Every figure quoted through a marker in QUOTING_FILES, by name. */
async function quotedByName(): Promise<Map<string, string[]>> {
  const byName = new Map<string, string[]>();
  for (const file of QUOTING_FILES) {
    const text = await readFile(join(projectRoot, file), 'utf8').catch(() => '');
    for (const { name, quoted } of quotedSizes(text)) byName.set(name, [...(byName.get(name) ?? []), quoted]);
  }
  return byName;
}
