// An NDJSON export read as it arrives: the posts as an async iterator, then the end record (why it stopped and the
// cursor that continues it).
import { ThreadmarkProtocolError } from './errors.ts';
import type { ExportEnd, ExportPost } from './types.ts';

/** One line of the export, as sent and as parsed. */
export type ExportRecord =
  { kind: 'post'; post: ExportPost; line: string } | { kind: 'end'; end: ExportEnd; line: string };

export class ExportStream implements AsyncIterable<ExportPost> {
  /** The end record, once iteration has reached it; undefined while reading, or if the stream was cut short. */
  end: ExportEnd | undefined;
  private opened: Promise<ReadableStream<Uint8Array> | null> | undefined;
  private consumed = false;

  constructor(private readonly send: () => Promise<Response>) {}

  /** Sends the request (once) and waits for the answer's status: a refused export throws here. */
  async open(): Promise<void> {
    this.opened ??= this.send().then((res) => res.body);
    await this.opened;
  }

  /** Every line in order, the end record last. */
  async *records(): AsyncGenerator<ExportRecord> {
    if (this.consumed) throw new TypeError('an export stream can be read once');
    this.consumed = true;
    await this.open();
    const body = await this.opened!;
    if (!body) return;
    for await (const line of lines(body)) {
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new ThreadmarkProtocolError('unexpected_body', 'an export line is not JSON');
      }
      if (isEnd(value)) {
        this.end = value;
        yield { kind: 'end', end: value, line };
        return;
      }
      yield { kind: 'post', post: value as ExportPost, line };
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ExportPost> {
    for await (const r of this.records()) if (r.kind === 'post') yield r.post;
  }
}

function isEnd(v: unknown): v is ExportEnd {
  return typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'end';
}

/** Complete lines of a body as they arrive; a last line without its newline is still handed out. */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let rest = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
      let at: number;
      while ((at = rest.indexOf('\n')) >= 0) {
        yield rest.slice(0, at);
        rest = rest.slice(at + 1);
      }
    }
    rest += decoder.decode();
    if (rest) yield rest;
  } finally {
    // A reader that stops early (break) releases the connection.
    await reader.cancel().catch(() => undefined);
  }
}
