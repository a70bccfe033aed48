// The custom-elements manifest (custom-elements.json) from the widget's JSDoc (@event, @slot,
// @csspart, @cssproperty) and Lit's `static properties`, via @custom-elements-manifest/analyzer.
// docs/api-reference.md is written from it by api-reference.ts, the editor data by editor-data.ts.
import { readdir, readFile } from 'node:fs/promises';
import { join, posix, relative } from 'node:path';
import type { Plugin } from '@custom-elements-manifest/analyzer';
import type { SourceFile } from 'typescript';

// The analyzer's runtime exports `create` and its own copy of `ts` (the version it was written
// against); its typings declare neither, so they are typed here.
interface Analyzer {
  create(options: { modules: SourceFile[]; plugins?: Plugin[] }): unknown;
  ts: typeof import('typescript');
}

// The manifest schema's types are not a dependency of ours; these are the parts we read.
interface Described {
  name: string;
  description?: string;
  summary?: string;
}
interface TypeRef {
  text: string;
}
interface Attribute extends Described {
  fieldName?: string;
  type?: TypeRef;
  default?: string;
}
interface Member extends Described {
  kind: 'field' | 'method';
  static?: boolean;
  privacy?: 'public' | 'private' | 'protected';
  type?: TypeRef;
  default?: string;
  readonly?: boolean;
  attribute?: string;
  reflects?: boolean;
  parameters?: (Described & { type?: TypeRef; optional?: boolean })[];
  return?: { type?: TypeRef };
}
interface Declaration extends Described {
  kind: string;
  customElement?: boolean;
  tagName?: string;
  attributes?: Attribute[];
  members?: Member[];
  events?: (Described & { type?: TypeRef })[];
  slots?: Described[];
  cssParts?: Described[];
  cssProperties?: (Described & { default?: string; syntax?: string })[];
}
export interface Manifest {
  schemaVersion: string;
  modules: {
    kind: string;
    path: string;
    declarations?: Declaration[];
    exports?: { kind: string; name: string; declaration: { name: string; module?: string } }[];
  }[];
}

// The analyzer's Lit support is not part of its typed entry point; it ships in the same package.
const litPluginModule = '@custom-elements-manifest/analyzer/src/features/framework-plugins/lit/lit.js';

async function sourceFiles(dir: string, root: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      found.push(...(await sourceFiles(path, root)));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      found.push(relative(root, path));
    }
  }
  return found.sort();
}

/**
 * Analyzes widget/*.ts and returns the manifest with module paths pointing at the npm build's
 * files (`widget/x.ts` → `<distPrefix>x.js`), which is where a consumer's tools look.
 */
export async function buildManifest(options: { root: string; distPrefix: string }): Promise<Manifest> {
  const widgetDir = join(options.root, 'widget');
  const files = await sourceFiles(widgetDir, widgetDir);
  const { create, ts } = (await import('@custom-elements-manifest/analyzer')) as unknown as Analyzer;
  const modules = await Promise.all(
    files.map(async (file) =>
      ts.createSourceFile(file, await readFile(join(widgetDir, file), 'utf8'), ts.ScriptTarget.ES2022, true),
    ),
  );
  const { litPlugin } = (await import(litPluginModule)) as { litPlugin: () => Plugin[] };
  const manifest = create({ modules, plugins: [...litPlugin()] }) as unknown as Manifest;
  resolveReferences(manifest, modules, ts);
  const toDist = (path: string) => `${options.distPrefix}${path.replace(/\.ts$/, '.js')}`;
  const text = JSON.stringify(manifest, (key, value: unknown) =>
    (key === 'path' || key === 'module') && typeof value === 'string' && value.endsWith('.ts') ? toDist(value) : value,
  );
  return tidy(JSON.parse(text) as Manifest);
}

type Export = NonNullable<Manifest['modules'][number]['exports']>[number];

/**
 * A module reference as a source path from widget/ (`i18n/en.ts`). The analyzer names a module's
 * own declarations by its path (`i18n/en.ts`) and others as the source spelled them, relative to
 * the module (`./i18n/en.js`, `events.js`, `/tryon-panel.component.js`).
 */
function sourcePath(from: string, reference: string): string {
  if (reference.endsWith('.ts')) return posix.normalize(reference.replace(/^\//, ''));
  const relativeTo = reference.startsWith('/') ? '' : posix.dirname(from);
  return posix.normalize(posix.join(relativeTo, reference.replace(/^\//, ''))).replace(/\.js$/, '.ts');
}

/**
 * Fixes the analyzer's cross-references, which tools follow from a tag name to its class:
 * - every module reference is a normalised source path (it writes `./i18n/en.js`, `events.js`,
 *   `/tryon-panel.component.js` as the source spelled them);
 * - a re-exported class (`import { TryonButton } from …; export { TryonButton }`) points at the
 *   module that declares it, not at the re-exporting one;
 * - type-only exports (`export type …`) are left out: the manifest lists what JavaScript exports;
 * - a registration through a variable (`define(name = 'tryon-button')`), which it records as
 *   "name" → "anonymous_0", names the element the module exports (or else the one it imports),
 *   by its `@tag`;
 * - a module that calls such a registering function at its top level with no argument (the entry's
 *   `define()`) registers that element too: it is recorded there as well;
 * - a reference to a declaration the manifest does not hold (an `@internal` class such as the
 *   panel) is left out rather than left dangling, and a module left with nothing is dropped.
 */
function resolveReferences(manifest: Manifest, sources: SourceFile[], ts: Analyzer['ts']): void {
  const byPath = new Map(manifest.modules.map((module) => [module.path.replace(/^\//, ''), module]));
  const imports = new Map<string, Map<string, string>>();
  const typeOnly = new Map<string, Set<string>>();
  /** Names a module calls at its top level with no argument (`define();`). */
  const calledBare = new Map<string, Set<string>>();
  for (const source of sources) {
    const path = source.fileName;
    const imported = new Map<string, string>();
    const types = new Set<string>();
    const called = new Set<string>();
    calledBare.set(path, called);
    for (const statement of source.statements) {
      if (
        ts.isExpressionStatement(statement) &&
        ts.isCallExpression(statement.expression) &&
        ts.isIdentifier(statement.expression.expression) &&
        statement.expression.arguments.length === 0
      ) {
        called.add(statement.expression.expression.text);
      }
      if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
        const from = sourcePath(path, statement.moduleSpecifier.text);
        const bindings = statement.importClause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) imported.set(element.name.text, from);
        }
      }
      if (ts.isExportDeclaration(statement)) {
        const clause = statement.exportClause;
        if (!clause) {
          if (statement.isTypeOnly) types.add('*');
        } else if (ts.isNamedExports(clause)) {
          for (const element of clause.elements)
            if (statement.isTypeOnly || element.isTypeOnly) types.add(element.name.text);
        }
      }
    }
    imports.set(path, imported);
    typeOnly.set(path, types);
  }

  const declares = (path: string, name: string) =>
    byPath.get(path)?.declarations?.some((d) => d.name === name) ?? false;
  /** The module that declares `name` as seen from `path`, following imports. */
  const declaringModule = (path: string, name: string, seen = new Set<string>()): string | undefined => {
    if (declares(path, name)) return path;
    if (seen.has(path)) return undefined;
    seen.add(path);
    const from = imports.get(path)?.get(name);
    return from ? declaringModule(from, name, seen) : undefined;
  };

  for (const [path, module] of byPath) {
    module.path = path;
    const resolved: Export[] = [];
    for (const entry of module.exports ?? []) {
      if (entry.kind === 'js' && typeOnly.get(path)?.has(entry.name)) continue;
      const written = entry.declaration.module ? sourcePath(path, entry.declaration.module) : path;
      const target = declaringModule(written, entry.declaration.name);
      if (target) {
        resolved.push({ ...entry, declaration: { name: entry.declaration.name, module: target } });
      } else if (entry.kind === 'custom-element-definition') {
        resolved.push(...anonymousDefinition(path, resolved));
      }
    }
    module.exports = resolved;
  }
  // After every module's own definitions are named: a bare top-level call of an imported function
  // whose module registers an element (the only thing such a module exports) registers it here too.
  for (const [path, module] of byPath) {
    for (const name of calledBare.get(path) ?? []) {
      const from = imports.get(path)?.get(name);
      const registering = from ? byPath.get(from) : undefined;
      const exportsOnly = registering?.exports?.filter((entry) => entry.kind === 'js').map((entry) => entry.name);
      if (!registering || exportsOnly?.length !== 1 || exportsOnly[0] !== name) continue;
      for (const definition of registering.exports ?? []) {
        if (definition.kind === 'custom-element-definition')
          (module.exports ??= []).push({ ...definition, declaration: { ...definition.declaration } });
      }
    }
  }
  manifest.modules = manifest.modules.filter(
    (module) => (module.declarations?.length ?? 0) > 0 || (module.exports?.length ?? 0) > 0,
  );

  /**
   * A registration of a class the analyzer could not name: the one element this module exports,
   * or, when it exports none, the one element it imports.
   */
  function anonymousDefinition(path: string, exported: Export[]): Export[] {
    const elementAt = (module: string, name: string) => {
      const declaration = byPath.get(module)?.declarations?.find((d) => d.name === name);
      return declaration?.customElement && declaration.tagName ? declaration.tagName : undefined;
    };
    const candidates: { name: string; module: string }[] = exported
      .filter((entry) => entry.kind === 'js')
      .map((entry) => ({ name: entry.declaration.name, module: entry.declaration.module! }));
    let elements = candidates.filter((c) => elementAt(c.module, c.name));
    if (elements.length === 0) {
      elements = [...(imports.get(path) ?? [])]
        .map(([name, from]) => ({ name, module: declaringModule(from, name) ?? '' }))
        .filter((c) => c.module && elementAt(c.module, c.name));
    }
    if (elements.length !== 1) return [];
    const [{ name, module }] = elements as [{ name: string; module: string }];
    return [{ kind: 'custom-element-definition', name: elementAt(module, name)!, declaration: { name, module } }];
  }
}

/**
 * What the analyzer guesses wrongly for Lit: reactive state (`state: true`, private) listed as an
 * attribute, and `dispatchEvent(new CustomEvent(name))` in a generic emit() listed as an event
 * called "name". The documented @event tags are the real list.
 */
function tidy(manifest: Manifest): Manifest {
  for (const module of manifest.modules) {
    for (const declaration of module.declarations ?? []) {
      const hidden = new Set(
        (declaration.members ?? [])
          .filter((m) => m.privacy === 'private' || m.privacy === 'protected')
          .map((m) => m.name),
      );
      if (declaration.attributes)
        declaration.attributes = declaration.attributes.filter((a) => !hidden.has(a.fieldName ?? a.name));
      if (declaration.events)
        declaration.events = declaration.events.filter((e) => e.description || e.name.includes('-'));
    }
  }
  return manifest;
}
