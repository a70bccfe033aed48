// The Chromium that browser, packaging and end-to-end tests drive: the system's (tools that
// download their own browser fail on these machines). `npm test` installs it when missing
// (scripts/prerequisites.ts) and passes its path in CHROME_PATH.
import { PROGRAMS, findProgram } from './prerequisites.js';

/** Flags that keep Chromium quiet and working as root on a closed network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless=new',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export function findChromium(): string | undefined {
  return findProgram(PROGRAMS.find((program) => program.name === 'chromium')!);
}
