// Try-on statuses (status-store.ts) in Durable Objects, both sides of the wire: the isolate's side
// (DurableTryonStatuses: one call per operation to the try-on's own object, and a stream from it
// while someone here watches) and the object itself (TryonObject).
//
// TryonObject is the Durable Object of one try-on (named by its upstream job id, binding
// TRYON_TRYONS): its status record, which never goes backwards (mergeStatus, as in memory and
// Redis), the right to poll it upstream, and the fan-out of its snapshots. An object runs one event at a time and each
// operation does its SQL without awaiting in between, so every operation is atomic across all
// isolates, as a Lua script is on Redis. Storage: one row, in the object's own SQLite; an alarm
// deletes it when the try-on handle has expired.
//
// Fan-out: an isolate where someone watches the try-on over SSE holds one streaming request to
// the object per watcher (DurableTryonStatuses.follow). The object answers it with the record it has at
// once (so a change made before the stream opened is not missed), then with every snapshot that
// another isolate writes. So a webhook delivered to any isolate wakes the SSE listeners of all.
//
// Polling stays with the isolates' status board, on read and while someone watches (the object
// grants the right to poll to one caller per interval, exactly): the board already knows how to
// read a job, its children and its outputs, and polling from an alarm would repeat that here.
//
// Followers are capped (the isolate sends its streamsPerTryon): past it the object answers 429
// and the watcher is served by its isolate's polling alone, so no crowd of watchers, spread over
// isolates that each stay under their own cap, can make one object hold unbounded streams.
import { DEFAULT_LIMITS } from '../limits/limits.js';
import type { Log } from '../operator/log.js';
import type { TryonSnapshot } from './snapshot.js';
import { mergeStatus, type StatusRecord, type StatusWrite, type TryonStatusStore } from './status-store.js';
import {
  answerCall,
  firstRow,
  type Call,
  type DurableObjectNamespace,
  type DurableObjectStub,
  type DurableObjectState,
  type SqlStorage,
} from '../cluster/durable-wire.js';

export interface DurableTryonStatusOptions {
  log?: Log | undefined;
  /** How long a follower waits before asking its try-on's object again after the stream ended. */
  refollowMs?: number | undefined;
  /** Streams one try-on's object holds for all isolates together (limits.streamsPerTryon; 0: no cap). */
  followersPerTryon?: number | undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The isolate's side: each operation one request to the try-on's object, run by the store (503 when it fails). */
export class DurableTryonStatuses implements TryonStatusStore {
  /** Tells this isolate's own writes from the others' in a try-on's stream. */
  private readonly instance = crypto.randomUUID();
  private readonly listeners = new Set<(jobId: string, snapshot: TryonSnapshot) => void>();

  constructor(
    private readonly tryons: DurableObjectNamespace,
    /**
     * One operation on an object, run by the store: the object named inside (where the namespace is
     * a binding over a connection, naming one can fail like any call), the store's clock added, and
     * any failure the shopper's 503 store_unavailable.
     */
    private readonly call: <T>(
      object: () => DurableObjectStub,
      operation: string,
      args?: Record<string, unknown>,
    ) => Promise<T>,
    private readonly options: DurableTryonStatusOptions = {},
  ) {}

  // A stub per call: stubs are cheap, and one made for an earlier request is not used in a later one.
  private tryonObject(jobId: string): DurableObjectStub {
    return this.tryons.get(this.tryons.idFromName(jobId));
  }

  async readStatus(jobId: string): Promise<StatusRecord | undefined> {
    return (await this.call<StatusRecord | null>(() => this.tryonObject(jobId), 'read')) ?? undefined;
  }

  /** Writes, and in the same step tells the other isolates' followers when the snapshot won. */
  async writeStatus(jobId: string, record: StatusRecord, ttlMs: number): Promise<StatusWrite> {
    return this.call<StatusWrite>(() => this.tryonObject(jobId), 'write', { record, ttlMs, from: this.instance });
  }

  async seedStatus(jobId: string, record: StatusRecord, ttlMs: number): Promise<void> {
    await this.call(() => this.tryonObject(jobId), 'seed', { record, ttlMs });
  }

  async claimPoll(jobId: string, ms: number): Promise<boolean> {
    return this.call<boolean>(() => this.tryonObject(jobId), 'claimPoll', { ms, holder: this.instance });
  }

  async releasePoll(jobId: string): Promise<void> {
    await this.call(() => this.tryonObject(jobId), 'releasePoll', { holder: this.instance });
  }

  /** writeStatus told the followers already: the object fans out in the same step as it stores. */
  async publish(): Promise<void> {}

  onPublished(listener: (jobId: string, snapshot: TryonSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Holds a stream from the try-on's object until the returned function is called, handing each
   * record it sends to onPublished's listeners. A stream that ends early (the object restarted)
   * is opened again; the board's own reads cover the moments between.
   */
  follow(jobId: string): () => void {
    let stopped = false;
    let reader: ReadableStreamDefaultReader<string> | undefined;
    void (async () => {
      while (!stopped) {
        try {
          const response = await this.tryonObject(jobId).fetch(
            `https://tryon-store/follow?isolate=${this.instance}&max=${this.options.followersPerTryon ?? DEFAULT_LIMITS.streamsPerTryon}`,
          );
          if (response.status === 429) {
            // The object holds its cap of followers: this watcher hears changes by its isolate's polling only.
            void response.body?.cancel();
            this.options.log?.({ level: 'warn', event: 'store_follow_refused', reason: 'too_many_streams' });
            break;
          }
          if (!response.ok || !response.body) throw new Error(`follow: HTTP ${response.status}`);
          reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          if (stopped) break;
          let rest = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            const lines = (rest + value).split('\n');
            rest = lines.pop() ?? '';
            for (const line of lines) this.hand(jobId, (JSON.parse(line) as StatusRecord).snapshot);
          }
        } catch (error) {
          if (!stopped)
            this.options.log?.({ level: 'warn', event: 'store_follow_ended', message: (error as Error).message });
        }
        if (!stopped) await sleep(this.options.refollowMs ?? 1_000);
      }
      void reader?.cancel().catch(() => undefined);
    })();
    return () => {
      stopped = true;
      void reader?.cancel().catch(() => undefined);
    };
  }

  private hand(jobId: string, snapshot: TryonSnapshot): void {
    for (const listener of this.listeners) listener(jobId, snapshot);
  }
}

interface Follower {
  from: string;
  writer: WritableStreamDefaultWriter<Uint8Array>;
}

const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS status (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL, expires_at INTEGER NOT NULL)',
  'CREATE TABLE IF NOT EXISTS poll (id INTEGER PRIMARY KEY CHECK (id = 1), until INTEGER NOT NULL, holder TEXT NOT NULL)',
];

const encoder = new TextEncoder();

export class TryonObject {
  private readonly followers = new Set<Follower>();
  private tables = false;

  constructor(private readonly state: DurableObjectState) {}

  /** The object's SQL, its tables made first (again after the alarm deleted everything). */
  private get sql(): SqlStorage {
    if (!this.tables) {
      for (const statement of SCHEMA) this.state.storage.sql.exec(statement);
      this.tables = true;
    }
    return this.state.storage.sql;
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/follow')
      return this.follow(url.searchParams.get('isolate') ?? '', Number(url.searchParams.get('max') ?? 0));
    return answerCall(request, {
      read: ({ now }: Call) => this.read(now),
      write: (args: Call & { record: StatusRecord; ttlMs: number; from: string }) => this.write(args),
      seed: (args: Call & { record: StatusRecord; ttlMs: number }) => this.seed(args),
      claimPoll: ({ now, ms, holder }: Call & { ms: number; holder: string }) => this.claimPoll(now, ms, holder),
      releasePoll: ({ holder }: Call & { holder: string }) => {
        this.sql.exec('DELETE FROM poll WHERE holder = ?', holder);
      },
    });
  }

  /** The handle's life is over: forget the try-on and end its streams. */
  async alarm(): Promise<void> {
    const row = firstRow(this.sql.exec<{ expires_at: number }>('SELECT expires_at FROM status'));
    if (row && row.expires_at > Date.now()) {
      await this.state.storage.setAlarm(row.expires_at);
      return;
    }
    for (const follower of this.followers) void follower.writer.close().catch(() => undefined);
    this.followers.clear();
    // Tables and all: an object with nothing stored costs nothing.
    this.tables = false;
    await this.state.storage.deleteAll();
  }

  private read(now: number): StatusRecord | undefined {
    const row = firstRow(
      this.sql.exec<{ record: string; expires_at: number }>('SELECT record, expires_at FROM status'),
    );
    return row && row.expires_at > now ? (JSON.parse(row.record) as StatusRecord) : undefined;
  }

  private async write({
    now,
    record,
    ttlMs,
    from,
  }: Call & { record: StatusRecord; ttlMs: number; from: string }): Promise<StatusWrite> {
    const written = mergeStatus(this.read(now), record);
    const saved = this.save(written.record, now + ttlMs);
    // The snapshot written won: it is news for the other isolates.
    if (written.record.snapshot === record.snapshot) this.tell(written.record, from);
    await saved;
    return written;
  }

  private async seed({ now, record, ttlMs }: Call & { record: StatusRecord; ttlMs: number }): Promise<void> {
    if (!this.read(now)) await this.save(record, now + ttlMs);
  }

  /** Saves at once; the promise is the alarm's. */
  private save(record: StatusRecord, expiresAt: number): Promise<void> {
    this.sql.exec(
      'INSERT OR REPLACE INTO status (id, record, expires_at) VALUES (1, ?, ?)',
      JSON.stringify(record),
      expiresAt,
    );
    return this.state.storage.setAlarm(expiresAt);
  }

  private claimPoll(now: number, ms: number, holder: string): boolean {
    const held = firstRow(this.sql.exec<{ until: number }>('SELECT until FROM poll'));
    if (held && held.until > now) return false;
    this.sql.exec('INSERT OR REPLACE INTO poll (id, until, holder) VALUES (1, ?, ?)', now + ms, holder);
    return true;
  }

  /**
   * A stream of this try-on's records, one JSON line each: the current one at once, then each one
   * another isolate writes; 429 when `max` (0: none) followers hold one already.
   */
  private follow(from: string, max: number): Response {
    if (max > 0 && this.followers.size >= max) {
      return Response.json(
        { error: { code: 'too_many_streams', message: `This try-on has ${max} followers already.`, retryable: true } },
        { status: 429 },
      );
    }
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const follower: Follower = { from, writer: writable.getWriter() };
    this.followers.add(follower);
    void follower.writer.closed.catch(() => undefined).finally(() => this.followers.delete(follower));
    const current = this.read(Date.now());
    if (current) this.send(follower, current);
    return new Response(readable, { headers: { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' } });
  }

  /** Tells every follower but the writer's own isolate (which delivers its snapshot itself). */
  private tell(record: StatusRecord, from: string): void {
    for (const follower of this.followers) if (follower.from !== from) this.send(follower, record);
  }

  private send(follower: Follower, record: StatusRecord): void {
    // Not awaited: a slow reader must not hold up the writer; a gone one is dropped.
    follower.writer.write(encoder.encode(`${JSON.stringify(record)}\n`)).catch(() => this.followers.delete(follower));
  }
}
