// What the shopper can do with a finished try-on besides look at it: save it, or pass it on.
// Output URLs reach here only through the proxy client's gate (network-url.ts): http(s) on the
// endpoint's origin.
import type { TryonOutput } from '../core/events.js';

/** Our name for an output's file, `<product>-<view>.<ext>`: the saved file's and the shared picture's. */
export function outputFileName(output: TryonOutput, product: string): string {
  const extension = output.type === 'video' ? 'mp4' : (output.contentType ?? '').includes('png') ? 'png' : 'jpg';
  return `${product}-${output.view}.${extension}`;
}

/**
 * Saves an output under a name of ours (`<product>-<view>.<ext>`), via `container` for the link.
 * The file is fetched and saved from a blob, so the link never points at the output's URL: it
 * downloads under our name even when the proxy is on another origin, and nothing is ever opened
 * in the page. Resolves with the file's name once the browser has it, undefined when the file could not be
 * fetched (nothing was saved).
 */
export async function download(output: TryonOutput, product: string, container: Node): Promise<string | undefined> {
  let blob: Blob;
  try {
    const response = await fetch(output.url);
    if (!response.ok) return undefined;
    blob = await response.blob();
  } catch {
    return undefined;
  }
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  const fileName = outputFileName(output, product);
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  container.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return fileName;
}

/** What a share says: the product's name as its title, a sentence naming it, and the product page. */
export interface ShareWords {
  title: string;
  text: string;
  /** The product page (see `productPageUrl`); empty when the page has no web address to give. */
  url: string;
  /** The picture's file name when it goes along (`<product>-<view>.<ext>`). */
  fileName: string;
}

/**
 * What the shopper is told a share did: the share sheet took the picture with the product page
 * (`picture`), or the page alone (`link`); the page was copied (`copied`); the shopper closed the
 * sheet (`cancelled`); nothing worked (`failed`: show the page's address to copy by hand).
 */
export type ShareOutcome = 'picture' | 'link' | 'copied' | 'cancelled' | 'failed';

/**
 * The product page to share: the page's canonical address when it declares one (how a shop names
 * the page without its tracking parameters), else the page's own address, without its fragment.
 * Only web addresses: a page opened from a file has none to give.
 */
export function productPageUrl(): string {
  const canonical = document.querySelector<HTMLLinkElement>('link[rel~="canonical"][href]')?.href;
  for (const candidate of [canonical, location.href]) {
    if (!candidate) continue;
    try {
      const url = new URL(candidate, location.href);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
      url.hash = '';
      return url.href;
    } catch {
      // Not a URL: try the next candidate.
    }
  }
  return '';
}

/** The try-on picture as a file the share sheet can take, where the browser can share files at all. */
async function pictureFile(output: TryonOutput, fileName: string): Promise<File | undefined> {
  if (output.type !== 'image' || typeof navigator.canShare !== 'function') return undefined;
  try {
    const response = await fetch(output.url);
    if (!response.ok) return undefined;
    const blob = await response.blob();
    const file = new File([blob], fileName, { type: blob.type || 'image/jpeg' });
    return navigator.canShare({ files: [file] }) ? file : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Shares the product page, with the try-on picture as a file where the share sheet takes files;
 * without a share sheet, copies the sentence naming the product and the page's address. The
 * output's own URL is never shared or copied: it is a long, short-lived file address that says
 * nothing about the product. The caller says in the live region what was shared.
 */
export async function share(output: TryonOutput, words: ShareWords): Promise<ShareOutcome> {
  const { title, text, url } = words;
  if (typeof navigator.share === 'function') {
    const data: ShareData = { title, text, ...(url ? { url } : {}) };
    const picture = await pictureFile(output, words.fileName);
    try {
      await navigator.share(picture ? { ...data, files: [picture] } : data);
      return picture ? 'picture' : 'link';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
      // Refused (no user activation left after fetching the picture, a policy): the clipboard below.
    }
  }
  try {
    await navigator.clipboard.writeText(url ? `${text} ${url}` : text);
    return 'copied';
  } catch {
    return 'failed';
  }
}
