// The texts the panel shows: the shop's overrides first, then the language's dictionary, then English.
import { en } from './i18n/en.js';
import type { Strings, Translation } from './i18n/en.js';

export type TextValues = Record<string, string | number>;

function format(text: string, values: TextValues): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

export class Texts {
  readonly #overrides: Partial<Strings>;
  readonly #translation: Translation | undefined;

  constructor(
    overrides: Partial<Strings>,
    translation: Translation | undefined,
  ) {
    this.#overrides = overrides;
    this.#translation = translation;
  }

  /** The writing direction of the dictionary in use; undefined leaves the page's direction. */
  get dir(): 'ltr' | 'rtl' | undefined {
    return this.#translation?.$dir;
  }

  t(key: keyof Strings, values: TextValues = {}): string {
    return format(this.#overrides[key] ?? this.#translation?.[key] ?? en[key], values);
  }

  viewName(view: string): string {
    const key = `view_${view}`;
    return key in en ? this.t(key as keyof Strings) : view.replace(/_/g, ' ');
  }

  /** The shopper's words for a proxy error code (the generic message for codes without their own). */
  errorMessage(code: string): string {
    const key = `error_${code}`;
    return key in en ? this.t(key as keyof Strings) : this.t('error_generic');
  }
}
