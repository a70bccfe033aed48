// One figure for each size, generated where it is quoted. The README and the docs quote the
// widget's sizes between markers, `<!-- size:first-script -->7.6 KB<!-- /size -->`; `npm run
// build` measures the build it just made and writes each figure into every marker of its name
// (writeSizeFigures), and test/integrations/size-figures.test.ts builds afresh and fails when a
// quoted figure is not the build's (staleSizeFigures). A size quoted without a marker is a copy
// that nothing keeps true: quote it with one.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BudgetCheck } from './build-budgets.js';

/** The sizes the docs may quote, by marker name. */
export type SizeFigure = 'first-script' | 'button-and-panel' | 'button-and-panel-largest-language';

/** The files that quote sizes between markers (relative to the project's root). */
export const QUOTING_FILES = [
  'README.md',
  'docs/architecture.md',
  'docs/widget.md',
  'docs/performance.md',
  'docs/integrations/README.md',
  'docs/integrations/npm.md',
  'docs/integrations/script-tag.md',
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The figures of one CDN build, gzip: the first script (the entry and what it imports statically),
 * button and panel on an English page, and the same with the largest other language's dictionary.
 */
export function sizeFigures(
  budgets: Pick<BudgetCheck, 'button' | 'buttonAndPanel'> & { largestDictionary: number },
): Record<SizeFigure, string> {
  return {
    'first-script': kb(budgets.button),
    'button-and-panel': kb(budgets.buttonAndPanel - budgets.largestDictionary),
    'button-and-panel-largest-language': kb(budgets.buttonAndPanel),
  };
}

const MARKER = /<!-- size:([a-z-]+) -->([^<]*)<!-- \/size -->/g;

/** Every marker in `text`: its name and the figure quoted. */
export function quotedSizes(text: string): { name: string; quoted: string }[] {
  return [...text.matchAll(MARKER)].map((m) => ({ name: m[1]!, quoted: m[2]! }));
}

/** `text` with every marker's figure replaced by the measured one; an unknown name is an error. */
export function withSizeFigures(text: string, figures: Record<SizeFigure, string>, file = 'text'): string {
  return text.replace(MARKER, (_whole, name: string) => {
    if (!(name in figures))
      throw new Error(`${file}: no size figure named "${name}" (known: ${Object.keys(figures).join(', ')})`);
    return `<!-- size:${name} -->${figures[name as SizeFigure]}<!-- /size -->`;
  });
}

/** Writes the figures into every marker of QUOTING_FILES under `root`; returns the files it changed. */
export async function writeSizeFigures(root: string, figures: Record<SizeFigure, string>): Promise<string[]> {
  const changed: string[] = [];
  for (const file of QUOTING_FILES) {
    const path = join(root, file);
    const text = await readFile(path, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const next = withSizeFigures(text, figures, file);
    if (next !== text) {
      await writeFile(path, next);
      changed.push(file);
    }
  }
  return changed;
}

/** Each quoted figure that is not the measured one: "README.md: first-script says 7.5 KB, the build is 7.6 KB". */
export async function staleSizeFigures(root: string, figures: Record<SizeFigure, string>): Promise<string[]> {
  const stale: string[] = [];
  for (const file of QUOTING_FILES) {
    const text = await readFile(join(root, file), 'utf8').catch(() => '');
    for (const { name, quoted } of quotedSizes(text)) {
      const measured = figures[name as SizeFigure];
      if (measured === undefined) stale.push(`${file}: no size figure named "${name}"`);
      else if (quoted !== measured)
        stale.push(`${file}: ${name} says ${quoted}, the build is ${measured} (npm run build writes it)`);
    }
  }
  return stale;
}
