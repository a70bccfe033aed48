// The Shopify theme block rendered with liquidjs (Shopify's Liquid, minus its platform tags), for
// the rendering tests and for the pages the browser tests load.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { Liquid } from 'liquidjs';

export const extensionSource = new URL('../../integrations/shopify/', import.meta.url);
const blockPath = new URL('blocks/tryon-button.liquid', extensionSource);

export interface BlockScope {
  product?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  locale?: string;
  /** Where `asset_url` points; Shopify's CDN adds a version query, so this does too. */
  assetBase?: string;
  /** `request.design_mode`: true only in the theme editor. */
  designMode?: boolean;
}

/**
 * Shopify's `t` filter over the extension's storefront locales: the store's language's file
 * (`locales/hi.json`), else the default (`locales/en.default.json`), escaped as Shopify escapes
 * it; a missing key is an error, as Theme Check's TranslationKeyExists would have it.
 */
async function translations(locale: string): Promise<(key: string) => string> {
  const read = async (name: string) =>
    JSON.parse(await readFile(new URL(`locales/${name}`, extensionSource), 'utf8')) as Record<string, unknown>;
  const fallback = await read('en.default.json');
  const own = await read(`${locale}.json`).catch(() => fallback);
  const lookup = (tree: Record<string, unknown>, key: string): unknown =>
    key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
  // Shopify escapes a translation unless its key ends in _html.
  const escape = (text: string) =>
    text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
  return (key) => {
    const text = lookup(own, key) ?? lookup(fallback, key);
    assert.equal(typeof text, 'string', `the translation key ${key} exists`);
    return key.endsWith('_html') ? (text as string) : escape(text as string);
  };
}

/** Shopify renders a block without its {% schema %}; liquidjs does not know that tag, so we split it off. */
export async function loadBlock(): Promise<{ template: string; schema: Record<string, unknown> }> {
  const source = await readFile(blockPath, 'utf8');
  const match = /{%-?\s*schema\s*-?%}([\s\S]*?){%-?\s*endschema\s*-?%}/.exec(source);
  assert.ok(match, 'the block has a {% schema %}');
  return { template: source.replace(match[0], ''), schema: JSON.parse(match[1]!) as Record<string, unknown> };
}

export async function renderBlock(scope: BlockScope): Promise<string> {
  const { template } = await loadBlock();
  const engine = new Liquid();
  const assetBase = scope.assetBase ?? 'https://cdn.shopify.example/extensions/abc/assets/';
  engine.registerFilter('asset_url', (name: string) => `${assetBase}${name}?v=1732345678`);
  engine.registerFilter('t', await translations(scope.locale ?? 'en'));
  return engine.parseAndRender(template, {
    product: scope.product,
    block: { settings: scope.settings ?? {}, shopify_attributes: 'data-shopify-editor-block="{}"' },
    request: { locale: { iso_code: scope.locale ?? 'en' }, design_mode: scope.designMode ?? false },
  });
}

/**
 * A product as Liquid sees it, `metafields` in the app's own namespace (`$app`, as the block reads
 * them); without `variants`, only Shopify's default variant.
 */
export function product(
  handle: string,
  metafields: Record<string, unknown>,
  variants?: number[],
): Record<string, unknown> {
  const list = (variants ?? [44871234560001]).map((id) => ({ id }));
  return {
    handle,
    id: 8123456789,
    title: 'Banarasi saree',
    metafields: { $app: metafields },
    has_only_default_variant: variants === undefined,
    variants: list,
    selected_or_first_available_variant: list[0],
  };
}
