// The compliance line written for every accepted try-on: when, which product, which photo handle,
// and a salted hash of the client (never its address), so a shop can show consent was given.
import type { ProxyServices } from '../context.js';

export async function logConsent(services: ProxyServices, entry: { product: string; photo: string; client: string; requestId: string }): Promise<void> {
  // The client key may carry the page's origin after a '|' (no address known): hash the address part.
  const address = entry.client.split('|')[0] ?? entry.client;
  services.log({
    event: 'consent', time: new Date(services.now()).toISOString(), product: entry.product, photo: entry.photo,
    client: await services.hashClient(address), requestId: entry.requestId,
  });
}
