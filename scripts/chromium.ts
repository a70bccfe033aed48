// The Chromium that browser, packaging and end-to-end tests drive: the system's (tools that
// download their own browser fail on these machines). `npm test` installs it when missing
// (scripts/prerequisites.ts) and passes its path in CHROME_PATH.
import { PROGRAMS, findProgram } from './prerequisites.js';

export { CHROMIUM_ARGS } from './browsers/chromium-args.js';

export function findChromium(): string | undefined {
  return findProgram(PROGRAMS.find((program) => program.name === 'chromium')!);
}
