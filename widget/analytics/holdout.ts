// The holdout: a random, sticky share of browsers that never see the button, so a shop can
// compare conversion between shoppers who could try on and shoppers who could not (an honest
// measure of lift; see docs/widget.md). In the first script: the button must know before it
// draws itself whether to draw itself at all.
//
// Each browser draws one number, uniform in [0, 1), once, and keeps it in localStorage under
// HOLDOUT_KEY. A page with `holdout="p"` puts the browser in the holdout when its draw is below
// p. The draw is the browser's, not the product's: one assignment per browser across every
// product and page, and raising p later only moves treatment browsers into the holdout, never
// back (a browser's history stays in one group as long as p does not shrink).

/** The localStorage key holding this browser's draw (a decimal number in [0, 1)). */
export const HOLDOUT_KEY = 'tryon-holdout';

export type HoldoutGroup = 'treatment' | 'holdout';

/** The minimal storage the draw needs (localStorage, or a stand-in in tests). */
export interface DrawStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * The `holdout` attribute as a share in [0, 1]; undefined when absent or empty (no experiment)
 * and `null` when set but not such a number (the element says so and shows the button).
 */
export function holdoutShare(value: string | null | undefined): number | null | undefined {
  const text = (value ?? '').trim();
  if (!text) return undefined;
  // Plain decimals only: "0x1", "1e-1" or "10%" are more likely mistakes than intentions.
  if (!/^(?:0|1|0?\.\d+|[01]\.\d*)$/.test(text)) return null;
  const share = Number(text);
  return share >= 0 && share <= 1 ? share : null;
}

/** A stored draw, if it is one: a decimal number in [0, 1). */
function storedDraw(text: string | null): number | undefined {
  if (text === null || !/^(?:0|0?\.\d+)$/.test(text.trim())) return undefined;
  const draw = Number(text);
  return draw >= 0 && draw < 1 ? draw : undefined;
}

/**
 * This browser's draw: the stored one, else a new one, stored. Undefined when storage cannot be
 * used (blocked cookies and site data, a sandboxed frame): such a browser cannot be kept in one
 * group, so it is left out of the experiment rather than assigned afresh on every page.
 */
export function browserDraw(
  storage: () => DrawStorage = () => localStorage,
  random: () => number = Math.random,
): number | undefined {
  try {
    const store = storage();
    const kept = storedDraw(store.getItem(HOLDOUT_KEY));
    if (kept !== undefined) return kept;
    // Fixed-point, never "1e-7": the stored text is what every later page reads.
    store.setItem(HOLDOUT_KEY, random().toFixed(16));
    // Read back: a storage that accepts writes and forgets them (some private modes) is no storage.
    return storedDraw(store.getItem(HOLDOUT_KEY));
  } catch {
    return undefined;
  }
}

/** The group of a browser with `draw` on a page holding out `share`. */
export function holdoutGroup(share: number, draw: number): HoldoutGroup {
  return draw < share ? 'holdout' : 'treatment';
}
