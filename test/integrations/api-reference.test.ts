// One source for the public API: the JSDoc in widget/ → custom-elements.json → docs/api-reference.md.
// The manifest's cross-references lead where tools expect, the committed reference is what the
// build would write now, and the parts agree three ways: the `@csspart` tags, the `exportparts`
// that forwards them out of the button's shadow root, and the `part` names the templates render.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { apiReference } from '../../scripts/api-reference.js';
import { buildManifest, type Manifest } from '../../scripts/build-manifest.js';
import { listFiles, projectRoot } from '../../scripts/build.js';

const widgetDir = join(projectRoot, 'widget');
/** The module that renders the button itself: its own parts need no exportparts. */
const buttonModule = 'tryon-button.component.ts';

let manifest: Manifest;

before(async () => {
  manifest = await buildManifest({ root: projectRoot, distPrefix: 'dist/npm/' });
});

type Declaration = NonNullable<Manifest['modules'][number]['declarations']>[number];

function declarationAt(module: string | undefined, name: string): Declaration | undefined {
  return manifest.modules.find((m) => m.path === module)?.declarations?.find((d) => d.name === name);
}

describe('custom-elements.json', () => {
  test('every module path is normalised and every export leads to a declaration', () => {
    for (const module of manifest.modules) {
      assert.match(module.path, /^dist\/npm\/(?:[\w.-]+\/)*[\w.-]+\.js$/, `module path ${module.path}`);
      assert.ok(
        (module.declarations?.length ?? 0) > 0 || (module.exports?.length ?? 0) > 0,
        `${module.path} holds something`,
      );
      for (const entry of module.exports ?? []) {
        const target = entry.declaration.module;
        assert.match(
          target ?? '',
          /^dist\/npm\/(?:[\w.-]+\/)*[\w.-]+\.js$/,
          `${module.path} exports ${entry.name} from ${target}`,
        );
        assert.ok(
          declarationAt(target, entry.declaration.name),
          `${module.path}: ${entry.kind} ${entry.name} → ${target}#${entry.declaration.name}, which is declared there`,
        );
        assert.doesNotMatch(entry.declaration.name, /^anonymous_/);
      }
    }
  });

  test('<tryon-button> is registered under its tag name, by the entry, for the class its module declares', () => {
    const entry = manifest.modules.find((m) => m.path === 'dist/npm/tryon-button.js');
    assert.ok(entry, 'the entry module is described');
    const definitions = entry.exports?.filter((e) => e.kind === 'custom-element-definition') ?? [];
    assert.deepEqual(definitions, [
      {
        kind: 'custom-element-definition',
        name: 'tryon-button',
        declaration: { name: 'TryonButton', module: 'dist/npm/tryon-button.component.js' },
      },
    ]);
    const exported = entry.exports?.find((e) => e.kind === 'js' && e.name === 'TryonButton');
    assert.deepEqual(exported?.declaration, { name: 'TryonButton', module: 'dist/npm/tryon-button.component.js' });
    const element = declarationAt('dist/npm/tryon-button.component.js', 'TryonButton');
    assert.equal(element?.tagName, 'tryon-button');
    assert.equal(element?.customElement, true);
  });

  test('every custom element registered in the manifest points at a module that declares it', () => {
    const definitions = manifest.modules.flatMap((m) =>
      (m.exports ?? []).filter((e) => e.kind === 'custom-element-definition'),
    );
    assert.ok(definitions.length > 0);
    for (const definition of definitions) {
      const declaration = declarationAt(definition.declaration.module, definition.declaration.name);
      assert.ok(declaration, `${definition.name} → ${definition.declaration.module}#${definition.declaration.name}`);
      assert.equal(declaration.tagName, definition.name);
    }
  });
});

describe('docs/api-reference.md', () => {
  test('is what the build generates from the current JSDoc (run `npm run build` after changing it)', async () => {
    const committed = await readFile(join(projectRoot, 'docs/api-reference.md'), 'utf8');
    assert.equal(
      committed,
      apiReference(manifest),
      'docs/api-reference.md is stale: run `npm run build` and commit it',
    );
  });

  test('a change to the JSDoc changes the reference (the check above is not vacuous)', () => {
    const changed = structuredClone(manifest);
    const element = changed.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'tryon-button')!;
    element.cssParts = [...(element.cssParts ?? []), { name: 'a-new-part', description: 'Added.' }];
    assert.notEqual(apiReference(changed), apiReference(manifest));
  });
});

/** `part` names a template renders: `part="a b"` and the string literals inside `part=${…}`. */
function renderedParts(source: string): string[] {
  const names: string[] = [];
  for (const match of source.matchAll(/(?<![\w-])part=(?:"([^"]*)"|'([^']*)'|\$\{([^}]*)\})/g)) {
    const literal = match[1] ?? match[2];
    const expression = match[3];
    const values =
      literal !== undefined ? [literal] : [...(expression ?? '').matchAll(/(["'`])([^"'`]*)\1/g)].map((m) => m[2]!);
    for (const value of values) names.push(...value.split(/\s+/).filter(Boolean));
  }
  return names;
}

describe('CSS parts', () => {
  test('the @csspart tags, exportparts and the rendered part names agree', async () => {
    const sources = (await listFiles(widgetDir)).filter((path) => path.endsWith('.ts'));
    const rendered = new Set<string>();
    const renderedByButton = new Set<string>();
    const exported = new Set<string>();
    const documented = new Set<string>();
    for (const path of sources) {
      const text = await readFile(path, 'utf8');
      for (const name of renderedParts(text)) {
        rendered.add(name);
        if (relative(widgetDir, path) === buttonModule) renderedByButton.add(name);
      }
      // In markup, or the panel's own list it sets as its `exportparts`.
      for (const match of text.matchAll(/exportparts="([^"]*)"|EXPORTED_PARTS =\s*'([^']*)'/g)) {
        for (const name of (match[1] ?? match[2])!
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean))
          exported.add(name.split(':')[0]!.trim());
      }
      for (const match of text.matchAll(/@csspart\s+([\w-]+)/g)) documented.add(match[1]!);
    }
    const sorted = (set: Set<string>) => [...set].sort();
    assert.ok(rendered.size > 5 && exported.size > 5, `the scan finds parts: ${sorted(rendered).join(', ')}`);
    assert.deepEqual(
      sorted(documented),
      sorted(rendered),
      'every rendered part is documented with @csspart, and no other',
    );
    const forwarded = new Set([...rendered].filter((name) => !renderedByButton.has(name)));
    assert.deepEqual(
      sorted(exported),
      sorted(forwarded),
      "exportparts forwards every part of the panel's shadow root, and no other",
    );
    const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'tryon-button');
    assert.deepEqual(
      (element?.cssParts ?? []).map((p) => p.name).sort(),
      sorted(rendered),
      'the manifest lists the same parts',
    );
  });

  test('the scan reads static, multiple and conditional part names, and not exportparts', () => {
    assert.deepEqual(
      renderedParts('<p part="a b"></p><i part=${x ? \'c\' : "d"}></i><x exportparts="e, f"></x><y part=\'g\'>'),
      ['a', 'b', 'c', 'd', 'g'],
    );
  });
});
