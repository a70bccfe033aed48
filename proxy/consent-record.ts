// The compliance record of one try-on: what the shopper agreed to (the version of the consent
// text they saw and its language), how long the proxy said it keeps their photo and result, and
// who and when (a hashed address, a time). Never the image, never an upstream id: the photo is
// named by the random id of its handle.
import { z } from 'zod';

/**
 * The optional fields a widget sends beside `consent: true`. `consentVersion` is the first 16 (or
 * more) hex digits of the SHA-256 of the exact consent words shown; `consentLanguage` their
 * language tag. Older clients that send neither are still accepted; their line records null.
 */
export const consentFields = {
  consentVersion: z.string().regex(/^[0-9a-f]{16,64}$/, 'must be 16 to 64 lowercase hex digits').optional(),
  consentLanguage: z.string().max(35).regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/, 'must be a language tag such as hi or bn-IN').optional(),
};

/** How long the proxy keeps answering for a photo and a result, in seconds: what the consent step states. */
export interface Retention {
  photoSeconds: number;
  resultSeconds: number;
  shareLinkSeconds: number;
}

export function retentionOf(limits: { photoTtlSeconds: number; tryonTtlSeconds: number; fileTtlSeconds: number }): Retention {
  return { photoSeconds: limits.photoTtlSeconds, resultSeconds: limits.tryonTtlSeconds, shareLinkSeconds: limits.fileTtlSeconds };
}

export interface ConsentRecord {
  time: Date;
  product: string;
  /** The random id of the photo's handle, never the upstream file id. */
  photoId: string;
  /** Salted hash of the client's address. */
  client: string;
  requestId: string;
  consentVersion?: string | undefined;
  consentLanguage?: string | undefined;
  retention: Retention;
}

/** The log line, field by field, so nothing else can slip into it. */
export function complianceLine(record: ConsentRecord): Record<string, unknown> {
  return {
    event: 'consent',
    time: record.time.toISOString(),
    product: record.product,
    photo: record.photoId,
    client: record.client,
    requestId: record.requestId,
    consentVersion: record.consentVersion ?? null,
    consentLanguage: record.consentLanguage ?? null,
    retention: { ...record.retention },
  };
}
