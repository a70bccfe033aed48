// 1. Page weight: what a product page downloads for the button, and what the panel adds when the
// shopper opens it. Measured on the real script-tag build (scripts/build.ts buildCdn), gzip -9
// per file because each file travels separately. Over budget fails the whole bench.
import { firstScriptOf, graphOf, staticClosure } from '../../scripts/module-graph.js';
import type { Benchmark } from './harness.js';
import { BUDGETS } from '../../scripts/build.js';
import { loadBuild } from './project.js';
import { figure, kb } from './report.js';

// The build's own budgets, read from the build: a copy here fell behind twice.
export const BUTTON_BUDGET = BUDGETS.button;
export const PANEL_BUDGET = BUDGETS.buttonAndPanel;

// The module graph is the build's own reading (scripts/module-graph.ts), so the bench and the
// build's budgets count the same first script.
export { graphOf, staticClosure, type ModuleGraph } from '../../scripts/module-graph.js';

export const pageWeight: Benchmark = {
  id: 'page-weight',
  title: '1. Page weight (gzip -9, real CDN build)',
  limitSeconds: 120,
  async run(ctx) {
    const { buildCdn } = await loadBuild();
    const outDir = ctx.scratch('cdn');
    const built = await buildCdn({ outDir, quiet: true });
    const gzipOf = new Map(built.files.map((f) => [f.file, f.gzip]));
    const sum = (files: Iterable<string>) => [...files].reduce((total, file) => total + (gzipOf.get(file) ?? 0), 0);
    const entry = 'tryon-button.js';
    if (!gzipOf.has(entry)) throw new Error(`the build has no ${entry} (files: ${[...gzipOf.keys()].join(', ')})`);

    const graph = graphOf(outDir);
    const first = firstScriptOf(graph, entry);
    const lazy = [...first].flatMap((file) => graph.dynamicImports(file));
    const panelEntries = lazy.filter((file) => /panel/i.test(file));
    const panelRoots = panelEntries.length > 0 ? panelEntries : lazy;
    const panel = new Set<string>();
    for (const root of panelRoots) for (const file of staticClosure(graph, root)) if (!first.has(file)) panel.add(file);
    const firstBytes = sum(first);
    const panelBytes = sum(panel);
    ctx.log(
      `page weight: first script ${firstBytes} B gz (${[...first].join(', ')}), panel ${panelBytes} B gz (${[...panel].join(', ')})`,
    );

    const figures = [
      figure(
        'first script a product page loads (button + Lit)',
        kb(firstBytes),
        `≤ ${kb(BUTTON_BUDGET)}`,
        firstBytes <= BUTTON_BUDGET,
        true,
      ),
      figure('panel, loaded on first interaction', kb(panelBytes), undefined, undefined),
      figure(
        'button + panel, all a shopper loads',
        kb(firstBytes + panelBytes),
        `≤ ${kb(PANEL_BUDGET)}`,
        panel.size > 0 && firstBytes + panelBytes <= PANEL_BUDGET,
        true,
      ),
    ];
    const notes = [
      `first script: ${[...first].join(' + ')}; panel: ${panel.size > 0 ? [...panel].join(' + ') : 'no lazy panel chunk found (fails the panel budget)'}`,
    ];
    const others = built.files.filter((f) => f.file.endsWith('.js') && !first.has(f.file) && !panel.has(f.file));
    if (others.length > 0)
      notes.push(
        `other lazy chunks (not loaded with the panel): ${others.map((f) => `${f.file} ${kb(f.gzip)}`).join(', ')}`,
      );
    return { figures, notes };
  },
};
