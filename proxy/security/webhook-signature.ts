// Standard Webhooks verification by the scheme's own reference library (`standardwebhooks`: pure
// JavaScript, no node: imports, so the same code runs on Node and in the Worker bundle) rather than
// a re-implementation: signature = base64(HMAC-SHA256(secret, `${id}.${timestamp}.${body}`)),
// secret "whsec_<base64>", header `webhook-signature` holding space-separated `v1,<sig>` entries
// compared in constant time; timestamps more than five minutes old or ahead are refused so a
// captured event cannot be replayed later (the library's tolerance, on the real clock).
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/** Whether an event's headers sign its body under the proxy's webhook secret. */
export type WebhookVerifier = (headers: Headers, body: string) => boolean;

/**
 * A verifier for `secret` ("whsec_<base64>"). A secret that is not base64 is a set-up mistake,
 * said at start (loadConfig says it first for TRYON_WEBHOOK_SECRET), never a weaker fallback key.
 */
export function webhookVerifier(secret: string): WebhookVerifier {
  let webhook: Webhook;
  try {
    webhook = new Webhook(secret);
  } catch {
    throw new TypeError(
      'webhookSecret must look like whsec_<base64> (the secret the try-on service gives for the endpoint)',
    );
  }
  return (headers, body) => {
    const id = headers.get('webhook-id');
    const timestamp = headers.get('webhook-timestamp');
    const signature = headers.get('webhook-signature');
    // The library reads a timestamp with parseInt ("17abc" is 17): only plain digits are one.
    if (!id || !timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
    try {
      webhook.verify(
        body,
        { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature },
        { jsonParse: false },
      );
      return true;
    } catch (error) {
      if (error instanceof WebhookVerificationError) return false;
      throw error;
    }
  };
}
