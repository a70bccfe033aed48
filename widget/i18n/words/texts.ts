// The texts the panel shows: the shop's overrides first, then the language's dictionary, then English.
// Numbers filled into a text are written by Intl in the dictionary's language (its digits, its
// separators), and so are percents and durations: no dictionary spells a number or a unit.
import { en } from '../en.js';
import type { Strings, Translation } from '../en.js';
import { formatDuration, formatNumber, formatPercent, formatSeconds } from './format.js';

export type TextValues = Record<string, string | number>;

function format(text: string, values: TextValues, locale: string): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => {
    if (!(key in values)) return whole;
    const value = values[key]!;
    return typeof value === 'number' ? formatNumber(locale, value, 1) : value;
  });
}

export class Texts {
  readonly #overrides: Partial<Strings>;
  readonly #translation: Translation | undefined;
  readonly #facts: TextValues;

  /**
   * `facts` are what any text may name without its caller knowing (the smallest photo side the
   * widget accepts, for error_photo_too_small): they come from the parts that own them, so the
   * words depend on no feature; a value a call passes wins over a fact of the same name.
   */
  constructor(overrides: Partial<Strings>, translation: Translation | undefined, facts: TextValues = {}) {
    this.#overrides = overrides;
    this.#translation = translation;
    this.#facts = facts;
  }

  /** The writing direction of the dictionary in use; undefined leaves the page's direction. */
  get dir(): 'ltr' | 'rtl' | undefined {
    return this.#translation?.$dir;
  }

  /** The language the texts are really in: the dictionary's, or English when there is none for the page's. */
  get code(): string {
    return this.#translation?.$code ?? en.$code;
  }

  t(key: keyof Strings, values: TextValues = {}): string {
    return format(
      this.#overrides[key] ?? this.#translation?.[key] ?? en[key],
      { ...this.#facts, ...values },
      this.code,
    );
  }

  /** A whole percent (0–100), as the language writes it. */
  percent(value: number): string {
    return formatPercent(this.code, value);
  }

  /** Whole seconds, spelt out ("12 seconds"). */
  seconds(value: number): string {
    return formatSeconds(this.code, value);
  }

  /** A retention period in the largest exact unit ("1 hour", "1 day"). */
  duration(seconds: number): string {
    return formatDuration(this.code, seconds);
  }

  viewName(view: string): string {
    const key = `view_${view}`;
    return key in en ? this.t(key as keyof Strings) : view.replace(/_/g, ' ');
  }

  /** The shopper's words for a proxy error code (the generic message for codes without their own). */
  errorMessage(code: string): string {
    const key = errorKey(code);
    return key in en ? this.t(key as keyof Strings) : this.t('error_generic');
  }
}

/**
 * Codes that mean the same to a shopper share one sentence, so each dictionary (fetched by the
 * shopper's browser) carries it once: a request the proxy could not take (the page is out of date),
 * a shop whose set-up refuses this page, a service briefly down, a photo at its cap (of try-ons or
 * of colour drafts), a colour with no try-on (or no draft).
 */
const SAME_WORDS: Record<string, string> = {
  method_not_allowed: 'invalid_request',
  validation_failed: 'invalid_request',
  invalid_signature: 'invalid_request',
  proxy_misconfigured: 'unauthorized',
  origin_not_allowed: 'unauthorized',
  store_unavailable: 'upstream_unavailable',
  internal_error: 'upstream_unavailable',
  colour_preview_limit: 'photo_limit_reached',
  colour_previews_off: 'unknown_variant',
};

/** The dictionary key of a code's words. */
export const errorKey = (code: string): string => `error_${SAME_WORDS[code] ?? code}`;
