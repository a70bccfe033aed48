// The catalog file's shape, as zod schemas: what a shop may write and the limits of each field.
// catalog.ts reads a catalog with these and answers lookups; this file only says what is valid,
// and how a problem is told to the merchant (naming product, variant and field).
import { z } from 'zod';
import { TIERS, priceTableSchema } from '../money/prices.js';

export const VIEWS = ['front', 'three_quarter_left', 'side', 'back'] as const;
export type View = (typeof VIEWS)[number];
export const MODES = ['garment_to_person', 'person_to_person'] as const;
export type Mode = (typeof MODES)[number];

const videoOptions = z.strictObject({
  durationSeconds: z.number().int().min(1).max(10).optional(),
  fps: z.number().int().min(8).max(30).optional(),
  motion: z.string().min(1).max(40).optional(),
  camera: z.string().min(1).max(40).optional(),
});
export type VideoOptions = z.infer<typeof videoOptions>;

export const garment = z.strictObject({
  category: z.string().min(1).max(40),
  subtype: z.string().min(1).max(40).optional(),
});

/** A variant's garment merges over the product's, so it may name only what differs. */
const garmentOverride = z.strictObject({
  category: z.string().min(1).max(40).optional(),
  subtype: z.string().min(1).max(40).optional(),
});

/** The shop's own ids: Shopify and WooCommerce variant ids are numbers, the demo's are slugs. */
export const VARIANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

const variantSchema = z.strictObject({
  name: z.string().min(1).max(200),
  garmentImage: z.string().min(1).optional(),
  referencePersonImage: z.string().min(1).optional(),
  garment: garmentOverride.optional(),
});
export type CatalogVariant = z.infer<typeof variantSchema>;

/** The shop's own model ids ("See it on a model"). */
export const MODEL_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** One of the shop's models: a name the shopper reads and a picture of them (uploaded upstream once, served to the widget). */
export const modelSchema = z.strictObject({
  name: z.string().min(1).max(100),
  image: z.string().min(1),
});
export type CatalogModel = z.infer<typeof modelSchema> & { id: string };

const variantsSchema = z.record(
  z.string().regex(VARIANT_ID, 'variant ids use letters, digits, - and _ (at most 64)'),
  variantSchema,
);

const shared = {
  tier: z.enum(TIERS).optional(),
  views: z
    .array(z.enum(VIEWS))
    .min(1)
    .max(4)
    .refine((v) => new Set(v).size === v.length, 'views must not repeat')
    .optional(),
  background: z.string().min(1).max(60).optional(),
  provider: z.string().min(1).max(60).optional(),
  pose: z.string().min(1).max(200).optional(),
  /** The first look: a draft, front-view image started beside each try-on ("off": none). Default: "draft" above the draft tier. */
  preview: z.enum(['draft', 'off']).optional(),
  /** Drafts of the product's other colours ("See all colours"): true is at most 6 per photo. Default off. */
  colourPreviews: z.union([z.boolean(), z.strictObject({ max: z.number().int().min(1).max(12) })]).optional(),
  /** Whether a photo must show the whole body (the widget's photo check). Default: by garment category (FULL_BODY_CATEGORIES). */
  fullBody: z.boolean().optional(),
};

export const productSchema = z.strictObject({
  ...shared,
  mode: z.enum(MODES),
  garmentImage: z.string().min(1).optional(),
  referencePersonImage: z.string().min(1).optional(),
  garment: garment,
  video: z.union([z.boolean(), videoOptions]).optional(),
  name: z.string().max(200).optional(),
  title: z.string().max(200).optional(),
  /** Colours, sizes, …: each overrides the product's garment image, reference person or garment. */
  variants: variantsSchema.optional(),
  /** false: the product's try-on is switched off (GET /products answers available: false, reason "disabled"). */
  enabled: z.boolean().optional(),
  /** Pieces that complete the look (products of the same catalog), rendered over a finished try-on of this one. */
  pairsWith: z
    .array(z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'product ids use letters, digits, - and _ (at most 128)'))
    .max(12)
    .refine((v) => new Set(v).size === v.length, 'pairsWith must not repeat')
    .optional(),
  /** How this product, as a piece, is layered over a try-on: on each of its views ("views", the default) or its front view only ("front"). */
  layering: z.enum(['views', 'front']).optional(),
  /** Which of the catalog's models this product may be seen on (absent: all of them). */
  models: z
    .array(z.string().regex(MODEL_ID, 'model ids use letters, digits, - and _ (at most 64)'))
    .max(50)
    .refine((v) => new Set(v).size === v.length, 'models must not repeat')
    .optional(),
});

/** Mode-dependent rules, checked on the raw entry so they are reported with every other problem. */
export function modeProblems(raw: unknown): { field: string; message: string }[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const product = raw as Record<string, unknown>;
  const problems: { field: string; message: string }[] = [];
  if (product.mode === 'garment_to_person' && !product.garmentImage)
    problems.push({ field: 'garmentImage', message: 'is required for mode garment_to_person' });
  if (product.mode === 'person_to_person' && !product.referencePersonImage)
    problems.push({ field: 'referencePersonImage', message: 'is required for mode person_to_person' });
  if (product.mode === 'person_to_person' && product.video)
    problems.push({ field: 'video', message: 'video try-on needs a garment image (mode garment_to_person)' });
  // A variant's image of the other mode would be silently ignored: the merchant meant something else.
  if (typeof product.variants === 'object' && product.variants !== null) {
    for (const [id, variant] of Object.entries(product.variants as Record<string, unknown>)) {
      if (typeof variant !== 'object' || variant === null) continue;
      const fields = variant as Record<string, unknown>;
      if (product.mode === 'person_to_person' && fields.garmentImage !== undefined)
        problems.push({
          field: `variants.${id}.garmentImage`,
          message: 'is for mode garment_to_person; a person_to_person variant sets referencePersonImage',
        });
      if (product.mode === 'garment_to_person' && fields.referencePersonImage !== undefined)
        problems.push({
          field: `variants.${id}.referencePersonImage`,
          message: 'is for mode person_to_person; a garment_to_person variant sets garmentImage',
        });
    }
  }
  return problems;
}

export const catalogSchema = z.strictObject({
  /** `prices`: credits per view and per video by tier, for the daily credit budget (see prices.ts). */
  defaults: z.strictObject({ ...shared, prices: priceTableSchema.optional() }).optional(),
  products: z.record(
    z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'product ids use letters, digits, - and _ (at most 128)'),
    productSchema,
  ),
  /** The shop's own models, by id: "See it on a model" for a shopper who would rather not upload a photo. */
  models: z
    .record(z.string().regex(MODEL_ID, 'model ids use letters, digits, - and _ (at most 64)'), modelSchema)
    .optional(),
});

export type CatalogFile = z.input<typeof catalogSchema>;
export type CatalogProduct = z.infer<typeof productSchema>;

export class CatalogError extends Error {
  constructor(readonly problems: string[]) {
    super(`catalog is not valid:\n  - ${problems.join('\n  - ')}`);
    this.name = 'CatalogError';
  }
}

/** Where a problem is, in the merchant's words: `product "saree": variant "red": field garmentImage`. */
export function placeOf(productId: string, fieldPath: string[]): string {
  if (fieldPath[0] === 'variants' && fieldPath.length >= 2) {
    return `product "${productId}": variant "${fieldPath[1]}"${fieldPath.length > 2 ? `: field ${fieldPath.slice(2).join('.')}` : ''}`;
  }
  return `product "${productId}"${fieldPath.length > 0 ? `: field ${fieldPath.join('.')}` : ''}`;
}

/** A bad record key says what ids may be, not zod's "Invalid key in record". */
export const messageOf = (issue: z.core.$ZodIssue): string =>
  issue.code === 'invalid_key' ? `id: ${issue.issues.map((inner) => inner.message).join('; ')}` : issue.message;

export function productProblems(id: string, issues: z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => `${placeOf(id, issue.path.map(String))}: ${messageOf(issue)}`);
}

export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String);
    if (path[0] === 'products' && path.length >= 2) return `${placeOf(path[1]!, path.slice(2))}: ${messageOf(issue)}`;
    return `${path.join('.') || '(catalog)'}: ${messageOf(issue)}`;
  });
}

export const crossFieldProblems = (id: string, raw: unknown) =>
  modeProblems(raw).map((p) => `${placeOf(id, p.field.split('.'))}: ${p.message}`);

/** A product naming a model the catalog does not have: the merchant meant one that is not there. */
export function modelProblems(input: unknown): string[] {
  if (typeof input !== 'object' || input === null) return [];
  const { products, models } = input as { products?: unknown; models?: unknown };
  if (typeof products !== 'object' || products === null) return [];
  const known = typeof models === 'object' && models !== null ? (models as Record<string, unknown>) : {};
  const problems: string[] = [];
  for (const [id, product] of Object.entries(products)) {
    const named =
      typeof product === 'object' && product !== null ? (product as { models?: unknown }).models : undefined;
    if (!Array.isArray(named)) continue;
    for (const model of named) {
      if (typeof model === 'string' && !Object.hasOwn(known, model))
        problems.push(`${placeOf(id, ['models'])}: model "${model}" is not in the catalog's models`);
    }
  }
  return problems;
}

/** The product's model of this id, if the product lists it. */
