// The request log's pieces (the line itself is written by every-answer.ts): method, path, status
// and time taken. Handles in paths are cut to their kind, so a log never holds a link that would
// open someone's photo, result or hand-off. And the log every line goes through, which removes secrets.
import type { Log } from '../operator/log.js';

/**
 * Anything shaped like a handle (handles.ts: `v1.<kind>.<payload>.<signature>`), whatever its
 * kind: a list of kinds here would have to be kept in step with handles.ts, and a kind added there
 * and missed here would be logged whole. The path is already decoded, so a handle with
 * its dots percent-encoded is matched too.
 */
const HANDLE_IN_PATH = /v1\.([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g;

/** Longest path a log line keeps: a 15 KB probe path must not cost 15 KB of log per request. */
export const LOGGED_PATH_CHARS = 256;

export function loggedPath(path: string): string {
  // Most paths (/health, /products/…) hold no handle: no pattern to run over them on every request.
  // Every handle holds "v1.", so a path without it has none to cut.
  if (path.length <= LOGGED_PATH_CHARS && !path.includes('v1.')) return path;
  const named = path.slice(0, LOGGED_PATH_CHARS * 4).replace(HANDLE_IN_PATH, 'v1.$1.…');
  return named.length > LOGGED_PATH_CHARS ? `${named.slice(0, LOGGED_PATH_CHARS)}…(${path.length} chars)` : named;
}

/** Removes every secret from a log entry, whatever field it hid in. */
export function redactingLog(sink: Log, secrets: string[]): Log {
  const hidden = secrets.filter((s) => s && s.length >= 6);
  return (entry) => {
    const stamped = { time: isoTime(), ...entry };
    try {
      // A flat entry (every request's line) is checked field by field, with no serialising; a
      // nested one on its serialised form, so that a secret hidden in any nested field is found.
      // The entry is rebuilt only when a secret is in it (rare), not on every request.
      if (flatAndClean(stamped, hidden)) {
        sink(stamped);
        return;
      }
      let text = JSON.stringify(stamped);
      if (!hidden.some((secret) => text.includes(secret))) {
        sink(stamped);
        return;
      }
      for (const secret of hidden) text = text.split(secret).join('[redacted]');
      sink(JSON.parse(text) as Record<string, unknown>);
    } catch {
      // A broken log sink must never break a shopper's request.
    }
  };
}

let stampedMs = -1;
let stampedText = '';

/** The time of a line; lines written in the same millisecond share one formatted stamp. */
function isoTime(): string {
  const now = Date.now();
  if (now !== stampedMs) {
    stampedMs = now;
    stampedText = new Date(now).toISOString();
  }
  return stampedText;
}

/** Whether every field is a plain value and no name or text holds a secret (then nothing needs redacting). */
function flatAndClean(entry: Record<string, unknown>, hidden: string[]): boolean {
  for (const name in entry) {
    const value = entry[name];
    if (typeof value === 'object' && value !== null) return false;
    for (const secret of hidden) {
      if (name.includes(secret) || (typeof value === 'string' && value.includes(secret))) return false;
    }
  }
  return true;
}
