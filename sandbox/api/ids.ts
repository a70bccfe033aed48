// Ids shaped like the hosted API's (`file_…`, `job_…`), so code reading them meets the real shapes.
import { randomBytes } from 'node:crypto';

/** Ids shaped like the hosted API's: a readable prefix and 24 random hex characters. */
export function newId(prefix: 'file' | 'job' | 'fault' | 'msg'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}
