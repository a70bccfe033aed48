// Standard Webhooks verification with Web Crypto only (so it runs on Workers too):
// signature = base64(HMAC-SHA256(secret, `${id}.${timestamp}.${body}`)), secret "whsec_<base64>",
// header `webhook-signature` holds space-separated `v1,<sig>` entries; timestamps older or newer
// than five minutes are refused so a captured event cannot be replayed later.
import { constantTimeEqual } from './handles.js';

const TOLERANCE_SECONDS = 5 * 60;

function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function webhookSecretBytes(secret: string): Uint8Array {
  const text = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  try {
    return base64ToBytes(text);
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
  const key = await crypto.subtle.importKey('raw', webhookSecretBytes(secret) as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)));
  let ok = false;
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) continue;
    let given: Uint8Array;
    try {
      given = base64ToBytes(value);
    } catch {
      continue;
    }
    // Check every entry, so the time taken does not say which one matched.
    if (constantTimeEqual(given, expected)) ok = true;
  }
  return ok;
}
