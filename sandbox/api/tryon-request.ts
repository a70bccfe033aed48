// What a try-on request may contain, checked as strictly as the hosted API is read to check it
// (docs/upstream-api.md): the zod schemas for image and video try-ons, the known categories,
// backgrounds, providers, motions and cameras, and the checks across fields (a person file for
// person_image, a garment file for garment_image). Each refusal names its field.
import { z } from 'zod';
import { tiers } from './tiers.js';
import type { IssueDetail } from './errors.js';

export const views = ['front', 'three_quarter_left', 'side', 'back'] as const;
export type View = (typeof views)[number];

/**
 * Categories and subtypes the sandbox accepts: those docs/upstream-api.md names, plus bandhgala and
 * suit, and the pieces worn over them (dupatta, stole, jacket). A category not listed here has no subtypes.
 */
export const subtypesByCategory: Record<string, readonly string[]> = {
  saree: ['nivi', 'bengali', 'gujarati', 'maharashtrian'],
  lehenga: [],
  dress: ['a-line'],
  sherwani: [],
  bandhgala: [],
  suit: [],
  // Pieces worn over another garment (an outfit's second and third piece), not in the API document's list.
  dupatta: [],
  stole: [],
  jacket: [],
};
export const categories = Object.keys(subtypesByCategory) as [string, ...string[]];
export const defaultSubtype: Record<string, string> = { saree: 'nivi' };

export const backgrounds = ['studio_white', 'haveli_warm'] as const;
export const specialistProviders = ['catvton', 'outfitanyone'] as const;
export const defaultGeneralProviders: [string, string, string] = ['general_a', 'general_b', 'general_c'];
export const motions = ['twirl', 'walk', 'sway', 'turn'] as const;
export const cameras = ['orbit', 'static', 'dolly_in', 'pan'] as const;
export const videoBounds = { duration_seconds: { min: 1, max: 10, default: 5 }, fps: { min: 8, max: 30, default: 24 } };

const fileId = z.string().regex(/^file_[A-Za-z0-9]+$/, 'must be a file id (file_…)');

const garment = z.strictObject({
  category: z.enum(categories),
  subtype: z.string().min(1).optional(),
});

const common = {
  mode: z.enum(['garment_to_person', 'person_to_person']),
  person_image: fileId,
  garment_image: fileId.optional(),
  reference_person_image: fileId.optional(),
  garment,
  tier: z.enum(tiers).default('standard'),
  background: z.enum(backgrounds).default('studio_white'),
  consent_token: z.literal(true, 'must be true: it attests the caller has rights to the person image'),
  idempotency_key: z.string().min(1).max(255).optional(),
};

function imageSchema(providers: readonly [string, ...string[]]) {
  return z.strictObject({
    ...common,
    pose: z.string().max(500).optional(),
    views: z
      .array(z.enum(views))
      .min(1)
      .max(views.length)
      .refine((list) => new Set(list).size === list.length, 'must not repeat a view')
      .default(['front']),
    provider: z.enum(providers).default('auto'),
  });
}

function videoSchema(providers: readonly [string, ...string[]]) {
  const { duration_seconds: d, fps } = videoBounds;
  return z.strictObject({
    ...common,
    provider: z.enum(providers).default('auto'),
    duration_seconds: z.number().int().min(d.min).max(d.max).default(d.default),
    fps: z.number().int().min(fps.min).max(fps.max).default(fps.default),
    motion: z.enum(motions).default('twirl'),
    camera: z.enum(cameras).default('orbit'),
  });
}

export type ImageRequest = z.infer<ReturnType<typeof imageSchema>>;
export type VideoRequest = z.infer<ReturnType<typeof videoSchema>>;
export type TryonRequest = ImageRequest | VideoRequest;

export function requestSchemas(generalProviders: readonly [string, string, string]) {
  const providers = ['auto', ...specialistProviders, ...generalProviders] as const;
  return { image: imageSchema(providers), video: videoSchema(providers) };
}

export function zodIssues(error: z.ZodError): IssueDetail[] {
  return error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.join('.') : '(body)',
    message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
}

/** Kinds of the files a request names, as far as they exist in the caller's workspace. */
export type FileKindOf = (id: string) => string | undefined;

/** Rules that a schema cannot see: which images each mode needs, the kinds of the files named, subtypes. */
export function crossFieldIssues(req: TryonRequest, kindOf: FileKindOf): IssueDetail[] {
  const issues: IssueDetail[] = [];
  const needFile = (
    field: 'person_image' | 'garment_image' | 'reference_person_image',
    kind?: 'person' | 'garment',
  ) => {
    const id = req[field];
    if (id === undefined) {
      issues.push({ field, message: `is required with mode ${req.mode}` });
      return;
    }
    const actual = kindOf(id);
    if (!actual) issues.push({ field, message: `no file ${id} in this workspace` });
    else if (kind && actual !== kind)
      issues.push({ field, message: `must be a file of kind ${kind}, but ${id} is of kind ${actual}` });
  };
  needFile('person_image', 'person');
  if (req.mode === 'garment_to_person') {
    needFile('garment_image', 'garment');
    if (req.reference_person_image !== undefined)
      issues.push({ field: 'reference_person_image', message: 'is only used with mode person_to_person' });
  } else {
    needFile('reference_person_image');
    if (req.garment_image !== undefined)
      issues.push({ field: 'garment_image', message: 'is only used with mode garment_to_person' });
  }
  const { category, subtype } = req.garment;
  const allowed = subtypesByCategory[category] ?? [];
  if (subtype !== undefined && !allowed.includes(subtype)) {
    issues.push({
      field: 'garment.subtype',
      message: allowed.length
        ? `${subtype} is not a ${category} subtype; expected one of ${allowed.join(', ')}`
        : `${category} takes no subtype`,
    });
  }
  return issues;
}
