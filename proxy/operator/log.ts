// The log's one shape: a JSON object per line. A leaf module, so that any part (the upstream
// transport, budget alerts, middleware) can take a log without reaching for the services.
export type Log = (entry: Record<string, unknown>) => void;
