// The shop as a Hono app: pages, stylesheet, the shop's script, drawn images, the built widget,
// and the token proxy mounted at /tryon, all on one origin (so the widget needs no CORS).
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { Hono } from 'hono';
import type { Context, Env } from 'hono';
import { homePage, notFoundPage, PRIVACY_PATH, privacyPage, productPage } from './pages.js';
import { findProduct } from './products.js';
import { FAVICON } from './favicon.js';

export interface ShopOptions<TryonEnv extends Env = Env> {
  /** folder of the drawn images (garments/, models/, shopper.jpg), served at /images/ */
  imagesDir: string;
  /** folder of the built widget, served at /widget/ */
  widgetDir: string;
  /** the shop's own script, compiled from page.ts, served at /shop/page.js */
  pageScript: string;
  /** the token proxy, mounted at /tryon */
  tryon?: Hono<TryonEnv>;
}

/**
 * The pages allow scripts from this origin only, and WebAssembly for the widget's HEIC decoder
 * ('wasm-unsafe-eval' allows no JavaScript eval). Styles allow inline attributes because the colour
 * swatches use them; images and media allow blob: for the widget's photo preview and video.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Every type the widget's CDN build ships (docs/integrations/script-tag.md lists them for a shop's own
 * server) and the shop's own files. A file whose extension is not here answers 404: the photo check's
 * WebAssembly and model weights once did, and every photo went unchecked.
 */
export const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.bin': 'application/octet-stream',
};

const styleSheet = readFile(new URL('./style.css', import.meta.url), 'utf8');

/** Reads `path` inside `dir`, refusing anything that would step outside it. */
async function fileIn(dir: string, path: string): Promise<{ bytes: Buffer; type: string } | undefined> {
  const decoded = (() => {
    try {
      return decodeURIComponent(path);
    } catch {
      return undefined;
    }
  })();
  if (!decoded || decoded.includes('\0')) return undefined;
  const full = normalize(join(dir, decoded));
  if (!full.startsWith(normalize(dir) + sep)) return undefined;
  const type = TYPES[extname(full).toLowerCase()];
  if (!type) return undefined;
  try {
    return { bytes: await readFile(full), type };
  } catch {
    return undefined;
  }
}

function page(c: Context, html: string, status: 200 | 404 = 200): Response {
  c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'same-origin');
  c.header('Cache-Control', 'no-cache');
  return c.html(html, status);
}

export function createShop<TryonEnv extends Env>(options: ShopOptions<TryonEnv>): Hono {
  const shop = new Hono();

  if (options.tryon) shop.route('/tryon', options.tryon);

  // ?widget=off renders the same page without the widget: a baseline for page-impact measurements.
  const withWidget = (c: Context) => c.req.query('widget') !== 'off';

  shop.get('/', (c) => page(c, homePage({ widget: withWidget(c) })));
  shop.get(PRIVACY_PATH, (c) => page(c, privacyPage()));
  shop.get('/products/:id', (c) => {
    const product = findProduct(c.req.param('id'));
    if (!product) return page(c, notFoundPage(), 404);
    // ?variant= opens the page on that colour, as a platform's variant links do.
    // ?holdout= runs it with a holdout share (the widget validates it), for experiments and the e2e tests.
    return page(
      c,
      productPage(product, { widget: withWidget(c), variant: c.req.query('variant'), holdout: c.req.query('holdout') }),
    );
  });

  shop.get('/shop/style.css', async (c) => {
    c.header('Content-Type', TYPES['.css']);
    c.header('Cache-Control', 'no-cache');
    return c.body(await styleSheet);
  });
  shop.get('/shop/page.js', (c) => {
    c.header('Content-Type', TYPES['.js']);
    c.header('Cache-Control', 'no-cache');
    return c.body(options.pageScript);
  });

  // Browsers ask for /favicon.ico on every page whatever the page links; drawn at start with the images.
  shop.get('/favicon.ico', async (c) => {
    const file = await fileIn(options.imagesDir, FAVICON);
    if (!file) return page(c, notFoundPage(), 404);
    c.header('Content-Type', file.type);
    c.header('Cache-Control', 'public, max-age=3600');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(new Uint8Array(file.bytes));
  });

  const folder = (prefix: string, dir: string, cacheControl: string) => {
    shop.get(`${prefix}/*`, async (c) => {
      const file = await fileIn(dir, c.req.path.slice(prefix.length + 1));
      if (!file) return page(c, notFoundPage(), 404);
      c.header('Content-Type', file.type);
      c.header('Cache-Control', cacheControl);
      c.header('X-Content-Type-Options', 'nosniff');
      return c.body(new Uint8Array(file.bytes));
    });
  };
  folder('/images', options.imagesDir, 'public, max-age=3600');
  // The widget is rebuilt at every start, so browsers must revalidate it.
  folder('/widget', options.widgetDir, 'no-cache');

  shop.notFound((c) => page(c, notFoundPage(), 404));
  shop.onError((error, c) => {
    console.error(`shop: ${error.message}`);
    return c.text('Something went wrong on our side.', 500);
  });
  return shop;
}
