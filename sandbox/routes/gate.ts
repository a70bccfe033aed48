// What every `/v1` request passes before its route: it is counted (refused ones too, so a test can
// see a call that a fault or a bad key turned away), a fault a test injected may answer or delay it,
// and the Bearer key must name a workspace. Test keys (`sk_test_…`) are charged nothing.
import type { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { SandboxError, errorBody } from '../api/errors.js';
import { faultCode } from '../jobs/faults.js';
import { isTestKey } from '../jobs/workspaces.js';
import type { SandboxEnv, SandboxParts } from './shared.js';

const routePatterns: Array<[string, RegExp, string]> = [
  ['POST', /^\/v1\/files\/?$/, 'POST /v1/files'],
  ['POST', /^\/v1\/images\/tryon\/?$/, 'POST /v1/images/tryon'],
  ['POST', /^\/v1\/videos\/tryon\/?$/, 'POST /v1/videos/tryon'],
  ['GET', /^\/v1\/jobs\/[^/]+\/?$/, 'GET /v1/jobs/{id}'],
  ['GET', /^\/v1\/images\/[^/]+\/outputs\/?$/, 'GET /v1/images/{job_id}/outputs'],
  ['GET', /^\/v1\/files\/[^/]+\/content\/?$/, 'GET /v1/files/{file_id}/content'],
];
const routeOf = (method: string, path: string) =>
  routePatterns.find(([m, re]) => m === method && re.test(path))?.[2] ?? `${method} (no such route)`;

/** Every documented route at zero calls, so /sandbox/state lists the ones never called too. */
export const uncountedRoutes = (): Record<string, number> =>
  Object.fromEntries(routePatterns.map(([, , name]) => [name, 0]));

export function mountGate(app: Hono<SandboxEnv>, parts: SandboxParts): void {
  const { requests, faults, delays, keys, workspaces } = parts;

  // Counted before anything can refuse the request, so refused calls show up too.
  app.use('/v1/*', async (c, next) => {
    const route = routeOf(c.req.method, c.req.path);
    requests[route] = (requests[route] ?? 0) + 1;
    const fault = faults.takeRequestFault(c.req.method, c.req.path);
    if (fault && 'status' in fault) {
      if (fault.status === 429 || fault.status === 503) c.header('Retry-After', '1');
      return c.json(
        errorBody(faultCode(fault), fault.message ?? `Injected fault: ${fault.status} for ${fault.match}.`),
        fault.status as ContentfulStatusCode,
      );
    }
    if (fault && 'delayMs' in fault) {
      await new Promise<void>((resolve) => {
        const entry = {
          timer: setTimeout(() => {
            delays.delete(entry);
            resolve();
          }, fault.delayMs),
          done: resolve,
        };
        delays.add(entry);
      });
    }
    await next();
  });

  app.use('/v1/*', async (c, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
    if (!match?.[1]) throw new SandboxError(401, 'unauthorized', 'Send the header Authorization: Bearer <API key>.');
    const workspace = keys[match[1]];
    if (!workspace) throw new SandboxError(401, 'unauthorized', 'The API key is not known.');
    c.set('workspace', workspaces.get(workspace));
    c.set('live', !isTestKey(match[1]));
    await next();
  });
}
