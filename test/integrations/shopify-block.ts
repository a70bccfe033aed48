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
  return engine.parseAndRender(template, {
    product: scope.product,
    block: { settings: scope.settings ?? {}, shopify_attributes: 'data-shopify-editor-block="{}"' },
    request: { locale: { iso_code: scope.locale ?? 'en' } },
  });
}

/** A product as Liquid sees it; without `variants`, only Shopify's default variant. */
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
    metafields: { tryon: metafields },
    has_only_default_variant: variants === undefined,
    variants: list,
    selected_or_first_available_variant: list[0],
  };
}
