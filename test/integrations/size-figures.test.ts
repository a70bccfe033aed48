// Every size the README and the docs quote between `<!-- size:… -->` markers is the one a fresh
// build measures (scripts/size-figures.ts; `npm run build` writes them), and the figures that the
// README, the architecture map and the widget's doc quote are all marked, so none is a stale copy.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkBudgets, projectRoot } from '../../scripts/build.js';
import { cachedCdnBuild } from '../../scripts/kept-builds.js';
import {
  quotedSizes,
  sizeFigures,
  staleSizeFigures,
  withSizeFigures,
  type SizeFigure,
} from '../../scripts/size-figures.js';

describe('sizes quoted in the docs', () => {
  let figures: Record<SizeFigure, string>;
  let outDir: string;
  before(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'tryon-size-figures-'));
    figures = sizeFigures(checkBudgets(await cachedCdnBuild(outDir)));
    console.log(
      `  measured: first script ${figures['first-script']}, button + panel ${figures['button-and-panel']} / ${figures['button-and-panel-largest-language']} (gzip)`,
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
  });
});
