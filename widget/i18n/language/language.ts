// The button's side of languages, small enough for the first script: which language an element
// speaks, and English's label. Every dictionary (widget/i18n/<code>.ts) declares its own code,
// name and writing direction, in the manner of Shoelace's translations; only English's first
// entries travel up front, so the button has its label without a fetch. Any other language's
// dictionary is loaded on demand (widget/i18n/words/dictionaries.ts), so adding one never grows this
// script. Not in i18n/ itself, where every module is taken for a dictionary (dictionaries.ts says
// why), nor in words/, which reads en.ts: en.ts reads this.

/** What every dictionary says about its language. */
export interface LanguageInfo {
  /** The language's code, as in `lang` (`hi`, `ur`). */
  $code: string;
  /** The language's name, in that language. */
  $name: string;
  /** Its writing direction. */
  $dir: 'ltr' | 'rtl';
}

/** English, the default and the fallback for any missing text. The rest of it is in i18n/en.ts. */
export const english = {
  $code: 'en',
  $name: 'English',
  $dir: 'ltr',
  label: 'Try it on',
  // Beside a disabled button (when-unavailable="disable"), so they travel with it.
  unavailable_disabled: 'Try-on is not offered for this product.',
  unavailable_daily_budget_reached: 'Try-on has reached its limit for today. Please come back tomorrow.',
  // Beside the button when the dialog's code could not be fetched: the dialog's own words are in it.
  notOpened: 'Try-on could not open. Please check your connection and try again.',
} as const satisfies LanguageInfo & {
  label: string;
  unavailable_disabled: string;
  unavailable_daily_budget_reached: string;
  notOpened: string;
};

/** The language an element speaks: its own `lang`, else the nearest `lang` around it, else the page's, else English. */
export function languageOf(element: Element, lang: string): string {
  const code =
    lang || element.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang || english.$code;
  // Nearest match: `bn-IN` and `ur_PK` speak `bn` and `ur`; a language without a dictionary reads English.
  return code.toLowerCase().split(/[-_]/)[0] || english.$code;
}
