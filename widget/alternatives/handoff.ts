// The desktop → phone hand-off, widget side. The desktop shows a QR code of this page's address
// with `#tryon-handoff=<code>` (drawn here, in the browser, by lean-qr loaded on demand in its own
// chunk: no QR service sees the address), the code in letters for typing, and a countdown, and
// waits on the hand-off's event stream. The phone opens the page, the button sees the fragment
// and opens its dialog in hand-off mode; the fragment leaves the address bar at once.
//
// Why lean-qr: ISO 18004 complete, no dependencies, maintained; its nano build and SVG extra are about 3 KB gzipped (uqr, the
// other one installed, is about 7.8 KB for the same SVG).

import { HANDOFF_PARAM } from './handoff-fragment.js';

/** This page's address for the phone, with the code in its fragment (never sent to any server by the browser). */
export function phoneAddress(code: string): string {
  const url = new URL(location.href);
  url.hash = `${HANDOFF_PARAM}=${code}`;
  return url.href;
}

/** The code as the shopper types it: two groups of five. */
export const spacedCode = (code: string): string =>
  code.length === 10 ? `${code.slice(0, 5)}-${code.slice(5)}` : code;

/** A QR code of `text` as an SVG data URL: lean-qr, imported only now (its own chunk). */
export async function qrCode(text: string): Promise<string> {
  const { generate } = await import('lean-qr/nano');
  const { toSvgDataURL } = await import('lean-qr/extras/svg');
  return toSvgDataURL(generate(text), { on: 'black', off: 'white', pad: 4 });
}

/** Minutes and seconds left, `m:ss`, never below 0:00. */
export function timeLeft(until: number, now: number): string {
  const seconds = Math.max(0, Math.ceil((until - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
