// Shopify's webhook signature, exactly as Shopify documents it
// (https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-5-verify-the-webhook): the
// `X-Shopify-Hmac-Sha256` header is the base64 HMAC-SHA256 of the raw body bytes under the app's
// client secret. Checked on the bytes as they arrived (before any parsing, which could change
// them), in Web Crypto, with a comparison whose time never says where two values differ.
import { constantTimeEqual, fromBase64, hmac } from './crypto.js';

/** Whether `header` is the base64 HMAC-SHA256 of `body` under `secret`. */
export async function shopifyWebhookSigned(
  secret: string,
  body: Uint8Array,
  header: string | null | undefined,
): Promise<boolean> {
  if (!header || !/^[A-Za-z0-9+/]{43}=$/.test(header)) return false;
  let claimed: Uint8Array;
  try {
    claimed = fromBase64(header);
  } catch {
    return false;
  }
  return constantTimeEqual(await hmac(secret, body), claimed);
}
