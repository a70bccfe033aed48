// What the proxy counts for its operator. The app only calls this interface (Web-standard, so
// it runs on Workers too); node.ts fills it with prom-client and serves GET /metrics
// (proxy/operator/metrics-prometheus.ts). Labels are the product's words and never an id or an address.
export interface ProxyMetrics {
  /** A try-on upstream accepted (a retry of one already started is not counted again). */
  tryonStarted(product: string, tier: string, credits: number): void;
  /** A try-on seen finishing; counted once in the cluster (the store's write that finished it). */
  tryonFinished(product: string, tier: string, status: 'succeeded' | 'failed' | 'queued' | 'processing'): void;
  /** One upstream call: its route (no ids), status (0 when none came) and how long it took. */
  upstreamCall(route: string, status: number, ms: number): void;
  /** An SSE stream opened (+1) or closed (-1). */
  sseConnections(delta: 1 | -1): void;
  /** The shared store failed an operation. */
  storeError(operation: string): void;
}

export const noMetrics: ProxyMetrics = {
  tryonStarted: () => undefined,
  tryonFinished: () => undefined,
  upstreamCall: () => undefined,
  sseConnections: () => undefined,
  storeError: () => undefined,
};
