// The proxy's counters in the Prometheus text format, with prom-client (Node only: node.ts loads
// this only when TRYON_METRICS_TOKEN is set, and serves it at GET /metrics behind that token).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ProxyMetrics } from './metrics.js';

export interface PrometheusMetrics {
  metrics: ProxyMetrics;
  contentType: string;
  text(): Promise<string>;
}

export function prometheusMetrics(): PrometheusMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'tryon_proxy_process_' });
  const started = new Counter({
    name: 'tryon_tryons_started_total',
    help: 'Try-ons upstream accepted, by product and tier.',
    labelNames: ['product', 'tier'],
    registers: [registry],
  });
  const finished = new Counter({
    name: 'tryon_tryons_finished_total',
    help: 'Try-ons seen finishing, by product, tier and status (succeeded or failed); once per cluster.',
    labelNames: ['product', 'tier', 'status'],
    registers: [registry],
  });
  const credits = new Counter({
    name: 'tryon_credits_reserved_total',
    help: 'Credits reserved by accepted try-ons (by the price table).',
    labelNames: ['product', 'tier'],
    registers: [registry],
  });
  const calls = new Histogram({
    name: 'tryon_upstream_request_duration_seconds',
    help: 'Upstream calls by route and status (0: no answer), with their latency.',
    labelNames: ['route', 'status'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const sse = new Gauge({
    name: 'tryon_sse_connections',
    help: 'Open SSE status streams on this instance.',
    registers: [registry],
  });
  const storeErrors = new Counter({
    name: 'tryon_store_errors_total',
    help: 'Failed operations of the shared store, by operation.',
    labelNames: ['operation'],
    registers: [registry],
  });
  return {
    metrics: {
      tryonStarted: (product, tier, amount) => {
        started.inc({ product, tier });
        if (amount > 0) credits.inc({ product, tier }, amount);
      },
      tryonFinished: (product, tier, status) => finished.inc({ product, tier, status }),
      upstreamCall: (route, status, ms) => calls.observe({ route, status: String(status) }, ms / 1000),
      sseConnections: (delta) => sse.inc(delta),
      storeError: (operation) => storeErrors.inc({ operation }),
    },
    contentType: registry.contentType,
    text: () => registry.metrics(),
  };
}
