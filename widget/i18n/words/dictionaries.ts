// Finds a language's dictionary by its code, loading it on demand: one chunk per language, fetched
// only by a page that speaks it. Adding a language is adding widget/i18n/<code>.ts; nothing here
// (nor in the button) lists them. The bundler makes the template import below a glob of every
// module in i18n/, so i18n/ holds the dictionaries alone and the modules that read them are in its
// subfolders: beside the dictionaries, each would become a chunk of its own.
import type { Translation } from '../en.js';

const loaded = new Map<string, Promise<Translation | undefined>>();

/** The dictionary for `code`, or undefined when the widget does not speak that language. */
export function loadTranslation(code: string): Promise<Translation | undefined> {
  // Only a plain language code reaches the import: `lang` is the page's to set, not a path.
  if (!/^[a-z]{2,3}$/.test(code)) return Promise.resolve(undefined);
  let found = loaded.get(code);
  if (!found) {
    found = import(`../${code}.ts`)
      .then((module: Record<string, unknown>) => module['default'] as Translation | undefined)
      .catch(() => {
        // Unknown language, or offline: English stands in. A later call may try again.
        loaded.delete(code);
        return undefined;
      });
    loaded.set(code, found);
  }
  return found;
}
