/**
 * No import cycles in any package. A cycle means no file in it can be read, tested or moved
 * alone; the proxy once had a nine-file loop through its context. The graph is built from the TypeScript sources
 * by ./import-graph.ts, so type-only imports, `export … from` and dynamic `import()` all count: a type-only
 * cycle still ties the files together for a reader.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import { importGraph as graphOf, root } from './import-graph.js';

/** Every package and every place with TypeScript of its own; edges between them count as well. */
const packages = ['widget', 'proxy', 'sandbox', 'demo', 'scripts'];
const importGraph = () => graphOf(packages);

/** Tarjan's strongly connected components: every component of more than one file (or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

test("the import graph is read from every package's sources", () => {
  const graph = importGraph();
  for (const pkg of packages) {
    assert.ok(
      [...graph.keys()].some((file) => relative(root, file).startsWith(`${pkg}/`)),
      `no TypeScript source found under ${pkg}/`,
    );
  }
  // The scanner must see the kinds of import a cycle can hide in; proxy/app.ts imports its siblings.
  assert.ok((graph.get(join(root, 'proxy/app.ts')) ?? []).length > 3, "proxy/app.ts's imports were not resolved");
});

test('no package has an import cycle, type-only and dynamic imports included', () => {
  const named = cycles(importGraph()).map((component) => component.map((file) => relative(root, file)).join(' ↔ '));
  assert.deepEqual(named, [], `import cycles:\n${named.join('\n')}`);
});

test('the cycle finder itself sees a two-file loop and a self-import', () => {
  const loop = new Map([
    ['a', ['b']],
    ['b', ['a', 'c']],
    ['c', ['c']],
    ['d', ['a']],
  ]);
  assert.deepEqual(cycles(loop).sort(), [['a', 'b'], ['c']]);
});
