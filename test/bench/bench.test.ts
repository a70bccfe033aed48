// The bench's own logic, proven on inputs whose answers are known: import graphs of a build,
// the page copy without the widget, the padded upload, medians and the report's verdicts.
// Run: node --import tsx --test test/bench/bench.test.ts
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import sharp from 'sharp';
import { importProject } from './harness.js';
import { withoutWidget } from './page-impact.js';
import { graphOf, staticClosure } from './page-weight.js';
import { jpegOfSize, phoneJpeg } from './photos.js';
import {
  LCP_DELTA_GOAL_MS,
  LONG_TASK_GOAL_MS,
  Unavailable,
  enforcedFailures,
  figure,
  lcpDeltaFigure,
  longestTaskFigure,
  median,
  toMarkdown,
  toText,
} from './report.js';
import type { Outcome } from './report.js';

describe('page weight: the module graph of a build', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-graph-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'tryon-button.js'),
    'import{a as b}from"./lit-core.js";import"./styles.js";function Q(){return import(`./tryon-panel-X1.js`)}const h=()=>import("./i18n-hi.js");',
  );
  writeFileSync(join(dir, 'lit-core.js'), 'export const a=1;');
  writeFileSync(join(dir, 'styles.js'), 'export{}');
  writeFileSync(join(dir, 'tryon-panel-X1.js'), 'import{a}from"./lit-core.js";import{d}from"./dialog.js";export{a,d}');
  writeFileSync(join(dir, 'dialog.js'), 'export const d=2;');
  writeFileSync(join(dir, 'i18n-hi.js'), 'export default {}');
  const graph = graphOf(dir);

  it('counts the entry and its static imports, transitively, as the first script', () => {
    assert.deepEqual([...staticClosure(graph, 'tryon-button.js')].sort(), [
      'lit-core.js',
      'styles.js',
      'tryon-button.js',
    ]);
  });

  it('finds lazy imports with quotes or backticks', () => {
    assert.deepEqual(graph.dynamicImports('tryon-button.js').sort(), ['i18n-hi.js', 'tryon-panel-X1.js']);
  });

  it("includes a lazy chunk's own static imports", () => {
    assert.deepEqual([...staticClosure(graph, 'tryon-panel-X1.js')].sort(), [
      'dialog.js',
      'lit-core.js',
      'tryon-panel-X1.js',
    ]);
  });
});

describe('page impact: the page without the widget', () => {
  const page = `<head><script type="module" src="/shop/page.js"></script>
<script type="module" src="/widget/tryon-button.js"></script></head>
<body><div class="actions"><button>Add to cart</button>
<tryon-button product="saree" endpoint="/tryon"><span>Try it on</span></tryon-button></div></body>`;

  it('drops the widget script and element and keeps the rest', () => {
    const bare = withoutWidget(page);
    assert.ok(!bare.includes('tryon-button'), bare);
    assert.ok(bare.includes('/shop/page.js'));
    assert.ok(bare.includes('<button>Add to cart</button>'));
  });
});

describe('photos', () => {
  it('pads a real JPEG to exactly the size asked, still decodable', async () => {
    const bytes = await jpegOfSize(8 * 1024 * 1024);
    assert.equal(bytes.length, 8 * 1024 * 1024);
    const meta = await sharp(bytes).metadata();
    assert.equal(meta.format, 'jpeg');
    assert.equal(meta.width, 2400);
    // The frame header stays within the first 64 KB, where the proxy peeks for the photo's size.
    const sof = bytes.subarray(0, 64 * 1024).indexOf(Buffer.from([0xff, 0xc0]));
    assert.ok(sof > 0 && bytes.readUInt16BE(sof + 7) === 2400, 'SOF with the width near the start');
    assert.ok((await sharp(bytes).resize(100).toBuffer()).length > 0, 'decodes whole');
  });

  it('makes a 12 MP phone JPEG with orientation 6, camera and GPS EXIF', async () => {
    const phone = await phoneJpeg();
    const meta = await sharp(phone.bytes).metadata();
    assert.equal(meta.width! * meta.height!, 12_000_000);
    assert.equal(meta.orientation, 6);
    const exif = meta.exif ?? Buffer.alloc(0);
    assert.ok(exif.includes('BenchPhone'), 'camera make in EXIF');
    // The GPS IFD pointer, tag 0x8825, in the little-endian ("II") TIFF header sharp writes.
    assert.ok(
      exif.subarray(6, 8).toString('latin1') === 'II' && exif.includes(Buffer.from([0x25, 0x88])),
      'GPS IFD in EXIF',
    );
  });
});

describe('report', () => {
  it('takes the median of odd and even counts', () => {
    assert.equal(median([5, 1, 3]), 3);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.ok(Number.isNaN(median([])));
  });

  it('prints each figure beside its goal with its verdict, and why a bench could not run', () => {
    const outcomes: Outcome[] = [
      {
        id: 'page-weight',
        title: '1. Page weight',
        seconds: 1,
        notes: ['a note'],
        figures: [
          figure('first script', '7.3 KB', '≤ 10.0 KB', true, true),
          figure('panel', '31.0 KB', '≤ 30.0 KB', false, true),
          figure('info only', '3'),
        ],
      },
      {
        id: 'photo-prep',
        title: '3. Photo prep',
        seconds: 0,
        figures: [],
        notes: [],
        unavailable: 'no Chromium found',
      },
    ];
    const info = { startedAt: new Date('2026-11-22T00:00:00Z'), quick: true, seconds: 1 };
    const text = toText(outcomes, info);
    assert.match(text, /first script\s+7\.3 KB\s+goal ≤ 10\.0 KB\s+PASS/);
    assert.match(text, /panel\s+31\.0 KB\s+goal ≤ 30\.0 KB\s+FAIL/);
    assert.match(text, /could not run: no Chromium found/);
    assert.match(text, /Summary: 1 pass, 1 fail, could not run: photo-prep/);
    const md = toMarkdown(outcomes, info);
    assert.match(md, /\| panel \| 31\.0 KB \| ≤ 30\.0 KB \| fail \|/);
    assert.match(md, /Could not run: no Chromium found/);
  });
});

describe('regression guards: LCP delta and the longest task fail the bench', () => {
  const outcome = (id: string, figures: Outcome['figures'], unavailable?: string): Outcome => ({
    id,
    title: id,
    seconds: 0,
    notes: [],
    figures,
    ...(unavailable ? { unavailable } : {}),
  });

  it('passes an LCP delta up to +50 ms and fails one over it, enforced', () => {
    assert.equal(LCP_DELTA_GOAL_MS, 50);
    const at = lcpDeltaFigure('LCP delta', 1100, 1050);
    assert.deepEqual([at.verdict, at.enforced, at.value, at.goal], ['pass', true, '+50.0 ms', '≤ +50 ms']);
    const over = lcpDeltaFigure('LCP delta', 1101, 1050);
    assert.deepEqual([over.verdict, over.enforced], ['fail', true]);
    assert.equal(lcpDeltaFigure('LCP delta', 900, 1050).verdict, 'pass', 'faster with the widget is fine');
    assert.equal(
      lcpDeltaFigure('LCP delta', Number.NaN, 1050).verdict,
      'fail',
      'an LCP that could not be read is no pass',
    );
  });

  it('passes a longest task under 50 ms and fails one of 50 ms or more, or none measured', () => {
    assert.equal(LONG_TASK_GOAL_MS, 50);
    assert.equal(longestTaskFigure('JPEG, Chromium', 49.9).verdict, 'pass');
    assert.equal(longestTaskFigure('JPEG, Chromium', 0).verdict, 'pass');
    assert.deepEqual(
      [longestTaskFigure('HEIC, Firefox', 50).verdict, longestTaskFigure('HEIC, Firefox', 50).enforced],
      ['fail', true],
    );
    assert.equal(longestTaskFigure('HEIC, Firefox', undefined).value, 'not measured');
    assert.equal(longestTaskFigure('HEIC, Firefox', undefined).verdict, 'fail');
  });

  it('counts enforced failures only, and a guarded benchmark that could not run', () => {
    const outcomes = [
      outcome('page-impact', [lcpDeltaFigure('LCP delta', 1400, 1050), figure('score delta', '0', '≥ −2', false)]),
      outcome('photo-prep', [longestTaskFigure('JPEG, Chromium', 20)]),
      outcome('proxy-overhead', [figure('p50 ratio', '2.0×', '≤ 1.5', false)]),
      outcome('workers', [], 'no workerd'),
    ];
    const failures = enforcedFailures(outcomes, ['page-impact', 'photo-prep']);
    assert.equal(failures.length, 1, failures.join('; '));
    assert.match(failures[0]!, /^page-impact: LCP delta .* \+350 ms \(goal ≤ \+50 ms\)$/);
    assert.deepEqual(enforcedFailures([outcome('photo-prep', [], 'no Chromium')], ['photo-prep']), [
      'photo-prep: could not run (no Chromium)',
    ]);
    assert.deepEqual(
      enforcedFailures([outcome('workers', [], 'no workerd')], ['photo-prep']),
      [],
      'an unguarded bench that could not run is reported, not enforced',
    );
    const text = toText(outcomes, { startedAt: new Date('2026-11-26T00:00:00Z'), quick: false, seconds: 1 });
    assert.match(text, /Summary: 1 pass, 3 fail/);
    assert.match(text, /FAIL page-impact: LCP delta/);
    assert.match(text, /Enforced goals missed \(the bench exits 1\): 1/);
  });
});

describe('harness', () => {
  it('turns a missing piece into Unavailable, not a crash', async () => {
    await assert.rejects(
      importProject('demo/no-such-module.ts', []),
      (error) => error instanceof Unavailable && /not there yet/.test(error.message),
    );
  });

  it('names a missing export', async () => {
    await assert.rejects(
      importProject<{ nope: unknown }>('test/bench/report.ts', ['nope']),
      (error) => error instanceof Unavailable && /does not export nope/.test(error.message),
    );
  });
});
