// What the Durable Object store's two sides share: the few Cloudflare types they use (declared
// here, so the proxy needs neither @cloudflare/workers-types nor the `cloudflare:workers` module,
// and proxy/worker.ts still loads on Node) and the wire between an isolate and an object: one
// POST per operation, its arguments and the caller's clock as JSON, the answer as `{ value }`.
// Plain fetch rather than RPC, because RPC needs the DurableObject base class of
// `cloudflare:workers`.

/** A stub of one Durable Object (its fetch is the only way in that this store uses). */
export interface DurableObjectStub {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

/** A Durable Object namespace binding (wrangler.toml `[[durable_objects.bindings]]`). */
export interface DurableObjectNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): DurableObjectStub;
}

export type SqlValue = string | number | null | ArrayBuffer;

export interface SqlCursor<T> extends Iterable<T> {
  toArray(): T[];
}

/** The SQL API of a SQLite-backed object's storage (wrangler.toml `new_sqlite_classes`). */
export interface SqlStorage {
  exec<T = Record<string, SqlValue>>(query: string, ...bindings: SqlValue[]): SqlCursor<T>;
}

/** What an object is constructed with: its own storage, and its alarm. */
export interface DurableObjectState {
  storage: {
    sql: SqlStorage;
    setAlarm(epochMs: number): Promise<void>;
    deleteAlarm(): Promise<void>;
    deleteAll(): Promise<void>;
  };
}

/** The first row a query returns, if any. */
export function firstRow<T>(cursor: SqlCursor<T>): T | undefined {
  for (const row of cursor) return row;
  return undefined;
}

/** Every operation gets the caller's clock, so an object decides by the same time as the isolate that asks. */
export interface Call {
  now: number;
}

/** Answers one call with the operation it names (the URL's path), or 404 for an unknown one. */
export async function answerCall(
  request: Request,
  operations: Record<string, (args: never) => unknown>,
): Promise<Response> {
  const name = new URL(request.url).pathname.slice(1);
  const operation = Object.hasOwn(operations, name) ? operations[name] : undefined;
  if (!operation || request.method !== 'POST') return Response.json({ error: 'unknown operation' }, { status: 404 });
  const args = (await request.json()) as never;
  return Response.json({ value: (await operation(args)) ?? null });
}

/** Calls `operation` on the object `stub`; the answer's value (null for none), or an error for the caller to turn into 503. */
export async function callObject<T>(
  stub: DurableObjectStub,
  operation: string,
  args: Call & Record<string, unknown>,
): Promise<T> {
  const response = await stub.fetch(`https://tryon-store/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${operation}: HTTP ${response.status}`);
  }
  return ((await response.json()) as { value: T }).value;
}

/** JSON has no Infinity: an unlimited limit travels as null. */
export const limitToWire = (limit: number): number | null => (Number.isFinite(limit) ? limit : null);
export const limitFromWire = (limit: number | null): number => limit ?? Infinity;
