// Two servers under the same load, measured alternately in one run (A, B, B, A: a machine that
// gets busier or quieter during the run weighs on both alike), with every response's own time.
// autocannon's summary histogram counts whole milliseconds, which at 2–5 ms latencies makes a
// p50 ratio jump by a third at a time; its `response` event gives each response's time in
// fractional milliseconds, and the percentiles here are read from those.
import autocannon from 'autocannon';

export interface Target {
  url: string;
  headers?: Record<string, string>;
  /**
   * Running totals read before and after each of this target's slices (its process's CPU time, the
   * upstream requests it made); the load reports how much each grew during this target's slices only.
   */
  counters?: Record<string, () => Promise<number>>;
}

export interface Load {
  /** Exact percentiles of the 2xx answers' times, in milliseconds. */
  p50: number;
  p99: number;
  rps: number;
  non2xx: number;
  errors: number;
  requests: number;
  /** How much each of the target's counters grew during its slices. */
  counted: Record<string, number>;
}

/** The q-quantile (0–1) of ascending `sorted` times, interpolated between the two nearest. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

interface Slice {
  times: number[];
  counted: Record<string, number>;
  requests: number;
  seconds: number;
  non2xx: number;
  errors: number;
}

async function slice(target: Target, connections: number, seconds: number): Promise<Slice> {
  const times: number[] = [];
  const counters = Object.entries(target.counters ?? {});
  const before = await Promise.all(counters.map(([, read]) => read()));
  const running = autocannon({
    url: target.url,
    connections,
    duration: seconds,
    headers: target.headers ?? {},
    timeout: 10,
  });
  running.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) times.push(ms);
  });
  const result = await running;
  const after = await Promise.all(counters.map(([, read]) => read()));
  return {
    times,
    requests: result.requests.total,
    seconds,
    non2xx: result.non2xx,
    errors: result.errors,
    counted: Object.fromEntries(counters.map(([name], index) => [name, after[index]! - before[index]!])),
  };
}

function pooled(slices: Slice[]): Load {
  const times = slices.flatMap((each) => each.times).sort((x, y) => x - y);
  const requests = slices.reduce((sum, each) => sum + each.requests, 0);
  const seconds = slices.reduce((sum, each) => sum + each.seconds, 0);
  return {
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    rps: requests / seconds,
    non2xx: slices.reduce((sum, each) => sum + each.non2xx, 0),
    errors: slices.reduce((sum, each) => sum + each.errors, 0),
    requests,
    counted: Object.fromEntries(
      Object.keys(slices[0]?.counted ?? {}).map((name) => [
        name,
        slices.reduce((sum, each) => sum + (each.counted[name] ?? 0), 0),
      ]),
    ),
  };
}

/** `seconds` of load on each of a and b, in two halves each, A B B A. */
export async function pairedLoad(a: Target, b: Target, connections: number, seconds: number): Promise<[Load, Load]> {
  const half = Math.max(1, Math.round(seconds / 2));
  const first = await slice(a, connections, half);
  const second = await slice(b, connections, half);
  const third = await slice(b, connections, half);
  const fourth = await slice(a, connections, half);
  return [pooled([first, fourth]), pooled([second, third])];
}
