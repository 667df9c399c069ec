/**
 * An incremental reader of `text/event-stream` (the WHATWG Server-Sent Events format), for
 * streams read with fetch: EventSource cannot send the bearer header the API asks for.
 */

/** One dispatched message: `event` is "message" unless the stream named it. */
export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

/** What a chunk of the stream yields: its messages, and a `retry:` the server asked for. */
export interface SseChunk {
  messages: SseMessage[];
  retryMs: number | undefined;
}

/**
 * Feeds text as it arrives and answers the messages it completes. Lines may end in CR, LF or
 * CRLF, and a chunk may stop anywhere, even between the CR and the LF of one line break.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;
  /** The last chunk ended in CR: an LF at the start of the next belongs to that line break. */
  private pendingCr = false;

  push(text: string): SseChunk {
    let input = text;
    if (this.pendingCr && input.startsWith('\n')) input = input.slice(1);
    this.pendingCr = input.endsWith('\r');
    this.buffer += input;
    const lines = this.buffer.split(/\r\n|\r|\n/);
    // The last piece has no line break yet.
    this.buffer = lines.pop() ?? '';
    const chunk: SseChunk = { messages: [], retryMs: undefined };
    for (const line of lines) this.line(line, chunk);
    return chunk;
  }

  private line(line: string, chunk: SseChunk): void {
    if (line === '') {
      if (this.data.length > 0) {
        chunk.messages.push({
          id: this.id,
          event: this.event || 'message',
          data: this.data.join('\n'),
        });
      }
      this.data = [];
      this.event = '';
      return;
    }
    // A comment (the server's heartbeat).
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) chunk.retryMs = Number(value);
  }
}
