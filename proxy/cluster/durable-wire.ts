// What the Durable Object store's two sides share: the few Cloudflare types they use (declared
// here, so the proxy needs neither @cloudflare/workers-types nor the `cloudflare:workers` module,
// and proxy/worker.ts still loads on Node) and the wire between an isolate and an object: one
// POST per operation, its arguments and the caller's clock as JSON, the answer as `{ value }`.
// Plain fetch rather than RPC, because RPC needs the DurableObject base class of
// `cloudflare:workers`. Below every feature: each feature's Durable Object adapter is both sides of
// its part (the isolate's calls, the shop object's tables), and store/ puts the parts together.

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

/**
 * One operation on the shop object from an isolate, by its wire name, with its arguments; the
 * store adds its clock as `now` where the arguments give none, and turns a failure into 503.
 */
export type ShopCall = <T>(operation: string, args?: Record<string, unknown>) => Promise<T>;

/**
 * One feature's part of the shop object (store/durable-shop.ts): its tables, the operations it
 * answers by wire name, and the rows it drops when the object sweeps. Every operation is
 * synchronous SQL, so each is one step of the object's one event at a time.
 */
export interface ShopTables {
  /** CREATE statements, run whenever an object starts. */
  readonly schema: readonly string[];
  /** Brings tables an object made with an older schema up to date, after the schema ran. */
  migrate?(): void;
  readonly operations: Record<string, (args: never) => unknown>;
  /** Drops this part's rows no request can need any more (the object calls it at most once a minute). */
  sweep(now: number): void;
}

/** Whether `table` holds a row for `id` in `column` that lives past `now` (its `until`). */
export function liveRow(sql: SqlStorage, table: string, column: string, id: string, now: number): boolean {
  return (
    (firstRow(sql.exec<{ until: number }>(`SELECT until FROM ${table} WHERE ${column} = ?`, id))?.until ?? 0) > now
  );
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
