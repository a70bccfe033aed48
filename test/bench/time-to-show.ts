import type { Benchmark } from './harness.js';
import { Unavailable } from './report.js';

export const timeToShow: Benchmark = {
  id: 'time-to-show',
  title: '6. time-to-show',
  limitSeconds: 60,
  async run() {
    throw new Unavailable('not written yet');
  },
};
