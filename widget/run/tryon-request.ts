// What a try-on is sent to the proxy as (POST /tryons), worked out from the session alone: the
// session's own try-on, and a colour's draft beside it ("See all colours"). Pure, so the run
// (tryon-run.ts) keeps only what happens, not how each request is spelt.
import type { SessionState } from './session.js';
import type { TryonRequest } from '../api/proxy-client.js';
import { tryonSubject } from '../core/events.js';

/** The consent text the shopper agreed to: its version (consent-version.ts) and its language. */
export interface GivenConsent {
  version: string | undefined;
  language: string;
}

/** Which consent text the shopper agreed to, sent with every try-on of their photo. */
export function consentFields(consent: GivenConsent | undefined): {
  consentVersion?: string;
  consentLanguage?: string;
} {
  return consent
    ? { ...(consent.version ? { consentVersion: consent.version } : {}), consentLanguage: consent.language }
    : {};
}

/** Who is tried on: the shop's model (no consent is asked for it), or the shopper's photo with the consent they gave. */
function wearer(
  session: SessionState,
  consent: GivenConsent | undefined,
): Pick<TryonRequest, 'model' | 'photo' | 'consentVersion' | 'consentLanguage'> {
  const { model, photo } = session;
  return model !== undefined ? { model } : { photo: photo!.handle, ...consentFields(consent) };
}

/** The session's try-on as sent: `variant` as resolved against the product, `views` as asked for. */
export function tryonRequest(
  session: SessionState,
  product: string,
  variant: string | undefined,
  views: string[],
  consent: GivenConsent | undefined,
): TryonRequest {
  const { requestId = '', output, firstLookOff } = session;
  return {
    ...tryonSubject(product, variant),
    ...wearer(session, consent),
    requestId,
    ...(output === 'video' ? { output } : { views }),
    ...(firstLookOff ? { preview: 'off' as const } : {}),
  };
}

/** A colour's draft with the photo (or model) of the result on screen: front view, `quality: "preview"`. */
export function colourDraftRequest(
  session: SessionState,
  product: string,
  variant: string,
  requestId: string,
  consent: GivenConsent | undefined,
): TryonRequest {
  return { product, variant, requestId, views: ['front'], quality: 'preview', ...wearer(session, consent) };
}

/**
 * A piece of an outfit over a finished try-on ("Complete the look"): `over` instead of a photo or a
 * model, so no consent is claimed (the base photo's stands) and no views are asked (the base's decide).
 */
export function pieceRequest(
  over: string,
  product: string,
  variant: string | undefined,
  requestId: string,
): TryonRequest {
  return { ...tryonSubject(product, variant), over, requestId };
}
