// "Forget my photo", apart from storage.ts: storage.ts is shared with the first script (the button
// resumes a try-on), and forgetting is only ever asked for in the dialog, so it loads with the panel.
import { endpointKey, read } from '../core/storage.js';

/**
 * "Forget my photo": everything this tab keeps for this proxy (the last photo and the try-on of
 * every product), with the photo handles it named, so the proxy can be asked to revoke them too.
 */
export function forgetEverything(endpoint: string): string[] {
  const prefix = `tryon:${endpointKey(endpoint)}:`;
  const handles: string[] = [];
  try {
    const keys = Array.from({ length: sessionStorage.length }, (_, i) => sessionStorage.key(i) ?? '').filter((key) =>
      key.startsWith(prefix),
    );
    for (const key of keys) {
      // The last photo is {photo: handle}; a stored try-on is {photo: {photo: handle}}.
      const stored = read<{ photo?: unknown }>(key)?.photo;
      const handle = typeof stored === 'object' && stored !== null ? (stored as { photo?: unknown }).photo : stored;
      if (typeof handle === 'string') handles.push(handle);
      sessionStorage.removeItem(key);
    }
  } catch {
    // Storage disabled: nothing was kept.
  }
  return handles;
}
