// What the shopper can do with a finished try-on besides look at it: save it, or pass it on.
// Output URLs reach here only through the proxy client's gate (network-url.ts): http(s) on the
// endpoint's origin.
import type { TryonOutput } from './events.js';

/**
 * Saves an output under a name of ours (`<product>-<view>.<ext>`), via `container` for the link.
 * The file is fetched and saved from a blob, so the link never points at the output's URL: it
 * downloads under our name even when the proxy is on another origin, and nothing is ever opened
 * in the page. Resolves false when the file could not be fetched (nothing was saved).
 */
export async function download(output: TryonOutput, product: string, container: Node): Promise<boolean> {
  const extension = output.type === 'video' ? 'mp4' : (output.contentType ?? '').includes('png') ? 'png' : 'jpg';
  let blob: Blob;
  try {
    const response = await fetch(output.url);
    if (!response.ok) return false;
    blob = await response.blob();
  } catch {
    return false;
  }
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = `${product}-${output.view}.${extension}`;
  link.rel = 'noopener';
  link.style.display = 'none';
  container.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return true;
}

/**
 * Offers the output's link to the system share sheet, or copies it where there is none.
 * Resolves with what the shopper should be told: `copied`, `failed` (show the link itself), or
 * nothing (the share sheet spoke for itself, or the shopper closed it).
 */
export async function share(output: TryonOutput, title: string): Promise<'copied' | 'failed' | undefined> {
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title, url: output.url });
    } catch {
      // The shopper closed the share sheet: nothing to say.
    }
    return undefined;
  }
  try {
    await navigator.clipboard.writeText(output.url);
    return 'copied';
  } catch {
    return 'failed';
  }
}
