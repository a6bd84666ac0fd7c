import { CATALOG, isCatalogCode, providerCodeEntry, type CatalogEntry, type ProblemCode } from './catalog.ts';

/**
 * A problem document before it is written: made at the edge only (src/http/: the guards, the routes, the failure
 * mapper http/failures/problem-of.ts, which turns every typed failure of the layers below into one); only the
 * problem reply (http/failures/problem-reply.ts) writes it.
 * `code` is a catalog code or a provider code (`<provider>_error|_empty|_network`, `all_providers_failed`).
 */
export class Problem extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly title: string;
  readonly resolution: string;
  readonly detail: string;
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;

  constructor(
    code: ProblemCode,
    detail?: string,
    opts: {
      headers?: Record<string, string>;
      extensions?: Record<string, unknown>;
      search?: boolean;
      status?: number;
      /** What to do next, when the catalog's words are about another case of the same code (an X List's 404). */
      resolution?: string;
    } = {},
  ) {
    const entry: CatalogEntry =
      (isCatalogCode(code) ? CATALOG[code] : providerCodeEntry(code, !!opts.search)) ?? CATALOG.internal_error;
    super(detail ?? entry.title);
    this.name = 'Problem';
    this.code = code;
    this.status = opts.status ?? entry.status;
    this.title = entry.title;
    this.resolution = opts.resolution ?? entry.resolution;
    this.detail = detail ?? entry.title;
    this.headers = opts.headers ?? {};
    this.extensions = opts.extensions ?? {};
  }
}

export function isProblem(e: unknown): e is Problem {
  return e instanceof Problem;
}

/** The same problem with more extension members. */
export function withExtensions(p: Problem, extensions: Record<string, unknown>): Problem {
  return new Problem(p.code, p.detail, {
    headers: p.headers,
    extensions: { ...p.extensions, ...extensions },
    status: p.status,
    resolution: p.resolution,
  });
}
