// A small SSE reader for tests: collects `event: status` payloads until the server closes.
export interface SseEvent {
  event: string;
  data: string;
}

export async function readEvents(
  url: string,
  onEvent?: (event: SseEvent) => void,
  signal?: AbortSignal,
): Promise<SseEvent[]> {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal });
  if (response.status !== 200) throw new Error(`SSE ${response.status}: ${await response.text()}`);
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) throw new Error('not an event stream');
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = response.body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
        }
        if (data.length === 0) continue;
        const parsed = { event, data: data.join('\n') };
        events.push(parsed);
        onEvent?.(parsed);
      }
    }
  } catch (error) {
    if (!signal?.aborted) throw error;
  }
  return events;
}
