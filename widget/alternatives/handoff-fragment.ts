// The hand-off's fragment on the phone's page (`#tryon-handoff=<code>`): read when the dialog
// opens, then taken out of the address bar. In the panel's chunk; the rest of the hand-off is in
// the alternatives chunk (alternatives.ts, handoff.ts).

/** The fragment parameter the phone's page carries. */
export const HANDOFF_PARAM = 'tryon-handoff';

/** The code in this page's fragment, if it has one (`#tryon-handoff=K7QF3MZD9X`, possibly beside other parameters). */
export function handoffCodeInPage(): string | undefined {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const code = params.get(HANDOFF_PARAM)?.trim();
  return code ? code : undefined;
}

/** Takes the code out of the address bar (and the history entry), so a reload or a shared link does not reuse it. */
export function removeHandoffFragment(): void {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  params.delete(HANDOFF_PARAM);
  const rest = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
}
