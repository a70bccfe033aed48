import type { Benchmark } from './harness.js';
import { Unavailable } from './report.js';

export const pageImpact: Benchmark = {
  id: 'page-impact',
  title: '2. page-impact',
  limitSeconds: 60,
  async run() {
    throw new Unavailable('not written yet');
  },
};
