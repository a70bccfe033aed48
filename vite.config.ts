// Vite configurations for the widget's two shipped forms. scripts/build.ts calls Vite's build()
// with these (and `npx vite build` uses the default export: the CDN build).
//
// - CDN: one ES module for a <script type="module"> tag, Lit bundled and minified; the panel stays
//   a separate chunk, fetched only on first interaction (or on a prefetch hint).
// - npm: Lit left external (the shop's bundler dedupes it with their own copy), one file per
//   source module so the .d.ts files emitted by tsc sit next to the code they describe.
import { fileURLToPath } from 'node:url';
import { defineConfig, type InlineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export const widgetEntry = fileURLToPath(new URL('./widget/tryon-button.ts', import.meta.url));
/** The script-tag build's entry: imports the element (`widgetEntry`, the core chunk) once the page has loaded. */
export const cdnEntry = fileURLToPath(new URL('./widget/tryon-button.cdn.ts', import.meta.url));
/** What `cdnEntry` imports: the element registered, the facade of the core chunk. */
const cdnCore = fileURLToPath(new URL('./widget/tryon-button.register.ts', import.meta.url));

export interface WidgetBuildTarget {
  /** The element's entry module (`widget/tryon-button.ts`). */
  entry?: string;
  outDir: string;
  quiet?: boolean;
}

/** Lit and its parts: kept out of the npm build, bundled into the CDN build. */
const litPackages = /^(lit|lit-html|lit-element|@lit\/[^/]+)(\/.*)?$/;

/**
 * Minifies the CSS inside the `css` templates of `*.styles.ts`: the JavaScript minifier keeps a
 * template's text as written, so every comment and indent of the styles was shipped (about 0.9 KB
 * gzipped of the panel). Only whitespace and comments go: runs of whitespace become one space, and
 * none is kept beside `{`, `}` or `;`, which changes no selector or value (the styles hold no
 * interpolation and no string with those characters; the build refuses one that does).
 */
export function minifiedStyles(): Plugin {
  return {
    name: 'tryon-minified-styles',
    transform(code, id) {
      if (!id.endsWith('.styles.ts')) return null;
      return code.replace(/css`([^`]*)`/g, (_, text: string) => {
        const uncommented = text.replace(/\/\*[\s\S]*?\*\//g, '');
        if (uncommented.includes('${') || /(['"])[^'"\n]*[{};][^'"\n]*\1/.test(uncommented)) {
          throw new Error(
            `${id}: a css template with an interpolation or a string holding { } or ; cannot be minified safely`,
          );
        }
        const minified = uncommented
          .replace(/\s+/g, ' ')
          .replace(/\s*([{};])\s*/g, '$1')
          .trim();
        return `css\`${minified}\``;
      });
    },
  };
}

/** `new URL('./<name>-worker.js', import.meta.url)`, as the widget starts its two workers. */
const workerUrl = /new URL\((['"])\.\/(photo-(?:prep|check)-worker)\.js\1, import\.meta\.url\)/g;
const workerPlaceholder = /__tryon_worker_url_(photo_(?:prep|check)_worker)__/g;

/**
 * Keeps the widget's `new Worker(new URL('./photo-…-worker.js', import.meta.url))` as written, for
 * the shop's bundler. Vite would bundle such a worker itself, and cannot: the worker is not a
 * source module beside the widget's, but built apart by esbuild (scripts/worker-build.ts,
 * scripts/photo-check-build.ts) into the same folder. So the URL is a placeholder while Vite
 * transforms the module, and the literal again in the chunk it writes: the CDN build finds the
 * worker beside its chunk, and a shop's Vite, webpack or Next, bundling dist/npm, emits it.
 */
export function literalWorkerUrls(): Plugin {
  return {
    name: 'tryon-literal-worker-urls',
    enforce: 'pre',
    transform(code, id) {
      if (!id.includes('/widget/') || !workerUrl.test(code)) return null;
      return code.replace(workerUrl, (_, _quote: string, name: string) => {
        return `new URL(__tryon_worker_url_${name.replaceAll('-', '_')}__, import.meta.url)`;
      });
    },
    // Last, once every other plugin and the minifier have printed the chunk (they would rewrite the quotes).
    generateBundle(_, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.code.includes('__tryon_worker_url_')) continue;
        chunk.code = chunk.code.replace(workerPlaceholder, (_, name: string) => `'./${name.replaceAll('_', '-')}.js'`);
      }
    },
  };
}

/**
 * The widget's own modules keep their side effects in both builds (the registrations, the
 * dictionaries' and the workers' start): every `.ts` under widget/, as widget/package.json's
 * `sideEffects` said before it came to describe only the built files it publishes. Said per module
 * from a transform, which outranks package.json; other modules answer for themselves.
 */
export function widgetSourceSideEffects(): Plugin {
  const widgetSources = `${root}widget/`;
  return {
    name: 'tryon-widget-side-effects',
    transform(code, id) {
      if (!id.startsWith(widgetSources) || id.includes('/node_modules/') || !id.endsWith('.ts')) return null;
      return { code, map: null, moduleSideEffects: true };
    },
  };
}

function common(quiet: boolean | undefined): InlineConfig {
  return {
    configFile: false,
    plugins: [minifiedStyles(), literalWorkerUrls(), widgetSourceSideEffects()],
    root,
    // Shipped bytes are production bytes whatever NODE_ENV the caller runs under (the test runner
    // sets NODE_ENV=test, which would otherwise select Lit's larger, noisier development build).
    mode: 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    resolve: { conditions: ['module', 'browser', 'production'] },
    logLevel: quiet ? 'silent' : 'warn',
    publicDir: false,
    clearScreen: false,
  };
}

export function cdnConfig({ entry = cdnEntry, outDir, quiet }: WidgetBuildTarget): InlineConfig {
  return {
    ...common(quiet),
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      minify: true,
      modulePreload: false,
      cssCodeSplit: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      sourcemap: false,
      write: true,
      // Library mode: Vite then leaves import() alone (no preload helper, no modulepreload
      // polyfill), so the panel chunk is a plain relative import that works from any CDN path.
      lib: { entry: { 'tryon-button': entry }, formats: ['es'] },
      rolldownOptions: {
        preserveEntrySignatures: 'allow-extension',
        output: {
          format: 'es',
          entryFileNames: '[name].js',
          // Nothing imports the entry file: shops load it with a query (WordPress `?ver=`, Shopify
          // `?v=`), and a module imported under another URL is a second module, with a second Lit.
          // The entry (widget/tryon-button.cdn.ts) is only the few bytes that wait for the page's
          // load; everything the element runs (Lit, the button) is the core chunk it then imports,
          // which the panel imports too, by its plain relative name.
          chunkFileNames: (chunk) => (chunk.facadeModuleId === cdnCore ? 'tryon-core-[hash].js' : '[name]-[hash].js'),
          // Library mode keeps whitespace for es output by default; a script-tag file wants it gone.
          minify: true,
        },
      },
    },
  };
}

export function npmConfig({ entry = widgetEntry, outDir, quiet }: WidgetBuildTarget): InlineConfig {
  return {
    ...common(quiet),
    build: {
      outDir,
      emptyOutDir: false,
      target: 'es2022',
      // Shops' bundlers minify; readable code makes their stack traces useful.
      minify: false,
      modulePreload: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      sourcemap: true,
      lib: { entry: { 'tryon-button': entry }, formats: ['es'] },
      rolldownOptions: {
        // libheif is not bundled here: the npm build's heic.js re-exports the CDN build's decoder
        // chunk (scripts/build.ts, CDN_SHARED), so the package carries the 2 MB decoder once.
        external: (id: string) => litPackages.test(id) || id.startsWith('libheif-js/'),
        preserveEntrySignatures: 'strict',
        output: {
          format: 'es',
          preserveModules: true,
          preserveModulesRoot: fileURLToPath(new URL('./widget', import.meta.url)),
          // Bundled packages (libheif, the HEIC decoder) go to vendor/: npm pack leaves out any
          // folder named node_modules, where preserveModules would otherwise put them.
          entryFileNames: (chunk) =>
            chunk.name.includes('node_modules/') ? `vendor/${chunk.name.split('/').pop()}.js` : '[name].js',
        },
      },
    },
  };
}

export default defineConfig(cdnConfig({ outDir: fileURLToPath(new URL('./widget/dist/cdn', import.meta.url)) }));
