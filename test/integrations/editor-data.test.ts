// What editors and frameworks know about <tryon-button> is generated from custom-elements.json
// (scripts/editor-data.ts), never kept by hand: the committed files are what the generator writes
// now, and what they say is right (every attribute, every shipped language, the literal values).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildManifest, type Manifest } from '../../scripts/build-manifest.js';
import { projectRoot, widgetPackage } from '../../scripts/build.js';
import { editorData, staleEditorData, widgetLanguages, type EditorFile } from '../../scripts/editor-data.js';

let manifest: Manifest;
let files: EditorFile[];
let languages: string[];

before(async () => {
  manifest = await buildManifest({ root: projectRoot, distPrefix: 'dist/npm/' });
  files = await editorData(manifest, { root: projectRoot, ...(await widgetPackage()) });
  languages = await widgetLanguages(projectRoot);
});

const fileText = (path: string) => files.find((f) => f.path === path)!.text;
const attributesOf = () =>
  manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'tryon-button')!.attributes!;

describe('editor data generated from custom-elements.json', () => {
  test('the committed files are what the generator writes now (run `npm run build` when this fails)', async () => {
    assert.deepEqual(files.map((f) => f.path).sort(), [
      'widget/frameworks/react-events.ts',
      'widget/frameworks/tryon-button-attributes.ts',
      'widget/vscode.html-custom-data.json',
      'widget/web-types.json',
    ]);
    assert.deepEqual(await staleEditorData(files, projectRoot), []);
  });

  test("the React wrapper has one prop per event of the element, named as @lit/react's users expect", () => {
    const events = manifest.modules
      .flatMap((m) => m.declarations ?? [])
      .find((d) => d.tagName === 'tryon-button')!
      .events!.map((e) => e.name);
    assert.ok(events.length >= 10, `the element declares its events (${events.length})`);
    const props = [...fileText('widget/frameworks/react-events.ts').matchAll(/^ {2}(on\w+): '([\w-]+)'/gm)].map((m) => [
      m[1],
      m[2],
    ]);
    assert.deepEqual(
      props.map(([, event]) => event),
      events,
    );
    assert.deepEqual(
      props.find(([, event]) => event === 'tryon-add-to-cart'),
      ['onTryonAddToCart', 'tryon-add-to-cart'],
    );
  });

  test('a stale file is caught: one changed word, or a missing file', async () => {
    const changed = files.map((f) =>
      f.path.endsWith('web-types.json') ? { ...f, text: f.text.replace('tryon-button', 'tryon-buton') } : f,
    );
    assert.deepEqual(await staleEditorData(changed, projectRoot), ['widget/web-types.json']);
    assert.deepEqual(await staleEditorData([{ path: 'widget/no-such-file.json', text: '{}' }], projectRoot), [
      'widget/no-such-file.json',
    ]);
  });

  test('nine or more languages, all of them offered for `lang` and named in its description', () => {
    assert.ok(languages.length >= 9, languages.join(', '));
    const lang = attributesOf().find((a) => a.name === 'lang')!;
    for (const code of languages)
      assert.match(lang.description ?? '', new RegExp(`\`${code}\``), `the lang JSDoc names ${code}`);
    const webTypes = JSON.parse(fileText('widget/web-types.json')) as {
      contributions: {
        html: { elements: { name: string; attributes: { name: string; value: { type: string } }[] }[] };
      };
    };
    const webLang = webTypes.contributions.html.elements[0]!.attributes.find((a) => a.name === 'lang')!;
    assert.deepEqual(
      webLang.value.type.split(' | ').map((v) => v.replace(/'/g, '')),
      languages,
    );
    const vscode = JSON.parse(fileText('widget/vscode.html-custom-data.json')) as {
      tags: { name: string; attributes: { name: string; values?: { name: string }[] }[] }[];
    };
    assert.deepEqual(
      vscode.tags[0]!.attributes.find((a) => a.name === 'lang')!.values!.map((v) => v.name),
      languages,
    );
    // The framework types carry the same description: not "en or hi".
    const types = fileText('widget/frameworks/tryon-button-attributes.ts');
    for (const code of languages) assert.match(types, new RegExp(`\`${code}\``));
  });

  test('every writable attribute is in each file; read-only ones (status, unavailable) in none', () => {
    const writable = attributesOf()
      .filter((a) => !/Read-only for the page/.test(a.description ?? ''))
      .map((a) => a.name);
    assert.ok(writable.includes('product') && writable.includes('when-unavailable'), writable.join(', '));
    const webTypes = JSON.parse(fileText('widget/web-types.json')) as {
      contributions: { html: { elements: { attributes: { name: string }[]; events: { name: string }[] }[] } };
    };
    const element = webTypes.contributions.html.elements[0]!;
    assert.deepEqual(
      element.attributes.map((a) => a.name),
      writable,
    );
    assert.ok(
      element.events.some((e) => e.name === 'tryon-result'),
      'events are listed',
    );
    const vscode = JSON.parse(fileText('widget/vscode.html-custom-data.json')) as {
      tags: { attributes: { name: string }[] }[];
    };
    assert.deepEqual(
      vscode.tags[0]!.attributes.map((a) => a.name),
      writable,
    );
    const types = fileText('widget/frameworks/tryon-button-attributes.ts');
    for (const name of writable)
      assert.match(types, new RegExp(`\\n  '?${name}'?\\?: `), `${name} in the framework types`);
    for (const name of ['status', 'unavailable']) assert.doesNotMatch(types, new RegExp(`\\n  '?${name}'?\\?: `));
    // A literal union stays a union (the checker refuses prefetch="soon").
    assert.match(types, /\n {2}prefetch\?: 'idle' \| 'interaction';/);
    assert.match(types, /\n {2}strings\?: Partial<Strings>;/);
  });

  test('the package names them: web-types field, exports and files', async () => {
    const pkg = JSON.parse(await readFile(join(projectRoot, 'widget/package.json'), 'utf8')) as {
      'web-types': string;
      exports: Record<string, unknown>;
      files: string[];
    };
    assert.equal(pkg['web-types'], './web-types.json');
    for (const file of ['web-types.json', 'vscode.html-custom-data.json']) {
      assert.equal(pkg.exports[`./${file}`], `./${file}`);
      assert.ok(pkg.files.includes(file));
    }
  });
});
