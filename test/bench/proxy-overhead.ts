import type { Benchmark } from './harness.js';
import { Unavailable } from './report.js';

export const proxyOverhead: Benchmark = {
  id: 'proxy-overhead',
  title: '4. proxy-overhead',
  limitSeconds: 60,
  async run() {
    throw new Unavailable('not written yet');
  },
};
