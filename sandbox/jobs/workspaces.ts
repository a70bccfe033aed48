// Workspaces, as the hosted API scopes keys to them: each has its credits and idempotency keys, and
// sees only its own files and jobs. Which keys are test keys (`sk_test_…`, charged nothing).
import { startingCredits } from '../api/tiers.js';

export interface IdempotentEntry {
  fingerprint: string;
  jobId: string;
}

/** What the hosted API scopes to a workspace: credits, idempotency keys, files and jobs. */
export class Workspace {
  credits = startingCredits;
  readonly idempotency = new Map<string, IdempotentEntry>();
  /** Job ids in creation order (parents and children), for /sandbox/state. */
  readonly jobIds: string[] = [];
  constructor(readonly name: string) {}
}

export class Workspaces {
  readonly #all = new Map<string, Workspace>();
  get(name: string): Workspace {
    let ws = this.#all.get(name);
    if (!ws) {
      ws = new Workspace(name);
      this.#all.set(name, ws);
    }
    return ws;
  }
  list(): Workspace[] {
    return [...this.#all.values()];
  }
}

/** A key is a test key by its documented prefix; every other known key spends credits. */
export const isTestKey = (key: string) => key.startsWith('sk_test_');
