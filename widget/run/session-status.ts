// What one status answer of the proxy does to the session: outputs merged by view, the first look
// taken while the full render is not in yet, and the proxy's status read as the shopper's step.
import type { TryonOutput } from '../core/events.js';
import { hasOutput } from './session-state.js';
import type { ProxyStatus } from '../api/proxy-client.js';
import type { SessionState } from './session-state.js';

function mergeOutputs(known: TryonOutput[], incoming: TryonOutput[]): TryonOutput[] {
  const merged = [...known];
  for (const output of incoming) {
    const at = merged.findIndex((o) => o.view === output.view && o.type === output.type);
    if (at >= 0) merged[at] = output;
    else merged.push(output);
  }
  return merged;
}

/** The first look's image once its job (the answer's `preview`) succeeded; a failed or unfinished one shows nothing. */
function firstLookOf(answer: ProxyStatus): TryonOutput | undefined {
  const job = answer.preview;
  if (!job || job.status !== 'succeeded' || !Array.isArray(job.outputs)) return undefined;
  return job.outputs.find((o) => o.type === 'image');
}

export function statusAfter(state: SessionState, answer: ProxyStatus): SessionState {
  const outputs = mergeOutputs(state.outputs, answer.outputs);
  const ofThisJob = answer.outputs.some((o) => o.type === state.output);
  // A first look whose draft finished after the full render (the upstream jobs race) is late: the
  // full render is on screen, so it is not shown, announced nor reported (tryon-preview).
  const late = answer.status === 'succeeded' || ofThisJob || hasOutput(state);
  const firstLook = (late ? undefined : firstLookOf(answer)) ?? state.firstLook;
  // Each answer says the whole check: a label is never carried over from an answer that no longer claims it.
  state = { ...state, ...(firstLook ? { firstLook } : {}), fidelity: answer.fidelity };
  switch (answer.status) {
    case 'succeeded':
      return { ...state, status: 'result', outputs, complete: true, error: undefined, failedStage: undefined };
    case 'failed':
      return {
        ...state,
        status: 'error',
        outputs,
        error: answer.error ?? { code: 'render_failed', message: '', retryable: true },
        failedStage: 'render',
      };
    case 'queued':
      return { ...state, status: ofThisJob ? 'result' : 'queued', outputs, complete: false };
    default:
      // Unknown non-terminal states are treated as rendering, as the proxy does upstream.
      return { ...state, status: ofThisJob ? 'result' : 'rendering', outputs, complete: false };
  }
}
