// Standard Webhooks verification with Web Crypto only (so it runs on Workers too):
// signature = base64(HMAC-SHA256(secret, `${id}.${timestamp}.${body}`)), secret "whsec_<base64>",
// header `webhook-signature` holds space-separated `v1,<sig>` entries; timestamps older or newer
// than five minutes are refused so a captured event cannot be replayed later.
import { constantTimeEqual, fromBase64, hmac } from './crypto.js';

const TOLERANCE_SECONDS = 5 * 60;

export function webhookSecretBytes(secret: string): Uint8Array {
  const text = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  try {
    return fromBase64(text);
  } catch {
    return new TextEncoder().encode(secret);
  }
}

export async function verifyWebhook(secret: string, headers: Headers, body: string, nowMs: number): Promise<boolean> {
  const id = headers.get('webhook-id');
  const timestamp = headers.get('webhook-timestamp');
  const signatures = headers.get('webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const expected = await hmac(webhookSecretBytes(secret), `${id}.${timestamp}.${body}`);
  let ok = false;
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) continue;
    let given: Uint8Array;
    try {
      given = fromBase64(value);
    } catch {
      continue;
    }
    // Check every entry, so the time taken does not say which one matched.
    if (constantTimeEqual(given, expected)) ok = true;
  }
  return ok;
}
