// What the shopper can do with a finished try-on besides look at it: save it, or pass it on.
import type { TryonOutput } from './events.js';

/** Saves an output under a name of ours (`<product>-<view>.<ext>`), via `container` for the link. */
export async function download(output: TryonOutput, product: string, container: Node): Promise<void> {
  const extension = output.type === 'video' ? 'mp4' : (output.contentType ?? '').includes('png') ? 'png' : 'jpg';
  let href = output.url;
  let revoke = false;
  try {
    // A fetched blob downloads under our name even when the proxy is on another origin.
    const response = await fetch(output.url);
    if (response.ok) {
      href = URL.createObjectURL(await response.blob());
      revoke = true;
    }
  } catch {
    // Fall back to the link itself.
  }
  const link = document.createElement('a');
  link.href = href;
  link.download = `${product}-${output.view}.${extension}`;
  link.rel = 'noopener';
  link.style.display = 'none';
  container.appendChild(link);
  link.click();
  link.remove();
  if (revoke) setTimeout(() => URL.revokeObjectURL(href), 60_000);
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
