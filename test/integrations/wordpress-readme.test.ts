// The plugin's readme.txt as wordpress.org reads it (its readme standard): the header fields, the
// sections in their order, the External services section the plugin directory requires of a plugin
// that sends data elsewhere, and figures that must agree with the plugin's own header.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

const plugin = new URL('../../integrations/woocommerce/tryon-button/', import.meta.url);
const readme = await readFile(new URL('readme.txt', plugin), 'utf8');
const main = await readFile(new URL('tryon-button.php', plugin), 'utf8');

/** `Field: value` lines between the `=== Name ===` line and the first blank line. */
function readmeHeader(text: string): { name: string; fields: Map<string, string> } {
  const [first = '', ...lines] = text.split('\n');
  const name = /^=== (.+) ===$/.exec(first)?.[1];
  assert.ok(name, `the first line is "=== Plugin Name ===": ${first}`);
  const fields = new Map<string, string>();
  for (const line of lines) {
    if (line.trim() === '') break;
    const field = /^([A-Za-z ]+):\s*(.+)$/.exec(line);
    assert.ok(field, `a header line is "Field: value": ${line}`);
    fields.set(field[1]!, field[2]!.trim());
  }
  return { name, fields };
}

/** The plugin file's header (`* Field: value` in its first comment). */
function pluginHeader(text: string): Map<string, string> {
  const comment = /\/\*\*([\s\S]*?)\*\//.exec(text)?.[1] ?? '';
  return new Map([...comment.matchAll(/^\s*\*\s*([A-Za-z ]+):\s*(.+)$/gm)].map((m) => [m[1]!.trim(), m[2]!.trim()]));
}

/** Each `== Section ==` and its text. */
function sections(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const heads = [...text.matchAll(/^== (.+) ==$/gm)];
  heads.forEach((head, i) => found.set(head[1]!, text.slice(head.index! + head[0].length, heads[i + 1]?.index)));
  return found;
}

describe('readme.txt (the wordpress.org readme standard)', () => {
  const { name, fields } = readmeHeader(readme);
  const header = pluginHeader(main);

  test('has every header field, the plugin name and the short description after them', () => {
    assert.equal(name, header.get('Plugin Name'));
    for (const field of [
      'Contributors',
      'Tags',
      'Requires at least',
      'Tested up to',
      'Stable tag',
      'Requires PHP',
      'License',
      'License URI',
    ]) {
      assert.ok(fields.get(field), `${field} is set`);
    }
    assert.match(fields.get('License URI')!, /^https:\/\/\S+$/);
    const short = readme.split('\n\n')[1]!.trim();
    assert.ok(!short.startsWith('=='), 'a short description follows the header');
    assert.ok(short.length <= 150, `the short description is at most 150 characters: ${short.length}`);
  });

  test('at most five tags', () => {
    const tags = fields
      .get('Tags')!
      .split(',')
      .map((tag) => tag.trim());
    assert.ok(tags.length >= 1 && tags.length <= 5, `${tags.length} tags: ${tags.join(', ')}`);
    assert.ok(tags.every((tag) => tag.length > 0));
  });

  test("the Stable tag is the plugin's version, and the requirements agree with the plugin's header", () => {
    const defined = /define\(\s*'TRYON_BUTTON_VERSION',\s*'([^']+)'\s*\)/.exec(main)?.[1];
    assert.equal(fields.get('Stable tag'), header.get('Version'));
    assert.equal(fields.get('Stable tag'), defined);
    for (const field of [
      'Requires at least',
      'Tested up to',
      'Requires PHP',
      'WC requires at least',
      'WC tested up to',
      'License',
    ]) {
      assert.equal(fields.get(field), header.get(field), field);
    }
    // The changelog and the upgrade notice have an entry for the stable version.
    const all = sections(readme);
    assert.match(all.get('Changelog') ?? '', new RegExp(`^= ${defined!.replaceAll('.', '\\.')} =$`, 'm'));
    assert.match(all.get('Upgrade Notice') ?? '', new RegExp(`^= ${defined!.replaceAll('.', '\\.')} =$`, 'm'));
  });

  test('the sections wordpress.org expects, in its order, none empty', () => {
    const all = sections(readme);
    const order = [
      'Description',
      'External services',
      'Installation',
      'Frequently Asked Questions',
      'Changelog',
      'Upgrade Notice',
    ];
    assert.deepEqual(
      [...all.keys()].filter((section) => order.includes(section)),
      order,
    );
    for (const [section, text] of all) assert.ok(text.trim().length > 40, `${section} says something`);
    const faq = all.get('Frequently Asked Questions')!;
    assert.ok((faq.match(/^= .+\? =$/gm) ?? []).length >= 3, 'questions as "= Question? =" lines');
    assert.match(all.get('Installation')!, /^1\. /m);
  });

  test('External services: the token proxy and the hosted try-on API, what is sent and when, with links', () => {
    const services = sections(readme).get('External services')!;
    const parts = new Map(
      [...services.matchAll(/^= (.+) =$/gm)].map((head, i, heads) => [
        head[1]!,
        services.slice(head.index! + head[0].length, heads[i + 1]?.index),
      ]),
    );
    const proxy = [...parts].find(([title]) => /token proxy/i.test(title))?.[1];
    const api = [...parts].find(([title]) => /hosted try-on API/i.test(title))?.[1];
    assert.ok(proxy && api, `a part for each: ${[...parts.keys()].join(' / ')}`);
    for (const part of [proxy, api]) {
      assert.match(part, /^\* When: /m);
      const what = /^\* What: [\s\S]*?(?=^\* |$(?![\s\S]))/m.exec(part)?.[0] ?? '';
      assert.match(what, /photo/, 'the photo is named among what is sent');
      assert.match(part, /^\* Terms and privacy policy: /m);
      assert.match(part, /https:\/\/\S+/, 'a link');
    }
    assert.match(proxy, /consent\s+box/);
    assert.match(services, /Nothing is sent until a shopper presses the\s+button and ticks the consent box/);
    // Every link in the section is an absolute https URL.
    for (const link of services.match(/https?:\/\/\S+/g) ?? []) assert.match(link, /^https:\/\/[\w.-]+\//);
  });
});
