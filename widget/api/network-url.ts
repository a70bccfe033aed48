// The one gate for every URL that arrives over the network (a result's image or video, the link
// that is downloaded or shared): it is used only when it is http(s) and on the endpoint's own
// origin. A hostile or compromised endpoint could otherwise make the shop's page run a
// `javascript:` URL, download a `data:` document under the shop's name, or send the shopper to
// another site. The proxy has no way yet to declare another public origin to the widget, so
// none is accepted: its `publicUrl` must be on the origin the widget's endpoint is on.

/** A URL from the network that the widget will not use; `shown` is safe to log (scheme or origin only). */
export class RefusedUrl extends Error {
  readonly shown: string;

  constructor(shown: string, endpoint: URL) {
    super(`refused ${shown}: not http(s) on the endpoint's origin ${endpoint.origin}`);
    this.name = 'RefusedUrl';
    this.shown = shown;
  }
}

const webSchemes = new Set(['http:', 'https:']);

/**
 * What may be said of a URL without repeating it: its origin when it has one (never its path or
 * query, which may carry a signed handle), else its scheme alone (a `data:` or `javascript:` body
 * is the attacker's text).
 */
function describe(url: URL | undefined): string {
  if (!url) return 'an unreadable URL';
  return webSchemes.has(url.protocol) ? url.origin : url.protocol;
}

/**
 * `url` made absolute against the endpoint (the proxy answers URLs relative to its mount), when it is
 * http(s) on the endpoint's origin; else throws `RefusedUrl`, after telling the developer in the
 * console which scheme or origin was refused.
 */
export function networkUrl(url: unknown, endpoint: URL): string {
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url, endpoint) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed && webSchemes.has(parsed.protocol) && parsed.origin === endpoint.origin) return parsed.href;
  const refused = new RefusedUrl(describe(parsed), endpoint);
  console.error(
    `<tryon-button>: refused a URL from the try-on proxy at ${endpoint.origin} (${refused.shown}): ` +
      "the widget uses only http(s) URLs on its endpoint's origin, so this result is not shown.",
  );
  throw refused;
}
