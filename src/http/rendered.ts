// What a route answers with, before Fastify sends it. A leaf module: presenters and the services type read it
// without reaching the route kernel.
export interface Rendered {
  status?: number;
  body: string;
  /** `body` already encoded as UTF-8 (memoised renders): sent instead of it, so a hit skips the encoding. */
  bytes?: Buffer;
  contentType: string;
  headers: Record<string, string>;
  /** Sent instead of `body` as it is produced (an export): the status and headers go out first. */
  stream?: NodeJS.ReadableStream;
}
