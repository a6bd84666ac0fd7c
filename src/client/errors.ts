// What a failed call throws: the service's problem document (RFC 9457) as a typed error, or the network failure.
import type { ProblemCode } from '../problems/catalog.ts';

/** A catalog code, or `http_<status>` when the answer carried no problem document (a proxy's error page). */
export type ErrorCode = ProblemCode | `http_${number}`;

/** The members of a problem document the client reads; the service may add others. */
export interface ProblemDocument {
  type?: string;
  title?: string;
  status?: number;
  code?: string;
  detail?: string;
  resolution?: string;
  documentation_url?: string;
  [member: string]: unknown;
}

/** A non-2xx answer. */
export class ThreadmarkError extends Error {
  override readonly name = 'ThreadmarkError';
  readonly code: ErrorCode;
  readonly status: number;
  /** What went wrong with this request (the problem's `detail`, else its title, else the first line of the body). */
  readonly detail: string;
  /** What to do about it, from the catalog. */
  readonly resolution: string | undefined;
  readonly title: string | undefined;
  readonly documentationUrl: string | undefined;
  /** Seconds to wait before trying again, from Retry-After (429 and 503). */
  readonly retryAfter: number | undefined;
  /** The whole problem document, when the body was one. */
  readonly problem: ProblemDocument | undefined;
  /** The raw body and headers, for callers that word the failure themselves. */
  readonly body: string;
  readonly headers: Headers;

  constructor(status: number, headers: Headers, body: string) {
    const problem = parseProblem(body);
    const detail = problem?.detail ?? problem?.title ?? firstLine(body) ?? `HTTP ${status}`;
    const code = (typeof problem?.code === 'string' ? problem.code : `http_${status}`) as ErrorCode;
    super(`${code}: ${detail}`);
    this.code = code;
    this.status = status;
    this.detail = detail;
    this.resolution = problem?.resolution;
    this.title = problem?.title;
    this.documentationUrl = problem?.documentation_url;
    this.retryAfter = retryAfterSeconds(headers.get('retry-after'));
    this.problem = problem;
    this.body = body;
    this.headers = headers;
  }
}

/** The service could not be reached (DNS, refused connection, TLS); `cause` is what fetch threw. */
export class ThreadmarkNetworkError extends Error {
  override readonly name = 'ThreadmarkNetworkError';
  readonly code = 'unreachable';
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`cannot reach ${url}`, { cause });
  }
}

/** The answer was 2xx but not what the read promises (not JSON, a paging loop). */
export class ThreadmarkProtocolError extends Error {
  override readonly name = 'ThreadmarkProtocolError';
  constructor(
    readonly code: 'unexpected_body' | 'paging_loop',
    message: string,
  ) {
    super(message);
  }
}

function parseProblem(body: string): ProblemDocument | undefined {
  try {
    const doc: unknown = JSON.parse(body);
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
    const p = doc as Record<string, unknown>;
    const str = (k: string) => (typeof p[k] === 'string' ? p[k] : undefined);
    return {
      ...p,
      type: str('type'),
      title: str('title'),
      status: typeof p.status === 'number' ? p.status : undefined,
      code: str('code'),
      detail: str('detail'),
      resolution: str('resolution'),
      documentation_url: str('documentation_url'),
    };
  } catch {
    return undefined;
  }
}

function firstLine(body: string): string | undefined {
  const title = /<title>([^<]*)<\/title>/i.exec(body)?.[1];
  if (title !== undefined) return title.trim() || undefined;
  const first = body.split('\n').find((l) => l.trim() !== '');
  return first?.replace(/^#+\s*/, '').trim() || undefined;
}

/** Retry-After as seconds: delta-seconds, or an HTTP date counted from now. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
