// The catalog decides everything that costs money: which garment, which mode, tier, background,
// pose, provider, which views and whether video is offered. The browser only names a product.
// It comes from a file (DESIGN.md part 4, validated at start with errors naming product and
// field) or from a function the shop passes (for a shop that reads its own product data).
import { z } from 'zod';
import { priceTableSchema, type PartialPriceTable } from './prices.js';

export const VIEWS = ['front', 'three_quarter_left', 'side', 'back'] as const;
export type View = (typeof VIEWS)[number];
export const TIERS = ['draft', 'standard', 'premium'] as const;
export type Tier = (typeof TIERS)[number];
export const MODES = ['garment_to_person', 'person_to_person'] as const;
export type Mode = (typeof MODES)[number];

const videoOptions = z.strictObject({
  durationSeconds: z.number().int().min(1).max(10).optional(),
  fps: z.number().int().min(8).max(30).optional(),
  motion: z.string().min(1).max(40).optional(),
  camera: z.string().min(1).max(40).optional(),
});
export type VideoOptions = z.infer<typeof videoOptions>;

const garment = z.strictObject({
  category: z.string().min(1).max(40),
  subtype: z.string().min(1).max(40).optional(),
});

const shared = {
  tier: z.enum(TIERS).optional(),
  views: z.array(z.enum(VIEWS)).min(1).max(4).refine((v) => new Set(v).size === v.length, 'views must not repeat').optional(),
  background: z.string().min(1).max(60).optional(),
  provider: z.string().min(1).max(60).optional(),
  pose: z.string().min(1).max(200).optional(),
};

const productSchema = z.strictObject({
  ...shared,
  mode: z.enum(MODES),
  garmentImage: z.string().min(1).optional(),
  referencePersonImage: z.string().min(1).optional(),
  garment: garment,
  video: z.union([z.boolean(), videoOptions]).optional(),
  name: z.string().max(200).optional(),
  title: z.string().max(200).optional(),
});

/** Mode-dependent rules, checked on the raw entry so they are reported with every other problem. */
function modeProblems(raw: unknown): { field: string; message: string }[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const product = raw as Record<string, unknown>;
  const problems: { field: string; message: string }[] = [];
  if (product.mode === 'garment_to_person' && !product.garmentImage) problems.push({ field: 'garmentImage', message: 'is required for mode garment_to_person' });
  if (product.mode === 'person_to_person' && !product.referencePersonImage) problems.push({ field: 'referencePersonImage', message: 'is required for mode person_to_person' });
  if (product.mode === 'person_to_person' && product.video) problems.push({ field: 'video', message: 'video try-on needs a garment image (mode garment_to_person)' });
  return problems;
}

const catalogSchema = z.strictObject({
  /** `prices`: credits per view and per video by tier, for the daily credit budget (see prices.ts). */
  defaults: z.strictObject({ ...shared, prices: priceTableSchema.optional() }).optional(),
  products: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'product ids use letters, digits, - and _ (at most 128)'), productSchema),
});

export type CatalogFile = z.input<typeof catalogSchema>;
export type CatalogProduct = z.infer<typeof productSchema>;

/** A product with the defaults filled in: what a try-on of it sends upstream. */
export interface ProductEntry {
  id: string;
  mode: Mode;
  garment: { category: string; subtype?: string | undefined };
  garmentImage?: string | undefined;
  referencePersonImage?: string | undefined;
  views: View[];
  tier: Tier;
  background: string;
  provider: string;
  pose?: string | undefined;
  /** undefined → no video offered. */
  video?: VideoOptions | undefined;
  name?: string | undefined;
}

export type ProductLookup = (productId: string) => Promise<ProductEntry | undefined> | ProductEntry | undefined;

export class CatalogError extends Error {
  constructor(readonly problems: string[]) {
    super(`catalog is not valid:\n  - ${problems.join('\n  - ')}`);
    this.name = 'CatalogError';
  }
}

function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String);
    if (path[0] === 'products' && path.length >= 2) {
      const field = path.slice(2).join('.') || '(entry)';
      return `product "${path[1]}": field ${field}: ${issue.message}`;
    }
    return `${path.join('.') || '(catalog)'}: ${issue.message}`;
  });
}

const BUILT_IN = { tier: 'standard' as Tier, views: ['front'] as View[], background: 'studio_white', provider: 'auto' };

/** A product with the catalog's defaults (when it has any) and the built-in ones filled in. */
function entryOf(id: string, product: CatalogProduct, defaults?: z.infer<typeof catalogSchema>['defaults']): ProductEntry {
  return {
    id,
    mode: product.mode,
    garment: { ...product.garment },
    garmentImage: product.mode === 'garment_to_person' ? product.garmentImage : undefined,
    referencePersonImage: product.mode === 'person_to_person' ? product.referencePersonImage : undefined,
    views: [...(product.views ?? defaults?.views ?? BUILT_IN.views)],
    tier: product.tier ?? defaults?.tier ?? BUILT_IN.tier,
    background: product.background ?? defaults?.background ?? BUILT_IN.background,
    provider: product.provider ?? defaults?.provider ?? BUILT_IN.provider,
    pose: product.pose ?? defaults?.pose,
    video: product.video === true ? {} : product.video ? { ...product.video } : undefined,
    name: product.name ?? product.title,
  };
}

/** Validates a parsed catalog file; throws CatalogError listing every problem. */
export function parseCatalog(input: unknown): Map<string, ProductEntry> {
  const result = catalogSchema.safeParse(input);
  const rawProducts = typeof input === 'object' && input !== null ? (input as { products?: unknown }).products : undefined;
  const crossField = typeof rawProducts === 'object' && rawProducts !== null
    ? Object.entries(rawProducts).flatMap(([id, raw]) => modeProblems(raw).map((p) => `product "${id}": field ${p.field}: ${p.message}`))
    : [];
  if (!result.success || crossField.length > 0) {
    throw new CatalogError([...(result.success ? [] : describeIssues(result.error)), ...crossField]);
  }
  const products = new Map<string, ProductEntry>();
  for (const [id, product] of Object.entries(result.data.products)) {
    products.set(id, entryOf(id, product, result.data.defaults));
  }
  return products;
}

/** Checks an entry a shop's own lookup function returned, so a bad one is a clear error, not a bad upstream call. */
export function checkProductEntry(id: string, entry: ProductEntry): ProductEntry {
  const { id: _ignored, ...fields } = entry;
  const plain = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const result = productSchema.safeParse(plain);
  const crossField = modeProblems(plain).map((p) => `product "${id}": field ${p.field}: ${p.message}`);
  if (!result.success || crossField.length > 0) {
    throw new CatalogError([
      ...(result.success ? [] : result.error.issues.map((issue) => `product "${id}": field ${issue.path.join('.') || '(entry)'}: ${issue.message}`)),
      ...crossField,
    ]);
  }
  // A shop's own lookup has no catalog defaults: the built-in ones apply.
  return entryOf(id, result.data);
}

/** The price table a catalog file sets in its defaults (a lookup function sets none). */
export function catalogPrices(catalog: CatalogFile | ProductLookup): PartialPriceTable | undefined {
  if (typeof catalog === 'function') return undefined;
  const parsed = catalogSchema.safeParse(catalog);
  return parsed.success ? parsed.data.defaults?.prices : undefined;
}

export const PRODUCT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** One way to ask for a product, whatever the catalog's source. */
export function productFinder(catalog: CatalogFile | ProductLookup): (id: string) => Promise<ProductEntry | undefined> {
  if (typeof catalog === 'function') {
    return async (id) => {
      if (!PRODUCT_ID.test(id)) return undefined;
      const entry = await catalog(id);
      return entry ? checkProductEntry(id, entry) : undefined;
    };
  }
  const products = parseCatalog(catalog);
  return async (id) => (PRODUCT_ID.test(id) ? products.get(id) : undefined);
}
