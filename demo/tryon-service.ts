// Which try-on service a demo proxy talks to: the one TRYON_BASE_URL + TRYON_API_KEY name (as
// loadConfig validated them: a key without a base URL was already refused), or, with no key, a
// sandbox started here in-process. The proxy's own Node entry never does the latter (proxy/node.ts).
import type { ProxyConfig } from '../proxy/config/config.js';
import type { PartialTypicalSeconds } from '../proxy/timings/tryon-times.js';
import { latency, tiers } from '../sandbox/api/tiers.js';
import { startSandbox, type SandboxOptions } from '../sandbox/server.js';

export interface TryonService {
  apiKey: string;
  baseUrl: string;
  upstreamLabel: 'sandbox' | 'live' | 'test';
  /** Set when a sandbox was started here. */
  sandbox?: { url: string; key: string };
  /**
   * What a try-on takes on the sandbox started here: its medians at its speed. The proxy cannot ask
   * the sandbox, so the demo tells it (its `typicalSeconds`), unless TRYON_TYPICAL_SECONDS does.
   */
  typicalSeconds?: PartialTypicalSeconds;
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
    typicalSeconds: sandboxTypicalSeconds(sandbox.speed ?? 1),
    close: () => started.close(),
  };
}

/**
 * The sandbox's median job times at `speed` (SANDBOX_SPEED), as the proxy's cold-start figures: a
 * front-view image and a video by tier. An instant sandbox (speed 0) still takes a moment to draw.
 */
export function sandboxTypicalSeconds(speed: number): PartialTypicalSeconds {
  const at = (seconds: number) => Math.max(0.1, Math.round(seconds * speed * 10) / 10);
  const byTier = (of: 'front' | 'video') =>
    Object.fromEntries(tiers.map((tier) => [tier, at(latency[of][tier].median)]));
  return { image: byTier('front'), video: byTier('video') };
}
