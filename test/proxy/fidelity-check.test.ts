// The fidelity check's parts and its answers where it cannot judge: CIEDE2000 against the
// published test data of Sharma, Wu and Dalal (2005, table 1: 34 pairs, to four decimals), for the
// proxy's check and the sandbox's drawn drifts alike; the output checks (a view missing, an output
// of the wrong size, one that does not decode) and `unchecked` with its reason (WebP, an output not
// fetched, the CPU budget spent); and the check bundled as the Worker bundles it (esbuild for the
// browser platform) and run in a context with no Node globals, on a real sandbox render.
import assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import { before, describe, it } from 'node:test';
import { build } from 'esbuild';
import sharp from 'sharp';
import { garmentSvg, shopperPhotoSvg } from '../../demo/shop/drawings.js';
import { products } from '../../demo/shop/products.js';
import { checkFidelity } from '../../proxy/fidelity/check.js';
import type { Fidelity, FidelityInput } from '../../proxy/fidelity/check.js';
import { deltaE2000 } from '../../proxy/fidelity/colour.js';
import { deltaE2000 as sandboxDeltaE, driftOf, labOf } from '../../sandbox/jobs/misdrawn.js';
import { renderFront, renderView } from '../../sandbox/drawing/render.js';

// [L1, a1, b1, L2, a2, b2, ΔE00]
const PAIRS: number[][] = [
  [50, 2.6772, -79.7751, 50, 0, -82.7485, 2.0425],
  [50, 3.1571, -77.2803, 50, 0, -82.7485, 2.8615],
  [50, 2.8361, -74.02, 50, 0, -82.7485, 3.4412],
  [50, -1.3802, -84.2814, 50, 0, -82.7485, 1],
  [50, -1.1848, -84.8006, 50, 0, -82.7485, 1],
  [50, -0.9009, -85.5211, 50, 0, -82.7485, 1],
  [50, 0, 0, 50, -1, 2, 2.3669],
  [50, -1, 2, 50, 0, 0, 2.3669],
  [50, 2.49, -0.001, 50, -2.49, 0.0009, 7.1792],
  [50, 2.49, -0.001, 50, -2.49, 0.001, 7.1792],
  [50, 2.49, -0.001, 50, -2.49, 0.0011, 7.2195],
  [50, 2.49, -0.001, 50, -2.49, 0.0012, 7.2195],
  [50, -0.001, 2.49, 50, 0.0009, -2.49, 4.8045],
  [50, -0.001, 2.49, 50, 0.001, -2.49, 4.8045],
  [50, -0.001, 2.49, 50, 0.0011, -2.49, 4.7461],
  [50, 2.5, 0, 50, 0, -2.5, 4.3065],
  [50, 2.5, 0, 73, 25, -18, 27.1492],
  [50, 2.5, 0, 61, -5, 29, 22.8977],
  [50, 2.5, 0, 56, -27, -3, 31.903],
  [50, 2.5, 0, 58, 24, 15, 19.4535],
  [50, 2.5, 0, 50, 3.1736, 0.5854, 1],
  [50, 2.5, 0, 50, 3.2972, 0, 1],
  [50, 2.5, 0, 50, 1.8634, 0.5757, 1],
  [50, 2.5, 0, 50, 3.2592, 0.335, 1],
  [60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644],
  [63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.263],
  [61.2901, 3.7196, -5.3901, 61.4292, 2.248, -4.962, 1.8731],
  [35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645],
  [22.7233, 20.0904, -46.694, 23.0331, 14.973, -42.5619, 2.0373],
  [36.4612, 47.858, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146],
  [90.8027, -2.0831, 1.441, 91.1528, -1.6435, 0.0447, 1.4441],
  [90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381],
  [6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377],
  [2.0776, 0.0795, -1.135, 0.9033, -0.0636, -0.5514, 0.9082],
];

describe('CIEDE2000', () => {
  it("matches Sharma, Wu and Dalal's 34 pairs to four decimals, both ways round (the proxy's and the sandbox's)", () => {
    for (const [L1, a1, b1, L2, a2, b2, expected] of PAIRS as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ][]) {
      const x = { L: L1, a: a1, b: b1 };
      const y = { L: L2, a: a2, b: b2 };
      for (const measure of [deltaE2000, sandboxDeltaE]) {
        assert.equal(measure(x, y).toFixed(4), expected.toFixed(4), `${JSON.stringify(x)} ${JSON.stringify(y)}`);
        assert.equal(measure(y, x).toFixed(4), expected.toFixed(4));
      }
    }
  });

  it("the sandbox's drift moves a garment's main colour by the CIEDE2000 asked for", () => {
    for (const colour of [
      { r: 155, g: 17, b: 30 },
      { r: 236, g: 228, b: 206 },
      { r: 30, g: 40, b: 80 },
    ])
      for (const strength of [4, 10, 25]) {
        const lab = labOf(colour);
        const offset = driftOf(lab, strength);
        const moved = { L: lab.L + offset.L, a: lab.a + offset.a, b: lab.b + offset.b };
        assert.ok(Math.abs(deltaE2000(lab, moved) - strength) < 0.01, `${JSON.stringify(colour)} by ${strength}`);
      }
  });
});

describe('the check on one garment: output checks and unchecked answers', () => {
  let input: FidelityInput;
  let size: { width: number; height: number };

  before(async () => {
    const saree = products.find((p) => p.id === 'saree-nivi-ruby')!;
    const garment = await sharp(Buffer.from(garmentSvg(saree.drawing, saree.colours[0].palette)))
      .png()
      .toBuffer();
    const person = await sharp(Buffer.from(shopperPhotoSvg())).resize({ width: 384 }).jpeg().toBuffer();
    const front = await renderFront({
      person,
      garment,
      garmentFromPerson: false,
      background: 'studio_white',
      category: 'saree',
      subtype: 'nivi',
    });
    const view = await renderView(front, {
      category: 'saree',
      subtype: 'nivi',
      view: 'front',
      background: 'studio_white',
      tier: 'standard',
      provider: 'general_a',
    });
    size = { width: view.width, height: view.height };
    input = {
      garment: { bytes: new Uint8Array(garment), contentType: 'image/png' },
      category: 'saree',
      views: [{ view: 'front', bytes: new Uint8Array(view.bytes), contentType: 'image/jpeg' }],
      expectedViews: ['front'],
      expectedSize: size,
    };
  });

  it('calls a faithful render true, its colour difference small and its coverage ok', async () => {
    const fidelity = await checkFidelity(input);
    assert.equal(fidelity.verdict, 'true', fidelity.reason);
    assert.equal(fidelity.views.length, 1);
    assert.equal(fidelity.views[0]!.view, 'front');
    assert.equal(fidelity.views[0]!.coverage, 'ok');
    assert.ok(fidelity.views[0]!.colour.deltaE < 6.5, String(fidelity.views[0]!.colour.deltaE));
    assert.equal(fidelity.reason, undefined);
  });

  it('says differs when a view asked for is not there, or an output is not the size expected or does not decode', async () => {
    const missing = await checkFidelity({ ...input, expectedViews: ['front', 'back'] });
    assert.equal(missing.verdict, 'differs');
    assert.deepEqual(
      missing.views.find((v) => v.view === 'back'),
      {
        view: 'back',
        colour: { deltaE: 100 },
        coverage: 'missing',
      },
    );
    assert.match(missing.reason!, /back: view_missing/);
    const wrongSize = await checkFidelity({ ...input, expectedSize: { width: 1024, height: 1365 } });
    assert.equal(wrongSize.verdict, 'differs');
    assert.match(wrongSize.reason!, new RegExp(`front: size ${size.width}x${size.height}, not 1024x1365`));
    const broken = input.views[0]!.bytes!.slice(0, 600);
    const undecodable = await checkFidelity({ ...input, views: [{ ...input.views[0]!, bytes: broken }] });
    assert.equal(undecodable.verdict, 'differs');
    assert.match(undecodable.reason!, /front: output_undecodable/);
  });

  it('says unchecked, with the reason, where it cannot judge: never true', async () => {
    const webp = new Uint8Array(await sharp(Buffer.from(input.views[0]!.bytes!)).webp().toBuffer());
    const cases: [Partial<FidelityInput>, RegExp][] = [
      [{ views: [{ view: 'front', bytes: webp, contentType: 'image/webp' }] }, /^front: output_unreadable_format$/],
      [{ views: [{ view: 'front', bytes: null, contentType: 'image/jpeg' }] }, /^front: output_unavailable$/],
      [{ garment: { bytes: webp, contentType: 'image/webp' } }, /^garment_unreadable_format$/],
      [{ cpuBudgetMs: 0 }, /^over_budget$/],
      // A piece worn over another garment: its colours cannot be told from what is beneath it.
      [{ category: 'dupatta' }, /^worn_over$/],
      [{ category: 'Stole' }, /^worn_over$/],
    ];
    for (const [change, reason] of cases) {
      const fidelity: Fidelity = await checkFidelity({ ...input, ...change });
      assert.equal(fidelity.verdict, 'unchecked', JSON.stringify(change).slice(0, 80));
      assert.deepEqual(fidelity.views, []);
      assert.match(fidelity.reason!, reason);
    }
  });

  it('bundles for the browser platform (as the Worker does) and runs with no Node globals', async () => {
    const bundle = await build({
      entryPoints: [new URL('../../proxy/fidelity/check.ts', import.meta.url).pathname],
      bundle: true,
      write: false,
      format: 'iife',
      globalName: 'fidelity',
      platform: 'browser',
      conditions: ['workerd', 'worker', 'browser'],
      logLevel: 'silent',
    });
    const code = bundle.outputFiles[0]!.text;
    assert.doesNotMatch(code, /require\(["']|from ["']node:/);
    // Only what a Worker has: no Buffer, no process, no require.
    const context: Record<string, unknown> = { TextDecoder, TextEncoder, performance, console };
    runInNewContext(code, context);
    const bundled = context.fidelity as { checkFidelity: typeof checkFidelity };
    const fidelity = await bundled.checkFidelity(input);
    assert.equal(fidelity.verdict, 'true', fidelity.reason);
    assert.equal(fidelity.views[0]!.colour.deltaE, (await checkFidelity(input)).views[0]!.colour.deltaE);
  });
});
