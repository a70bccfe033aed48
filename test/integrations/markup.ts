// Reads rendered theme or plugin output the way a browser would, to compare attribute values with
// the raw (possibly hostile) input after the browser decodes the entities.

/** Decodes the entities that Liquid's `escape` and WordPress's esc_* functions produce. */
export function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export interface Element {
  attributes: Record<string, string>;
  text: string;
}

/**
 * Every `<tag …>…</tag>` in the markup, with attributes decoded. Attribute values must be
 * double-quoted; an unquoted or broken-out value makes the element fail to parse, which the tests
 * treat as an escaping failure.
 */
export function findElements(markup: string, tag: string): Element[] {
  const found: Element[] = [];
  const pattern = new RegExp(`<${tag}((?:\\s+[a-z][a-z0-9-]*(?:="[^"<>]*")?)*)\\s*>([^<]*)</${tag}>`, 'gi');
  for (const match of markup.matchAll(pattern)) {
    const attributes: Record<string, string> = {};
    for (const attribute of (match[1] ?? '').matchAll(/([a-z][a-z0-9-]*)(?:="([^"]*)")?/gi)) {
      attributes[attribute[1]!] = decodeEntities(attribute[2] ?? '');
    }
    found.push({ attributes, text: decodeEntities(match[2] ?? '').trim() });
  }
  return found;
}

/** How many times the tag opens at all, matched loosely, to catch output the strict parser missed. */
export function countOpenings(markup: string, tag: string): number {
  return markup.match(new RegExp(`<${tag}[\\s>]`, 'gi'))?.length ?? 0;
}

/** Strings that would only appear if hostile input came through unescaped. */
export const hostile = {
  product: 'saree"><script>alert(1)</script><x a="',
  label: 'Try <b>me</b> & "see" \'it\'',
  views: 'front" onmouseover="alert(2)',
  accent: 'red;"><img src=x onerror=alert(3)>',
  privacy: 'javascript:alert(4)',
};

export function assertNoBreakout(markup: string): void {
  const raw = [/<script>alert/i, /<img src=x/i, /"\s*onmouseover="/i, /<b>me<\/b>/i];
  for (const pattern of raw) {
    if (pattern.test(markup)) throw new Error(`unescaped hostile input (${pattern}) in:\n${markup}`);
  }
}
