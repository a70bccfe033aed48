// The size budgets a shop's page pays for the widget, and the other checks of the CDN build: what
// a strict Content-Security-Policy would refuse, and the Subresource Integrity hashes. `npm run
// build` prints them and fails when a budget is over or a hazard is found (scripts/build.ts);
// size-figures.ts writes the measured sizes where the docs quote them.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { listFiles, type BuildResult } from './build-files.js';
import { firstScriptOf, graphOf } from './module-graph.js';
import { isPhotoCheckFile } from './photo-check-build.js';
import { isPhotoPrepFile } from './worker-build.js';

/** Gzipped size limits (bytes) a shop's page pays; the build fails when over. */
export const BUDGETS = {
  /** The script the page loads up front: the button with Lit inside. */
  button: 10 * 1024,
  /**
   * What one page pays at most, the HEIC decoder aside: the button, the panel and every chunk it
   * imports, English, and one other language's dictionary (the largest). Dictionaries are fetched
   * only by pages in their language, so adding a language never adds to any page's cost.
   * 32 KB since the panel learned to say an outage, watch a closed try-on on, share the product
   * page, fit laptops and phones and pick its accent's text colour (30.5 KB with the largest
   * dictionary, after the styles' CSS is minified); the panel alone stays far under the 30 KB
   * first asked of it. 34 KB since the result offers Add to cart (Shopify's Ajax Cart API and the
   * events Dawn and Horizon refresh from, WooCommerce's AJAX add and form post: 2.1 KB) and the
   * button holds shoppers out and reports their exposure (0.7 KB, and the conversion sender as a
   * chunk of its own): 33.5 KB. 38 KB since the progress step shows the first look (a draft
   * beside the render, its crossfade, kept when the render fails), the result offers every colour
   * as a draft ("See all colours"), the button checks availability before it shows, and every
   * error code has its own words in each language: 37.1 KB, of which the panel is 20.7 KB. All of
   * it but the 9.1 KB first script loads after the page, on idle or on a shopper's approach.
   * 40 KB since the photo step offers "See it on a model" and "Use your phone": their
   * screens and the QR code library are chunks of their own, budgeted apart (`alternatives`), but
   * the flow's part (a try-on of a model, a photo from a hand-off, the phone's upload, the hand-off's
   * stream and poll) is in the panel, and their texts in every dictionary: 39.8 KB, the panel 22.5 KB.
   * 42 KB once the same release also gated both ways a photo leaves the device on the photo check
   * and said a picture that does not load as an error (`image_failed`, in every dictionary): 40.7 KB,
   * the panel 23.0 KB. 43 KB once the desktop asks for the number the phone shows before it takes a
   * hand-off photo (mutual pairing). Moving the hand-off's stream and poll into its own chunk would
   * win back ~2 KB. 45 KB once a shopper is never stranded: the proxy's measured usual time with
   * "taking longer than usual" and Keep waiting, the endings `upstream_lost`, `upstream_unavailable`
   * and `photo_expired` in words, tips that follow the product and the outline of what the photo
   * check saw, a chunk that did not load said in words, and a result step that leads with the
   * picture, each in every dictionary. 46 KB once a page running a holdout measures lift itself:
   * the anonymous browser id kept only with the visitor's consent, the exposure report to the
   * proxy and the try-on's marks on the shop's cart (a chunk of its own, `measurement`, 1.4 KB,
   * loaded only on a page with a holdout). 48 KB once the result says what the proxy's check of it
   * against the product found (the label, the product's swatch and the note while a view is made
   * again, in every dictionary: 0.9 KB) and offers "Complete the look" (the panel's part, which
   * keeps the outfit and hands its screens to a chunk of their own, budgeted apart: 0.8 KB).
   */
  buttonAndPanel: 48 * 1024,
  /** The HEIC decoder (libheif with its wasm inside), fetched only when a shopper picks a HEIC photo. */
  heicDecoder: 768 * 1024,
  /**
   * The photo check, fetched only once a photo is chosen: its chunk and dictionaries, the worker
   * with TensorFlow.js, the two quantized models and the wasm. Bytes on disk, not gzip: the
   * package's install size is what it weighs on (docs/widget.md, "The photo check").
   */
  photoCheckOnDisk: 2 * 1024 * 1024,
  /** "See it on a model" and "Use your phone" (alternatives.ts) and the QR code library: fetched only when pressed, budgeted apart. */
  alternatives: 8 * 1024,
  /**
   * "Complete the look" (outfit/look.ts) with its words in each language: fetched only for a result
   * whose product has pieces that go with it, budgeted apart (the look and the largest language's words).
   */
  outfit: 6 * 1024,
};

/** The CDN chunk holding the HEIC decoder (widget/photo/heic.ts): outside the button + panel budget. */
export const isHeicDecoder = (file: string) => /^heic-[\w-]+\.js$/.test(file);
/** The chunks of the models' and hand-off's screens and of lean-qr (nano, svg): fetched only when the shopper asks for them. */
export const isAlternatives = (file: string) => /^(alternatives|nano|svg)-[\w-]+\.js$/.test(file);

/** The look's chunk and its words' chunks (`look-<hash>.js`, `outfit-<code>-<hash>.js`): fetched only for a product with pieces. */
export const isOutfit = (file: string) => /^(look|outfit-[a-z]{2,3})-[\w-]+\.js$/.test(file);
const isOutfitWords = (file: string) => /^outfit-[a-z]{2,3}-[\w-]+\.js$/.test(file);

/** Subresource Integrity value for a file: what goes in `<script integrity="…">`. */
export async function sriHash(path: string): Promise<string> {
  const digest = createHash('sha384')
    .update(await readFile(path))
    .digest('base64');
  return `sha384-${digest}`;
}

export interface BudgetCheck {
  /** Gzipped bytes of the first script: the entry and every file it statically imports. */
  button: number;
  /** The files that make up the first script. */
  firstScript: string[];
  buttonAndPanel: number;
  /** Gzipped bytes of the largest dictionary other than English (counted once in buttonAndPanel). */
  largestDictionary: number;
  heicDecoder: number;
  /** Every file of the photo check, bytes on disk. */
  photoCheck: number;
  alternatives: number;
  /** The look's chunk and its largest language's words, gzip. */
  outfit: number;
  problems: string[];
}

/** A language's dictionary chunk (`ur-<hash>.js`), other than English, which every panel loads. */
const isOtherDictionary = (file: string) => /^[a-z]{2,3}-[\w-]+\.js$/.test(file) && !file.startsWith('en-');

export function checkBudgets(cdn: BuildResult): BudgetCheck {
  const scripts = cdn.files.filter((f) => f.file.endsWith('.js'));
  const entry = 'tryon-button.js';
  const problems: string[] = [];
  if (!scripts.some((f) => f.file === entry)) {
    problems.push('tryon-button.js is missing from the CDN build');
    return {
      button: 0,
      firstScript: [],
      buttonAndPanel: 0,
      largestDictionary: 0,
      heicDecoder: 0,
      photoCheck: 0,
      alternatives: 0,
      outfit: 0,
      problems,
    };
  }
  // The entry is a few bytes: what a page pays for the button is the entry and the core chunk it
  // imports once the page has loaded.
  const firstScript = [...firstScriptOf(graphOf(cdn.outDir), entry)];
  const button = scripts.filter((f) => firstScript.includes(f.file)).reduce((sum, f) => sum + f.gzip, 0);
  // The HEIC decoder is fetched only for a HEIC photo the browser cannot decode: budgeted apart.
  // A page fetches at most one dictionary besides English: the largest counts, once.
  const largestDictionary = Math.max(0, ...scripts.filter((f) => isOtherDictionary(f.file)).map((f) => f.gzip));
  const buttonAndPanel =
    largestDictionary +
    scripts
      .filter(
        (f) =>
          !isHeicDecoder(f.file) &&
          !isOtherDictionary(f.file) &&
          !isPhotoCheckFile(f.file) &&
          !isPhotoPrepFile(f.file) &&
          !isAlternatives(f.file) &&
          !isOutfit(f.file),
      )
      .reduce((sum, f) => sum + f.gzip, 0);
  // The photo check is fetched only after a photo is chosen: budgeted apart, on disk.
  const photoCheck = cdn.files.filter((f) => isPhotoCheckFile(f.file)).reduce((sum, f) => sum + f.bytes, 0);
  const alternatives = scripts.filter((f) => isAlternatives(f.file)).reduce((sum, f) => sum + f.gzip, 0);
  if (alternatives > BUDGETS.alternatives)
    problems.push(`models and hand-off are ${alternatives} B gzipped, over their budget of ${BUDGETS.alternatives} B`);
  // A page loads the look and at most one language's words for it: the largest counts.
  const outfit =
    scripts.filter((f) => isOutfit(f.file) && !isOutfitWords(f.file)).reduce((sum, f) => sum + f.gzip, 0) +
    Math.max(0, ...scripts.filter((f) => isOutfitWords(f.file)).map((f) => f.gzip));
  if (outfit > BUDGETS.outfit)
    problems.push(`"Complete the look" is ${outfit} B gzipped, over its budget of ${BUDGETS.outfit} B`);
  const heicDecoder = scripts.filter((f) => isHeicDecoder(f.file)).reduce((sum, f) => sum + f.gzip, 0);
  if (button > BUDGETS.button)
    problems.push(`the button is ${button} B gzipped, over its budget of ${BUDGETS.button} B`);
  if (buttonAndPanel > BUDGETS.buttonAndPanel) {
    problems.push(`button + panel are ${buttonAndPanel} B gzipped, over their budget of ${BUDGETS.buttonAndPanel} B`);
  }
  if (heicDecoder > BUDGETS.heicDecoder) {
    problems.push(`the HEIC decoder is ${heicDecoder} B gzipped, over its budget of ${BUDGETS.heicDecoder} B`);
  }
  if (photoCheck > BUDGETS.photoCheckOnDisk) {
    problems.push(`the photo check is ${photoCheck} B on disk, over its budget of ${BUDGETS.photoCheckOnDisk} B`);
  }
  return {
    button,
    firstScript,
    buttonAndPanel,
    largestDictionary,
    heicDecoder,
    photoCheck,
    alternatives,
    outfit,
    problems,
  };
}

/**
 * What a strict Content-Security-Policy (no 'unsafe-eval', no 'unsafe-inline') would refuse if
 * the bundle did it: eval, the Function constructor, string timers, inline event-handler markup.
 */
export async function findCspHazards(outDir: string): Promise<string[]> {
  const hazards: [RegExp, string][] = [
    [/(?<![\w$.])eval\s*\(/, 'eval('],
    [/\bnew\s+Function\s*\(/, 'new Function('],
    [/(?<!new\s+)(?<![\w$.])Function\s*\(\s*["'`]/, 'Function("…")'],
    [/\bset(?:Timeout|Interval)\s*\(\s*["'`]/, 'a string passed to setTimeout/setInterval'],
    [/\bjavascript:/i, 'a javascript: URL'],
    [/<script[\s>]/i, 'inline <script> markup'],
  ];
  const found: string[] = [];
  for (const path of await listFiles(outDir)) {
    if (!path.endsWith('.js')) continue;
    const text = await readFile(path, 'utf8');
    for (const [pattern, name] of hazards) if (pattern.test(text)) found.push(`${relative(outDir, path)}: ${name}`);
  }
  return found;
}
