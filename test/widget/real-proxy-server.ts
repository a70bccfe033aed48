// The real token proxy in front of the real sandbox, for the widget's browser tests that speak
// to the real thing (real-proxy.test.ts). Started by web-test-runner's middleware
// (real-proxy.js) as a child process; prints one JSON line with both URLs, and stops when its
// parent closes stdin, so no server outlives the test run.
import sharp from 'sharp';
import { startSandbox } from '../../sandbox/server.js';
import { startProxy } from '../../proxy/node.js';

// A red garment laid flat on a white ground, as a shop photographs one: the proxy's check finds the
// garment by its ground before it compares colours.
const garment = await sharp({
  create: { width: 512, height: 768, channels: 3, background: { r: 255, g: 255, b: 255 } },
})
  .composite([
    {
      input: await sharp({ create: { width: 288, height: 640, channels: 3, background: { r: 180, g: 20, b: 40 } } })
        .png()
        .toBuffer(),
      left: 112,
      top: 64,
    },
  ])
  .png()
  .toBuffer();

// "Complete the look": a green lehenga and a rose dupatta that goes with it, each its own colour.
const cloth = (r: number, g: number, b: number) =>
  sharp({ create: { width: 512, height: 768, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
const [green, rose] = await Promise.all([cloth(20, 150, 60), cloth(220, 60, 140)]);

const sandbox = await startSandbox({
  port: 0,
  hostname: '127.0.0.1',
  speed: 0.02,
  keys: { sk_test_widget: 'ws_widget' },
  log: () => {},
});
const proxy = await startProxy({
  port: 0,
  hostname: '127.0.0.1',
  basePath: '/real/tryon',
  apiKey: 'sk_test_widget',
  baseUrl: sandbox.url,
  secret: 'widget-tests-secret-widget-tests-secret',
  allowedOrigins: [],
  catalog: {
    defaults: { tier: 'draft', views: ['front'], background: 'studio_white', provider: 'auto' },
    products: {
      'saree-test-red': {
        mode: 'garment_to_person',
        garmentImage: 'red.png',
        garment: { category: 'saree', subtype: 'nivi' },
        views: ['front', 'side'],
        video: true,
        name: 'Test red saree',
      },
      'lehenga-test-green': {
        mode: 'garment_to_person',
        garmentImage: 'green.png',
        garment: { category: 'lehenga' },
        name: 'Test green lehenga',
        pairsWith: ['dupatta-test-rose'],
      },
      'dupatta-test-rose': {
        mode: 'garment_to_person',
        garmentImage: 'rose.png',
        garment: { category: 'dupatta' },
        name: 'Test rose dupatta',
      },
    },
  },
  readAsset: async (path: string) =>
    new Uint8Array(path === 'green.png' ? green : path === 'rose.png' ? rose : garment),
  // The check of each result against its garment, with room for a loaded test machine: past its
  // budget the answer is `unchecked`, and the label under test would not show.
  limits: { fidelityCpuMs: 20_000 },
  log: () => {},
});

process.stdout.write(`${JSON.stringify({ proxy: proxy.url, sandbox: sandbox.url })}\n`);

const stop = async () => {
  await proxy.close();
  await sandbox.close();
  process.exit(0);
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
