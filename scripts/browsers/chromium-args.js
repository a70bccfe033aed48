// The flags Chromium runs with in every test, in one place for both kinds of caller: the widget's
// web-test-runner (engines.js, plain JavaScript that Node loads without tsx) and the TypeScript
// tests and benchmarks (through scripts/chromium.ts, which re-exports this list; chromium-args.d.ts types it).

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
