/**
 * A Server-Sent Events parser (the `text/event-stream` format of the HTML standard, §9.2.6
 * "Interpreting an event stream"), fed decoded text in chunks split anywhere: lines end in LF,
 * CRLF or CR (a CR at the end of one chunk and the LF at the start of the next are one line end),
 * `:` lines are comments, `data:` lines of one message are joined with `\n`, `id:` persists to
 * later messages, a message is dispatched at a blank line and a message without data is not.
 */

/** One dispatched message. `id` is the last event id in force when it was dispatched (null: none yet). */
export type SseMessage = { event: string; data: string; id: string | null };

export type SseParser = {
  /**
   * Feeds the next chunk of text.
   * @returns the messages it completed, in order, the comments it read, and how many lines
   *   completed (a comment included), so a caller can tell a live connection from a silent one.
   */
  push(chunk: string): { messages: SseMessage[]; comments: string[]; lines: number };
  /** The `retry:` reconnection time the stream last asked for, in ms (null: none). */
  readonly retryMs: number | null;
};

/** A parser for one connection; the last event id may be carried over from an earlier one. */
export function createSseParser({ lastEventId = null }: { lastEventId?: string | null } = {}): SseParser {
  let buffer = '';
  let skipLf = false; // the previous chunk ended in CR: a leading LF belongs to that line end
  let first = true; // a leading BOM of the stream is dropped
  let data: string[] = [];
  let event = '';
  let id = lastEventId;
  let retryMs: number | null = null;

  const line = (text: string, messages: SseMessage[], comments: string[]) => {
    if (text === '') {
      // Blank line: dispatch. A message with no data line is dropped (its id still counts).
      if (data.length) messages.push({ event: event || 'message', data: data.join('\n'), id });
      data = [];
      event = '';
      return;
    }
    if (text.startsWith(':')) {
      comments.push(text.slice(1).replace(/^ /, ''));
      return;
    }
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') {
      if (!value.includes('\0')) id = value;
    } else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
    // Any other field is ignored, as the standard says.
  };

  return {
    push(chunk) {
      const messages: SseMessage[] = [];
      const comments: string[] = [];
      let lines = 0;
      let text = chunk;
      if (first && text.length) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (skipLf && text.startsWith('\n')) text = text.slice(1);
      if (text.length) skipLf = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        line(buffer.slice(start, i), messages, comments);
        lines++;
        if (c === 13) {
          if (i + 1 === buffer.length) skipLf = true;
          else if (buffer.charCodeAt(i + 1) === 10) i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
      return { messages, comments, lines };
    },
    get retryMs() {
      return retryMs;
    },
  };
}
