// `tryon-proxy check-catalog` as a merchant runs it (`tsx proxy/node.ts check-catalog`, what the
// bin runs): the demo's catalog with its drawn images is fit to go live (exit 0); a catalog made
// here with each problem it names (an image too small, a busy ground, two variants of one colour,
// a model photo cut at the knees, a WebP, a missing file) is not (exit 1), each problem on its
// own line naming product, variant and what to do; a call without a catalog is a usage error (2).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { drawShopImages } from '../../demo/shop/images.js';
import { loadShopCatalog } from '../../demo/shop/tryon-catalog.js';

const root = new URL('../../', import.meta.url).pathname;

function checkCatalog(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'proxy/node.ts', 'check-catalog', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** A kurta-like garment shape in one colour on a transparent ground, `size` px tall. */
const garment = (fill: string, size = 800) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${size * 0.75}" height="${size}" viewBox="0 0 600 800"><path d="M196 120 L404 120 L460 760 L140 760 Z" fill="${fill}"/></svg>`,
    ),
  )
    .png()
    .toBuffer();

/** A standing figure on a plain ground, head to feet; `cut` crops it at the knees. */
async function modelPhoto(cut: boolean): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800"><rect width="600" height="800" fill="#eeeeea"/>
    <circle cx="300" cy="130" r="50" fill="#c68863"/><path d="M220 172 L380 172 L430 740 L170 740 Z" fill="#1f7a4d"/></svg>`;
  const photo = sharp(Buffer.from(svg));
  return (cut ? photo.extract({ left: 0, top: 0, width: 600, height: 480 }) : photo).jpeg({ quality: 90 }).toBuffer();
}

describe('tryon-proxy check-catalog', () => {
  let dir: string;
  /** A shop's image server on loopback: one garment image, and one that redirects to another origin. */
  const images = createServer((request, response) => {
    if (request.url === '/garment.png') {
      void garment('#1f7a4d').then((png) => response.writeHead(200, { 'content-type': 'image/png' }).end(png));
      return;
    }
    response.writeHead(302, { location: 'http://127.0.0.2:9/elsewhere.png' }).end();
  });
  let origin: string;

  before(async () => {
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'check-catalog-'));
    // The demo's catalog beside its drawn images, as a shop would keep them.
    await drawShopImages(join(dir, 'demo'));
    await writeFile(join(dir, 'demo', 'catalog.json'), JSON.stringify(await loadShopCatalog()));
    // A broken one.
    const noise = Buffer.alloc(600 * 800 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
    const busy = await sharp(noise, { raw: { width: 600, height: 800, channels: 3 } })
      .composite([{ input: await garment('#b0122a') }])
      .jpeg({ quality: 90 })
      .toBuffer();
    const files: Record<string, Buffer> = {
      'tiny.png': await garment('#b0122a', 200),
      'busy.jpg': busy,
      'ruby.png': await garment('#9b111e'),
      'ruby-too.png': await garment('#9d1420'),
      'emerald.png': await garment('#1f7a4d'),
      'model-cut.jpg': await modelPhoto(true),
      'model-whole.jpg': await modelPhoto(false),
      'photo.webp': await garment('#2c3e8c').then((png) => sharp(png).webp().toBuffer()),
    };
    for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, name), bytes);
    const gtp = (image: string) => ({ mode: 'garment_to_person', garmentImage: image, garment: { category: 'kurta' } });
    await writeFile(
      join(dir, 'broken.json'),
      JSON.stringify({
        products: {
          small: gtp('tiny.png'),
          busy: gtp('busy.jpg'),
          pair: {
            ...gtp('ruby.png'),
            variants: {
              ruby: { name: 'Ruby' },
              wine: { name: 'Wine', garmentImage: 'ruby-too.png' },
              emerald: { name: 'Emerald', garmentImage: 'emerald.png' },
            },
          },
          reference: {
            mode: 'person_to_person',
            referencePersonImage: 'model-cut.jpg',
            garment: { category: 'lehenga' },
            variants: { whole: { name: 'Whole', referencePersonImage: 'model-whole.jpg' } },
          },
          webp: gtp('photo.webp'),
          gone: gtp('nowhere.png'),
          // By URL: fetched with the proxy's own bounds (same-origin redirects only).
          online: gtp(`${origin}/garment.png`),
          moved: gtp(`${origin}/moved.png`),
        },
      }),
    );
  });

  after(async () => {
    await new Promise((resolve) => images.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it("finds the demo's catalog fit to go live: exit 0", async () => {
    const { code, output } = await checkCatalog([join(dir, 'demo', 'catalog.json')]);
    assert.match(output, /check-catalog: \d+ images checked, no problems: fit to go live\./, output);
    assert.equal(code, 0, output);
  });

  it('names each problem of a broken catalog on a line of its own, with what to do: exit 1', async () => {
    const { code, output } = await checkCatalog([], { TRYON_CATALOG: join(dir, 'broken.json') });
    assert.equal(code, 1, output);
    const lines = output.trim().split('\n');
    const line = (pattern: RegExp) => {
      const found = lines.filter((l) => pattern.test(l));
      assert.equal(found.length, 1, `one line matching ${pattern}:\n${output}`);
      assert.match(found[0]!, /To do: \S/);
      return found[0]!;
    };
    assert.match(line(/^product "small": image too small \(tiny\.png\)/), /150 × 200 px/);
    line(/^product "busy": busy ground \(busy\.jpg\)/);
    assert.match(line(/^product "pair", variant "wine": variants nearly the same colour/), /ΔE \d/);
    line(/^product "reference": model photo not full length \(model-cut\.jpg\)/);
    assert.match(line(/^product "webp": image the fidelity check cannot read/), /WebP/);
    line(/^product "gone": image unreadable \(nowhere\.png\)/);
    assert.match(
      line(/^product "moved": image unreadable \(http:\/\/127\.0\.0\.1:\d+\/moved\.png\)/),
      /redirect to another origin \(http:\/\/127\.0\.0\.2:9\) refused/,
    );
    // What is fine is not named: the emerald variant, the whole model photo, the image by URL.
    assert.doesNotMatch(output, /emerald|model-whole|"online"/);
    assert.match(lines.at(-1)!, /^check-catalog: 11 images checked, 7 problems: not fit to go live\.$/);
  });

  it('is a usage error without a catalog, or with two: exit 2', async () => {
    const none = await checkCatalog([]);
    assert.equal(none.code, 2, none.output);
    assert.match(none.output, /usage: tryon-proxy check-catalog/);
    const two = await checkCatalog(['a.json', 'b.json']);
    assert.equal(two.code, 2, two.output);
  });
});
