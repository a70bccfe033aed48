// What the sandbox's route groups share: the parts createSandbox builds once (server.ts) and hands
// to each group, the Hono context's variables, and the two body helpers every group refuses with.
// A module of its own so each group imports only this, never server.ts (which imports the groups).
import type { Context } from 'hono';
import { SandboxError } from '../api/errors.js';
import type { Faults } from '../jobs/faults.js';
import type { FileStore } from '../files/store.js';
import type { JobRunner } from '../jobs/runner.js';
import type { requestSchemas } from '../api/tryon-request.js';
import type { Workspace, Workspaces } from '../jobs/workspaces.js';

/** The Hono variables the key check sets for every `/v1` route. */
export type SandboxEnv = { Variables: { workspace: Workspace; live: boolean } };

/** One sandbox's state and settings, made once by createSandbox. */
export interface SandboxParts {
  log: (line: string) => void;
  keys: Record<string, string>;
  workspaces: Workspaces;
  files: FileStore;
  faults: Faults;
  jobs: JobRunner;
  schemas: ReturnType<typeof requestSchemas>;
  generalProviders: readonly string[];
  maxUploadBytes: number;
  /** Calls per documented route (refused ones included), for /sandbox/state. */
  requests: Record<string, number>;
  /** Injected delays still running, cut short when the sandbox closes. */
  delays: Set<{ timer: NodeJS.Timeout; done: () => void }>;
}

export async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new SandboxError(400, 'invalid_request', 'The body is not valid JSON.');
  }
}

/** bodyLimit's refusal for a body over `limit` bytes: 413, as a file or as a request body. */
export const tooLarge = (what: string, limit: number) => (): never => {
  throw new SandboxError(
    413,
    what === 'file' ? 'file_too_large' : 'request_too_large',
    `The ${what} is larger than the limit of ${limit} bytes.`,
  );
};
