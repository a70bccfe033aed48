// The part of autocannon's programmatic API the benches use (the package ships no types).
declare module 'autocannon' {
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    total: number;
  }
  export interface Options {
    url: string | string[];
    connections?: number;
    duration?: number;
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    timeout?: number;
  }
  export interface Result {
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    connections: number;
    '2xx': number;
  }
  /** A run: awaited for its result, and an emitter of each response as it comes (`ms` is fractional). */
  export interface Instance extends Promise<Result> {
    on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): Instance;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
