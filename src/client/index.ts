// threadmark/client: a typed client for the service's public reads. It uses only fetch, so the same module runs in
// Node 20+, Bun, Deno and browsers; nothing here may import a node: module.
import type { ReadName } from '../contract/reads.ts';
import { ThreadmarkProtocolError } from './errors.ts';
import { ExportStream } from './export-stream.ts';
import { Http, type ClientOptions, type Query, type RateLimitInfo, type SendOptions } from './http.ts';
import { Pager } from './paging.ts';
import { READS, type ReadEntry, type Reads } from './reads.ts';
import type { CallOptions, ItemOf, ParamsOf, ResultOf } from './types.ts';

export type { ClientOptions, Query, RateLimitInfo, RetryOptions, SendOptions } from './http.ts';
export { pathWithQuery } from './http.ts';
export {
  ThreadmarkError,
  ThreadmarkNetworkError,
  ThreadmarkProtocolError,
  type ErrorCode,
  type ProblemDocument,
} from './errors.ts';
export { Pager, type Page } from './paging.ts';
export { ExportStream, type ExportRecord } from './export-stream.ts';
export type { CallOptions, ExportEnd, ExportPost, ItemOf, Loose, ParamsOf, ResultOf } from './types.ts';
export { READS, type ReadEntry, type ReadKind } from './reads.ts';

type Rest<N extends ReadName, A extends string> = Omit<ParamsOf<N>, A>;

/** The method a line of READS makes. */
export type MethodOf<E> = E extends { op: infer N extends ReadName; arg: infer A extends string; kind: infer K }
  ? K extends 'one'
    ? (target: string | ParamsOf<N>, params?: Rest<N, A>, opts?: CallOptions) => Promise<ResultOf<N>>
    : K extends 'paged'
      ? E extends { items: infer I extends keyof ResultOf<N> }
        ? (target: string, params?: Rest<N, A>, opts?: CallOptions) => Pager<ItemOf<N, I>, ResultOf<N>>
        : never
      : K extends 'feed'
        ? (target: string, params?: Rest<N, A>, opts?: CallOptions) => Promise<string>
        : (target: string, params?: Rest<N, A>, opts?: CallOptions) => ExportStream
  : never;

export type ReadMethods = { [M in keyof Reads]: MethodOf<Reads[M]> };

export interface ClientCore {
  /** The service's base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** The rate-limit fields of the last answer (undefined when it carried none). */
  readonly rateLimit: RateLimitInfo | undefined;
  /** Any GET of the service: the answer after retries, whatever its status. */
  raw(path: string, opts?: SendOptions): Promise<Response>;
  /** Any GET of the service: a 2xx answer, or a ThreadmarkError. */
  request(path: string, opts?: SendOptions): Promise<Response>;
}

export type ThreadmarkClient = ReadMethods & ClientCore;

export function createClient(options: ClientOptions): ThreadmarkClient {
  const http = new Http(options);
  const core: ClientCore = {
    baseUrl: http.baseUrl,
    get rateLimit() {
      return http.rateLimit;
    },
    raw: (path, opts) => http.raw(path, opts),
    request: (path, opts) => http.ok(path, opts),
  };
  const methods = Object.fromEntries(
    Object.entries(READS).map(([name, entry]: [string, ReadEntry]) => [name, methodFor(http, entry)]),
  );
  return Object.assign(core, methods) as unknown as ThreadmarkClient;
}

type Params = Record<string, unknown>;

/** The path and query of one call: `target` fills the path parameter, or the query parameter, `arg` names. */
function locate(entry: ReadEntry, target: unknown, params: Params | undefined): { path: string; query: Query } {
  const own = typeof target === 'string' ? { [entry.arg]: target } : (target as Params | undefined);
  const all = { ...own, ...params } as Query;
  const slot = `{${entry.arg}}`;
  if (!entry.path.includes(slot)) return { path: entry.path, query: all };
  const { [entry.arg]: value, ...query } = all;
  return { path: entry.path.replace(slot, encodeURIComponent(String(value ?? ''))), query };
}

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ThreadmarkProtocolError(
      'unexpected_body',
      `expected JSON, got ${res.headers.get('content-type') ?? 'no type'}`,
    );
  }
}

function methodFor(http: Http, entry: ReadEntry): (target: unknown, params?: Params, opts?: CallOptions) => unknown {
  const getJson = (path: string, query: Query, opts?: CallOptions) =>
    http.ok(path, { query: { ...query, format: 'json' }, accept: 'application/json', signal: opts?.signal }).then(json);
  switch (entry.kind) {
    case 'one':
      return (target, params, opts) => {
        const { path, query } = locate(entry, target, params);
        return getJson(path, query, opts);
      };
    case 'paged':
      return (target, params, opts) => {
        const { path, query } = locate(entry, target, params);
        const { cursor, ...rest } = query;
        const start = cursor === undefined || cursor === null ? undefined : String(cursor);
        return new Pager<unknown, Params>(
          (c) => getJson(path, { ...rest, cursor: c }, opts) as Promise<Params>,
          (body) => (Array.isArray(body[entry.items!]) ? (body[entry.items!] as unknown[]) : []),
          start,
        );
      };
    case 'feed':
      return async (target, params, opts) => {
        const { path, query } = locate(entry, target, params);
        const res = await http.ok(path, { query, signal: opts?.signal });
        return res.text();
      };
    case 'export':
      return (target, params, opts) => {
        const { path, query } = locate(entry, target, params);
        return new ExportStream(() =>
          http.ok(path, {
            query: { ...query, format: 'ndjson' },
            accept: 'application/x-ndjson',
            signal: opts?.signal,
          }),
        );
      };
  }
}
