// A hand-off's state (GET /handoffs/{h}/events), watched as a try-on's status is (proxy-watch.ts),
// in the chunk loaded only for "Use your phone" (alternatives.ts), so the dialog does not carry it.
import { abortError, ProxyCallError, streamUntil, wait } from '../api/proxy-client.js';
import type { HandoffState, WatchedProxy } from '../api/proxy-client.js';

/** A state after which nothing more can happen to the hand-off. */
const settled = (state: HandoffState) => state.status === 'received' || state.status === 'expired';

/**
 * Reports the hand-off's state (waiting, then confirming once the phone's photo came) until the
 * number is confirmed or the hand-off ends: its event stream, and
 * when that breaks, a poll every pollInterval (as a try-on's watch does). Rejects with an
 * AbortError when `signal` aborts.
 */
export async function watchHandoff(
  proxy: WatchedProxy,
  handoff: string,
  onState: (state: HandoffState) => void,
  signal?: AbortSignal,
): Promise<HandoffState> {
  const path = `handoffs/${encodeURIComponent(handoff)}`;
  if (proxy.serverSentEvents && typeof EventSource === 'function') {
    const streamed = await streamUntil<HandoffState>(
      proxy,
      `${path}/events`,
      'handoff',
      (data, end) => {
        try {
          const state = JSON.parse(data) as HandoffState;
          onState(state);
          if (settled(state)) end(state);
        } catch {
          // An answer of another shape is skipped, as the try-on's stream skips one.
        }
      },
      signal,
    );
    if (streamed) return streamed;
  }
  for (;;) {
    try {
      const state = await proxy.read<HandoffState>(path, signal);
      onState(state);
      if (settled(state)) return state;
    } catch (error) {
      if (signal?.aborted) throw abortError();
      if (!(error instanceof ProxyCallError) || !error.retryable) throw error;
    }
    await wait(proxy.pollInterval, signal);
  }
}
