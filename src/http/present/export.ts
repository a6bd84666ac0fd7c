// An export on the wire: NDJSON written as the walk reads it (one post per line, then the end line), or one JSON
// document once the walk is over. Either way the status and headers are decided by the first post (or the end).
import { Readable } from 'node:stream';
import type { ExportEnd, ExportStop } from '../../domain/export.ts';
import type { WindowInput } from '../../domain/lists.ts';
import type { Post } from '../../domain/models.ts';
import type { Rendered } from '../../contract/rendered.ts';

export const NDJSON_TYPE = 'application/x-ndjson';
const NDJSON_CONTENT = `${NDJSON_TYPE}; charset=utf-8`;
const JSON_TYPE = 'application/json; charset=utf-8';

export interface ExportEndLine {
  type: 'end';
  reason: ExportStop;
  posts: number;
  cursor?: string;
  problem?: Record<string, unknown>;
  warnings?: string[];
}

type Walk = AsyncGenerator<Post, ExportEnd, void>;

export interface ExportReply {
  walk: Walk;
  /** What the walk gave first: the first post, or already its end. */
  first: IteratorResult<Post, ExportEnd>;
  /** The problem document of what cut the export short. */
  problemOf: (error: unknown) => Record<string, unknown>;
  headers: Record<string, string>;
}

export function endLine(end: ExportEnd, problemOf: (error: unknown) => Record<string, unknown>): ExportEndLine {
  return {
    type: 'end',
    reason: end.reason,
    posts: end.posts,
    ...(end.cursor ? { cursor: end.cursor } : {}),
    ...(end.error !== undefined ? { problem: problemOf(end.error) } : {}),
    ...(end.warnings.length > 0 ? { warnings: end.warnings } : {}),
  };
}

/**
 * A HEAD's answer: the media type and headers of the GET, no body. Sent as an empty stream, so no entity tag or
 * length is made up for a body that was never produced.
 */
export function presentExportHead(format: 'ndjson' | 'json' | 'zip', headers: Record<string, string>): Rendered {
  return {
    body: '',
    stream: Readable.from([]),
    contentType: format === 'json' ? JSON_TYPE : format === 'zip' ? 'application/zip' : NDJSON_CONTENT,
    headers,
  };
}

/** One line per post as it arrives, then the end line; closing the response stops the walk. */
export function presentNdjson(r: ExportReply): Rendered {
  async function* lines(): AsyncGenerator<string> {
    let step = r.first;
    while (!step.done) {
      yield `${JSON.stringify(step.value)}\n`;
      step = await r.walk.next();
    }
    yield `${JSON.stringify(endLine(step.value, r.problemOf))}\n`;
  }
  // The walk is pulled line by line: once Fastify destroys the stream (the client went away), nothing asks for
  // another post, so no further page is read.
  const stream = Readable.from(lines(), { objectMode: false });
  return { body: '', stream, contentType: NDJSON_CONTENT, headers: r.headers };
}

/** The whole export as one document: a failure after the first post still answers 200, with the posts read. */
export async function presentExportJson(
  r: ExportReply,
  about: { handle: string; window?: WindowInput; includes: { replies: boolean; reposts: boolean } },
): Promise<Rendered> {
  const posts: Post[] = [];
  let step = r.first;
  while (!step.done) {
    posts.push(step.value);
    step = await r.walk.next();
  }
  const body = JSON.stringify({
    handle: about.handle,
    ...(about.window ? { window: about.window.iso } : {}),
    includes: about.includes,
    posts,
    end: endLine(step.value, r.problemOf),
  });
  return { body, contentType: JSON_TYPE, headers: r.headers };
}
