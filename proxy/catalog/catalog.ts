// The catalog decides everything that costs money: which garment, which mode, tier, background,
// pose, provider, which views and whether video is offered. The browser only names a product.
// It comes from a file (docs/proxy.md, "Catalog"; validated at start with errors naming product and
// field) or from a function the shop passes (for a shop that reads its own product data). The
// file's schema is schema.ts; this file reads it and answers lookups.
import { z } from 'zod';
import { TIERS, type PartialPriceTable, type Tier } from '../money/prices.js';
import {
  CatalogError,
  crossFieldProblems,
  describeIssues,
  modelProblems,
  productProblems,
  MODEL_ID,
  MODES,
  VARIANT_ID,
  VIEWS,
  catalogSchema,
  modelSchema,
  productSchema,
  type CatalogFile,
  type CatalogModel,
  type CatalogProduct,
  type CatalogVariant,
  type Mode,
  type VideoOptions,
  type View,
} from './schema.js';
import { pairProblems } from './pairs.js';

export { CatalogError, MODEL_ID, MODES, TIERS, VARIANT_ID, VIEWS };
export type { CatalogFile, CatalogModel, CatalogProduct, CatalogVariant, Mode, Tier, VideoOptions, View };

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
  /** The product's variants by the shop's own id; none → the product has one garment. */
  variants?: Record<string, CatalogVariant> | undefined;
  /** The first look beside each try-on; undefined → "draft" above the draft tier, else "off" (tryons/first-look.ts). */
  preview?: 'draft' | 'off' | undefined;
  /** Colour drafts one photo may make (0 or undefined: off); named as the catalog's documented key. */
  colourPreviews?: number | undefined;
  /** false: switched off by the merchant (no try-on, the button hidden); absent: on. */
  enabled?: boolean | undefined;
  /**
   * Whether the shopper's photo must show the whole body, head to feet (the widget checks it before
   * upload). Always set once the catalog has read the entry: undefined → by garment category.
   */
  fullBody?: boolean | undefined;
  /** The models the product may be seen on, in catalog order (none: no "See it on a model"). */
  models?: CatalogModel[] | undefined;
  /** Products of the same catalog that complete the look, rendered over a finished try-on of this one. */
  pairsWith?: string[] | undefined;
  /** As a piece over a try-on: on each of the base's views ("views", the default) or its front view only. */
  layering?: 'views' | 'front' | undefined;
}

/** A product as one of its variants: what a try-on of that variant sends upstream. */
export interface VariantEntry extends ProductEntry {
  /** The variant's id, when the try-on is of a variant rather than the product itself. */
  variant?: string | undefined;
}

export type ProductLookup = (productId: string) => Promise<ProductEntry | undefined> | ProductEntry | undefined;

const BUILT_IN = { tier: 'standard' as Tier, views: ['front'] as View[], background: 'studio_white', provider: 'auto' };

/** `colourPreviews: true` allows this many colour drafts per photo. */
export const COLOUR_DRAFTS_DEFAULT_MAX = 6;

/** The catalog's `colourPreviews` as a number of colour drafts per photo (0: off). */
const colourDraftCount = (value: boolean | { max: number } | undefined): number =>
  value === true ? COLOUR_DRAFTS_DEFAULT_MAX : value ? value.max : 0;

/**
 * Garments worn from shoulder to floor: a try-on of one needs the whole body in the photo, so the
 * widget's photo check asks for it unless the catalog says otherwise (`fullBody`).
 */
export const FULL_BODY_CATEGORIES: readonly string[] = [
  'saree',
  'lehenga',
  'sherwani',
  'dress',
  'anarkali',
  'gown',
  'jumpsuit',
];

/** The product's `fullBody`, else the defaults', else whether its category is one of FULL_BODY_CATEGORIES. */
export function fullBodyOf(category: string, ...said: (boolean | undefined)[]): boolean {
  return said.find((value) => value !== undefined) ?? FULL_BODY_CATEGORIES.includes(category.toLowerCase());
}

/** A product with the catalog's defaults (when it has any) and the built-in ones filled in. */
function entryOf(
  id: string,
  product: Omit<CatalogProduct, 'models'>,
  defaults?: z.infer<typeof catalogSchema>['defaults'],
  models?: CatalogModel[],
): ProductEntry {
  const tier = product.tier ?? defaults?.tier ?? BUILT_IN.tier;
  return {
    id,
    mode: product.mode,
    garment: { ...product.garment },
    garmentImage: product.mode === 'garment_to_person' ? product.garmentImage : undefined,
    referencePersonImage: product.mode === 'person_to_person' ? product.referencePersonImage : undefined,
    views: [...(product.views ?? defaults?.views ?? BUILT_IN.views)],
    tier,
    background: product.background ?? defaults?.background ?? BUILT_IN.background,
    provider: product.provider ?? defaults?.provider ?? BUILT_IN.provider,
    pose: product.pose ?? defaults?.pose,
    video: product.video === true ? {} : product.video ? { ...product.video } : undefined,
    name: product.name ?? product.title,
    variants: product.variants ? copyVariants(product.variants) : undefined,
    // The product wins over the defaults; absent in both, a first look above the draft tier.
    preview: product.preview ?? defaults?.preview ?? (tier === 'draft' ? 'off' : 'draft'),
    colourPreviews: colourDraftCount(product.colourPreviews ?? defaults?.colourPreviews),
    ...(product.enabled === false ? { enabled: false } : {}),
    fullBody: fullBodyOf(product.garment.category, product.fullBody, defaults?.fullBody),
    ...(models && models.length > 0 ? { models: models.map((model) => ({ ...model })) } : {}),
    ...(product.pairsWith && product.pairsWith.length > 0 ? { pairsWith: [...product.pairsWith] } : {}),
    ...(product.layering ? { layering: product.layering } : {}),
  };
}

/** The catalog's models a product lists (all of them when it names none), in catalog order. */
function modelsOf(
  product: CatalogProduct,
  models: Record<string, z.infer<typeof modelSchema>> | undefined,
): CatalogModel[] {
  const all = Object.entries(models ?? {}).map(([id, model]) => ({ id, ...model }));
  return product.models ? all.filter((model) => product.models!.includes(model.id)) : all;
}

export function modelOf(product: ProductEntry, modelId: string): CatalogModel | undefined {
  return MODEL_ID.test(modelId) ? product.models?.find((model) => model.id === modelId) : undefined;
}

function copyVariants(variants: Record<string, CatalogVariant>): Record<string, CatalogVariant> {
  return Object.fromEntries(
    Object.entries(variants).map(([id, v]) => [id, { ...v, ...(v.garment ? { garment: { ...v.garment } } : {}) }]),
  );
}

/** The variants a product offers, in catalog order, as GET /products lists them. */
export function variantList(product: ProductEntry): { id: string; name: string }[] {
  return Object.entries(product.variants ?? {}).map(([id, variant]) => ({ id, name: variant.name }));
}

/**
 * The product as the shopper chose it: a variant's fields over the product's own (its garment
 * merged over the product's). No variant → the product itself; one it does not have → undefined.
 */
export function productAsVariant(product: ProductEntry, variantId: string | undefined): VariantEntry | undefined {
  if (variantId === undefined) return product;
  if (!VARIANT_ID.test(variantId) || !Object.hasOwn(product.variants ?? {}, variantId)) return undefined;
  const variant = product.variants![variantId]!;
  return {
    ...product,
    variant: variantId,
    garment: { ...product.garment, ...definedFields(variant.garment ?? {}) } as ProductEntry['garment'],
    garmentImage: product.mode === 'garment_to_person' ? (variant.garmentImage ?? product.garmentImage) : undefined,
    referencePersonImage:
      product.mode === 'person_to_person' ? (variant.referencePersonImage ?? product.referencePersonImage) : undefined,
  };
}

const definedFields = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/** One image a catalog names, and whose it is. */
export interface CatalogImage {
  product: string;
  variant?: string;
  field: 'garmentImage' | 'referencePersonImage' | 'modelImage';
  /** A model's picture: the model's id. */
  model?: string;
  path: string;
}

/** Every image a catalog names, for start-up checks and bundling (a variant's image included). */
export function catalogImages(products: Map<string, ProductEntry>): CatalogImage[] {
  const images: CatalogImage[] = [];
  const models = new Set<string>();
  for (const [id, product] of products) {
    for (const model of product.models ?? []) {
      if (models.has(model.id)) continue;
      models.add(model.id);
      images.push({ product: id, field: 'modelImage', model: model.id, path: model.image });
    }
    const field = product.mode === 'garment_to_person' ? 'garmentImage' : 'referencePersonImage';
    const own = product[field];
    if (own) images.push({ product: id, field, path: own });
    for (const [variant, fields] of Object.entries(product.variants ?? {})) {
      const path = fields[field];
      if (path) images.push({ product: id, variant, field, path });
    }
  }
  return images;
}

/** Validates a parsed catalog file; throws CatalogError listing every problem. */
/**
 * A catalog's type as TypeScript infers it from a JSON file (`import catalog from './catalog.json'`):
 * every string a `string`, where the catalog's own type has a choice of words (`mode`,
 * `tier`, `views`), so a JSON catalog is accepted by the compiler and checked by the schema.
 */
export type CatalogJson = Widened<CatalogFile>;
type Widened<T> = T extends string
  ? string
  : T extends readonly (infer U)[]
    ? Widened<U>[]
    : T extends object
      ? { [K in keyof T]: Widened<T[K]> }
      : T;

/**
 * The catalog, checked now: a JSON file (or an object) with its problems thrown as a CatalogError
 * naming product and field, returned typed as the proxy takes it (`catalog: defineCatalog(json)`).
 */
export function defineCatalog(catalog: CatalogJson): CatalogFile {
  parseCatalog(catalog);
  return catalog as CatalogFile;
}

export function parseCatalog(input: unknown): Map<string, ProductEntry> {
  const result = catalogSchema.safeParse(input);
  const rawProducts =
    typeof input === 'object' && input !== null ? (input as { products?: unknown }).products : undefined;
  const crossField =
    typeof rawProducts === 'object' && rawProducts !== null
      ? [
          ...Object.entries(rawProducts).flatMap(([id, raw]) => crossFieldProblems(id, raw)),
          ...modelProblems(input),
          ...pairProblems(input),
        ]
      : [];
  if (!result.success || crossField.length > 0) {
    throw new CatalogError([...(result.success ? [] : describeIssues(result.error)), ...crossField]);
  }
  const products = new Map<string, ProductEntry>();
  for (const [id, product] of Object.entries(result.data.products)) {
    products.set(id, entryOf(id, product, result.data.defaults, modelsOf(product, result.data.models)));
  }
  return products;
}

/** Checks an entry a shop's own lookup function returned, so a bad one is a clear error, not a bad upstream call. */
export function checkProductEntry(id: string, entry: ProductEntry): ProductEntry {
  const { id: _ignored, colourPreviews, models, ...fields } = entry;
  const plain: Record<string, unknown> = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  );
  // A ProductEntry counts its colour drafts; the schema takes the catalog's spelling of it.
  if (colourPreviews !== undefined)
    plain.colourPreviews =
      typeof colourPreviews === 'number' && colourPreviews > 0
        ? { max: colourPreviews }
        : colourPreviews === 0
          ? false
          : colourPreviews;
  const result = productSchema.safeParse(plain);
  const crossField = crossFieldProblems(id, plain);
  // A lookup names its models whole ({id, name, image}), having no catalog to name them from.
  const modelList = z
    .array(
      modelSchema.extend({ id: z.string().regex(MODEL_ID, 'model ids use letters, digits, - and _ (at most 64)') }),
    )
    .max(50)
    .optional()
    .safeParse(models);
  if (!result.success || crossField.length > 0 || !modelList.success) {
    throw new CatalogError([
      ...(result.success ? [] : productProblems(id, result.error.issues)),
      ...crossField,
      ...(modelList.success
        ? []
        : productProblems(
            id,
            modelList.error.issues.map((issue) => ({ ...issue, path: ['models', ...issue.path] })),
          )),
    ]);
  }
  // A shop's own lookup has no catalog defaults: the built-in ones apply.
  return entryOf(id, result.data, undefined, modelList.data);
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
