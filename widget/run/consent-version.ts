// The version of a consent text: the first 16 hex digits of the SHA-256 of the exact words the
// shopper was shown (NFC-normalised, so the same words always give the same version). The proxy
// logs it with each try-on, so a shop can later tell which text, in which language, was agreed to.

/** The words of the consent step as one text, in reading order, one part per line. */
export function consentWords(parts: readonly string[]): string {
  return parts
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n')
    .normalize('NFC');
}

/**
 * SHA-256 needs a secure context (https or localhost), as a shop's page is; elsewhere there is no
 * version to send, and the proxy records the try-on without one.
 */
export async function consentVersion(words: string): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(words.normalize('NFC'))));
  return Array.from(digest.subarray(0, 8), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
