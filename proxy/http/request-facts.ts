// Facts about one request, worked out once by middleware and kept on its context with c.set, as
// Hono's own requestId is: who is asking (client-address.ts, once per request, however many rate
// limits and log lines need it). A leaf module, so that middleware and routes can name the
// context's type without importing the services.
import type { Context } from 'hono';

export type ProxyEnv = { Variables: { requestId: string; client: string } };
export type ProxyContext = Context<ProxyEnv>;
