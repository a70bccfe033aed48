// Reading request bodies without ever holding more than a limit in memory, and joining streams
// so an upload is never buffered whole. Every route that reads a body goes through here.
import { ProxyError } from './errors.js';

/**
 * Refuses a body whose declared Content-Length is already over the limit, before reading a byte.
 * A body that lies about its length is still stopped by the bounded read.
 */
export function refuseDeclaredLength(headers: Headers, maxBytes: number, refusal: () => ProxyError): void {
  const declared = Number(headers.get('content-length') ?? undefined);
  if (Number.isFinite(declared) && declared > maxBytes) throw refusal();
}

/**
 * Reads and drops what is left of a refused upload (up to `budget` bytes), so the client sees
 * our error answer instead of a reset connection; beyond the budget the connection is dropped.
 */
export async function drainBody(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<void> {
  let read = 0;
  try {
    while (read <= budget) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.length;
    }
    await reader.cancel();
  } catch {
    // The client went away; nothing to answer.
  }
}

/** How much of a refused upload is read beyond its own limit before the connection is dropped instead. */
export const DRAIN_SLACK_BYTES = 1024 * 1024;

/** The drain budget of an upload limited to `limitBytes`: the one rule every refusing path uses. */
export const drainBudgetFor = (limitBytes: number): number => limitBytes + DRAIN_SLACK_BYTES;

/**
 * Drains a refused body that nobody reads yet. A locked body already has a reader, and the one
 * holding it drains it (photos/upload.ts), so it is left alone here.
 */
export async function drainUnread(body: ReadableStream<Uint8Array> | null | undefined, budget: number): Promise<void> {
  if (body && !body.locked) await drainBody(body.getReader(), budget);
}

/**
 * Reads a stream whole, never holding more than `maxBytes` of it: past that, `overflow` deals with
 * the rest (a client's body is drained so it sees the answer, a fetch is cancelled) and its error
 * is thrown.
 */
export async function readAtMost(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
  overflow: () => Promise<Error>,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) throw await overflow();
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return all;
}

/** Reads a small body as text, refusing (413) as soon as it passes `maxBytes` — never more in memory. */
export async function readBoundedText(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  refusal = () => new ProxyError(413, 'invalid_request', 'The request is too large.'),
): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const bytes = await readAtMost(reader, maxBytes, async () => {
    // Read on (bounded) so the client sees the answer rather than a reset connection.
    await drainBody(reader, DRAIN_SLACK_BYTES);
    return refusal();
  });
  return new TextDecoder().decode(bytes);
}

/** A request's body as text, refused (413) past `maxBytes` whether declared or actually sent. */
export async function readRequestText(request: Request, maxBytes: number, refusal?: () => ProxyError): Promise<string> {
  const refuse = refusal ?? (() => new ProxyError(413, 'invalid_request', 'The request is too large.'));
  refuseDeclaredLength(request.headers, maxBytes, refuse);
  return readBoundedText(request.body, maxBytes, refuse);
}

/** A request's body as bytes, exactly as sent (what a signature over the raw body is checked on), refused (413) past `maxBytes`. */
export async function readRequestBytes(
  request: Request,
  maxBytes: number,
  refusal: () => ProxyError,
): Promise<Uint8Array> {
  refuseDeclaredLength(request.headers, maxBytes, refusal);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  return readAtMost(reader, maxBytes, async () => {
    await drainBody(reader, DRAIN_SLACK_BYTES);
    return refusal();
  });
}

/**
 * No read-ahead for an upload's stages: a stream pulls its source only when its own reader asks.
 * With the default high-water mark of one chunk, each stage between the shopper's socket and
 * upstream's keeps a 64 KB chunk queued while upstream is slow to read, so an upload's memory
 * would grow with every stage it passes (docs/performance.md says how much). Only pull-based
 * streams may use it: a TransformStream whose writable side has a mark
 * of 0 never lets `pipeThrough` write a chunk (the pipe waits for a desired size above 0: it hangs).
 */
export const NO_READ_AHEAD: QueuingStrategy<Uint8Array> = { highWaterMark: 0 };

/** One stream out of byte arrays and streams, read in order, so an upload is never buffered whole. */
export function concatStreams(parts: (Uint8Array | ReadableStream<Uint8Array>)[]): ReadableStream<Uint8Array> {
  let index = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          if (reader) {
            const { done, value } = await reader.read();
            if (!done) {
              controller.enqueue(value);
              return;
            }
            reader = undefined;
          }
          const part = parts[index++];
          if (part === undefined) {
            controller.close();
            return;
          }
          if (part instanceof Uint8Array) {
            controller.enqueue(part);
            return;
          }
          reader = part.getReader();
        }
      },
      async cancel(reason) {
        await reader?.cancel(reason);
        for (const part of parts.slice(index)) if (!(part instanceof Uint8Array)) await part.cancel(reason);
      },
    },
    NO_READ_AHEAD,
  );
}

/**
 * Passes every chunk through, calling `onChunk` first (an idle timer's re-arm, a byte count),
 * `onEnd` once the body ended whole, and `onCancel` when its reader gave up on it first. Pulled,
 * not piped, so that it reads no chunk ahead (above).
 */
export function observeChunks(
  body: ReadableStream<Uint8Array>,
  onChunk: (chunk: Uint8Array) => void,
  onEnd?: () => void,
  onCancel?: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          onEnd?.();
          controller.close();
          return;
        }
        onChunk(value);
        controller.enqueue(value);
      },
      cancel(reason) {
        onCancel?.();
        return reader.cancel(reason);
      },
    },
    NO_READ_AHEAD,
  );
}
