// Which built files a page fetches before a module runs (its static imports, transitively) and
// which it may fetch later (`import('./x.js')`): read from the built files themselves, so the
// build's budgets and the bench's page weight count what a browser really loads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$*{}\s,]+?from\s*)?["'`]([^"'`]+\.js)["'`]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g;

export interface ModuleGraph {
  /** Files a module pulls in before it runs. */
  staticImports(file: string): string[];
  /** Files a module may import later (`import('./x.js')`). */
  dynamicImports(file: string): string[];
}

export function graphOf(outDir: string): ModuleGraph {
  const read = (file: string) => readFileSync(join(outDir, file), 'utf8');
  const resolve = (from: string, specifier: string) => {
    const base = new URL(`file:///${from}`);
    return new URL(specifier, base).pathname.slice(1);
  };
  const matches = (file: string, pattern: RegExp) =>
    [...read(file).matchAll(pattern)]
      .map((m) => m[1]!)
      .filter((s) => s.startsWith('.'))
      .map((s) => resolve(file, s));
  return {
    staticImports: (file) => matches(file, STATIC_IMPORT),
    dynamicImports: (file) => matches(file, DYNAMIC_IMPORT),
  };
}

/** Every file loaded before `entry` runs: itself and its static imports, transitively. */
export function staticClosure(graph: ModuleGraph, entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const next of graph.staticImports(entry)) staticClosure(graph, next, seen);
  return seen;
}

/** Every file `entry` may ever load: its static and dynamic imports, transitively. */
export function reachableFrom(graph: ModuleGraph, entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const next of [...graph.staticImports(entry), ...graph.dynamicImports(entry)]) reachableFrom(graph, next, seen);
  return seen;
}

/** The core chunk of the CDN build: Lit and the button, which the entry imports once the page has loaded. */
export const isCoreChunk = (file: string) => /^tryon-core-[\w-]+\.js$/.test(file);

/**
 * What a product page loads for the button, whether or not the entry waits for the page's load
 * first: the entry with its static imports, and the core chunk it imports (with its static imports).
 */
export function firstScriptOf(graph: ModuleGraph, entry: string): Set<string> {
  const first = staticClosure(graph, entry);
  for (const file of [...first]) {
    for (const core of graph.dynamicImports(file).filter(isCoreChunk)) staticClosure(graph, core, first);
  }
  return first;
}
