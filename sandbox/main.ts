// `npm run sandbox`: the local stand-in of the hosted /v1 API, on its own port.
import { startSandbox } from './server.js';
import type { SandboxOptions } from './server.js';

function fail(message: string): never {
  console.error(`sandbox: ${message}`);
  process.exit(1);
}

function parseKeys(text: string | undefined): Record<string, string> | undefined {
  if (!text?.trim()) return undefined;
  const keys: Record<string, string> = {};
  for (const pair of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key, workspace, ...extra] = pair.split('=').map((p) => p.trim());
    if (!key || !workspace || extra.length)
      fail('SANDBOX_KEYS must be key=workspace pairs separated by commas, e.g. sk_test_a=ws_1,sk_live_b=ws_1.');
    keys[key] = workspace;
  }
  return keys;
}

function parseNumber(name: string, text: string | undefined, fallback: number, integer = false): number {
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value)))
    fail(`${name} must be a ${integer ? 'whole ' : ''}number ≥ 0, not "${text}".`);
  return value;
}

function parseSpread(text: string): boolean {
  const value = text.trim();
  if (value !== '0' && value !== '1')
    fail(
      `SANDBOX_SPREAD must be 1 (job times spread around each tier's median) or 0 (the median exactly), not "${text}".`,
    );
  return value === '1';
}

const env = process.env;
const keys = parseKeys(env.SANDBOX_KEYS);
const general = env.SANDBOX_GENERAL_PROVIDERS?.split(',')
  .map((p) => p.trim())
  .filter(Boolean);
if (general && general.length !== 3)
  fail('SANDBOX_GENERAL_PROVIDERS must name exactly three providers, separated by commas.');

const options: SandboxOptions & { port: number; hostname: string } = {
  port: parseNumber('SANDBOX_PORT', env.SANDBOX_PORT, 8081, true),
  hostname: env.SANDBOX_HOST?.trim() || '127.0.0.1',
  speed: parseNumber('SANDBOX_SPEED', env.SANDBOX_SPEED, 1),
  ...(env.SANDBOX_SPREAD?.trim() ? { spread: parseSpread(env.SANDBOX_SPREAD) } : {}),
  ...(keys ? { keys } : {}),
  ...(general ? { generalProviders: general as [string, string, string] } : {}),
  ...(env.SANDBOX_WEBHOOK_URL ? { webhookUrl: env.SANDBOX_WEBHOOK_URL } : {}),
  ...(env.SANDBOX_WEBHOOK_SECRET ? { webhookSecret: env.SANDBOX_WEBHOOK_SECRET } : {}),
};

try {
  const sandbox = await startSandbox(options);
  console.log(`sandbox: try-on API stand-in at ${sandbox.url}/v1 (controls at ${sandbox.url}/sandbox/state)`);
  if (keys) {
    console.log(
      `sandbox: ${Object.keys(keys).length} key(s) from SANDBOX_KEYS for workspace(s) ${[...new Set(Object.values(keys))].join(', ')}`,
    );
  } else {
    // A made-up test key is no secret: printing it is how a developer gets to use it.
    console.log(`sandbox: test key (made up for this run): ${Object.keys(sandbox.keys)[0]}`);
  }
  if (options.webhookUrl) console.log(`sandbox: job events are POSTed to ${options.webhookUrl}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`sandbox: ${signal}, stopping`);
    void sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
