// The sandbox's refusals, in the error shape this project reads from the hosted API
// (`{"error":{"code","message","details"?}}`, docs/upstream-api.md): a client's mistake or an
// injected fault is a SandboxError the app answers as JSON, so nothing a client sends becomes a 500.
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export interface IssueDetail {
  field: string;
  message: string;
}

/** An error a client caused (or a fault the test asked for): answered as JSON, never a crash. */
export class SandboxError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: IssueDetail[],
  ) {
    super(message);
  }
}

export function errorBody(code: string, message: string, details?: IssueDetail[]) {
  return { error: details ? { code, message, details } : { code, message } };
}

export const notFound = (what: string) =>
  new SandboxError(404, 'not_found', `No ${what} with that id in this workspace.`);

export function validationFailed(details: IssueDetail[]): SandboxError {
  const first = details[0];
  const summary = first ? `${first.field}: ${first.message}` : 'the request is not valid';
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return new SandboxError(422, 'validation_failed', `Invalid request: ${summary}${more}.`, details);
}
