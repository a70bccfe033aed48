// Which try-on service a demo proxy talks to: the one TRYON_BASE_URL + TRYON_API_KEY name (as
// loadConfig validated them: a key without a base URL was already refused), or, with no key, a
// sandbox started here in-process. The proxy's own Node entry never does the latter (proxy/node.ts).
import type { ProxyConfig } from '../proxy/config/config.js';
import { startSandbox, type SandboxOptions } from '../sandbox/server.js';

export interface TryonService {
  apiKey: string;
  baseUrl: string;
  upstreamLabel: 'sandbox' | 'live' | 'test';
  /** Set when a sandbox was started here. */
  sandbox?: { url: string; key: string };
  close(): Promise<void>;
}

/** `sandbox`: how to start the sandbox if one is needed (without keys it makes up one test key). */
export async function connectTryonService(
  config: ProxyConfig,
  sandbox: SandboxOptions & { port: number; hostname: string },
): Promise<TryonService> {
  if (config.apiKey && config.baseUrl) {
    const upstreamLabel = config.apiKey.startsWith('sk_test_') ? 'test' : 'live';
    return {
      apiKey: config.apiKey,
      baseUrl: config.baseUrl.replace(/\/+$/, ''),
      upstreamLabel,
      close: async () => undefined,
    };
  }
  const started = await startSandbox(sandbox);
  const key = Object.keys(started.keys)[0];
  if (!key) throw new Error('the sandbox started with no key');
  return {
    apiKey: key,
    baseUrl: started.url,
    upstreamLabel: 'sandbox',
    sandbox: { url: started.url, key },
    close: () => started.close(),
  };
}
