import type { Benchmark } from './harness.js';
import { Unavailable } from './report.js';

export const upstreamEconomy: Benchmark = {
  id: 'upstream-economy',
  title: '5. upstream-economy',
  limitSeconds: 60,
  async run() {
    throw new Unavailable('not written yet');
  },
};
