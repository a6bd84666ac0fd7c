// Transport to the FxTwitter API: one GET with the shared upstream policy, and the reading of its answers into
// provider failures (FxTwitter says "private", "suspended" and "missing" in its own ways).
import { fetchUpstream, parseJson, retryAfterSeconds, type UpstreamPolicy } from '../http.ts';
import { ProviderError, type CallOptions, type PageRequest } from '../types.ts';
import { isTombstone } from './parse.ts';

export interface FxTwitterOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Retries and body limit; without one each read is tried once. */
  policy?: UpstreamPolicy;
  name?: string;
  /** Clock used to decide whether polls have ended. */
  now?: () => number;
}

export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

export class FxTwitterClient {
  readonly name: string;
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly policy: UpstreamPolicy | undefined;

  constructor(opts: FxTwitterOptions) {
    this.name = opts.name ?? 'fxtwitter';
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs;
    this.policy = opts.policy;
  }

  async get(path: string, call: CallOptions): Promise<Answer> {
    const charged = call.beforeRequest?.();
    if (charged) await charged;
    const res = await fetchUpstream(this.name, this.base + path, {
      signal: call.signal,
      deadline: call.deadline,
      timeoutMs: this.timeoutMs,
      policy: this.policy,
    });
    const ok = res.status >= 200 && res.status < 300;
    if (res.text.trim() === '') return { status: res.status, body: undefined, headers: res.headers };
    if (!ok) {
      // Error pages are often HTML; their status code is what matters.
      try {
        return { status: res.status, body: JSON.parse(res.text), headers: res.headers };
      } catch {
        return { status: res.status, body: undefined, headers: res.headers };
      }
    }
    return { status: res.status, body: parseJson(this.name, res.text), headers: res.headers };
  }

  failOnTombstone(t: unknown): void {
    if (!isTombstone(t)) return;
    const gone = t.reason === 'deleted' || t.reason === 'suspended' || t.reason === 'private';
    throw new ProviderError(
      this.name,
      gone ? 'not_found' : 'empty',
      `${this.name}: post ${t.reason}${t.message ? ` (${t.message})` : ''}`,
    );
  }

  /** A suspended account's profile is a definitive answer: FxTwitter names the reason. */
  failOnSuspended(a: Answer): void {
    const reason = (a.body as { reason?: unknown } | undefined)?.reason;
    if (a.status === 404 && reason === 'suspended') {
      throw new ProviderError(this.name, 'not_found', `${this.name}: account suspended`, { status: 404 });
    }
  }

  /**
   * HTTP status (or the body `code` that mirrors it) to failure kind. 401 is FxTwitter's "private post"
   * answer and definitive. A bare 404 (no tombstone) is not: FxTwitter gives it as well when its own upstream
   * call failed or X limited it, so it is `unconfirmed` (another provider may confirm it); on search, where it
   * also means "no results", it is `empty`.
   */
  failOnStatus(a: Answer, what: string, on404: 'unconfirmed' | 'empty' = 'unconfirmed'): void {
    const code =
      typeof (a.body as { code?: unknown })?.code === 'number' ? (a.body as { code: number }).code : a.status;
    const status = a.status >= 200 && a.status < 300 ? code : a.status;
    if (status >= 200 && status < 300) return;
    if (status === 401) {
      throw new ProviderError(this.name, 'not_found', `${this.name}: ${what} not public (HTTP 401)`, { status });
    }
    if (status === 404) {
      const said =
        on404 === 'unconfirmed'
          ? 'reports it missing (HTTP 404), which it also answers when its own upstream fails'
          : 'not available (HTTP 404)';
      throw new ProviderError(this.name, on404, `${this.name}: ${what} ${said}`, { status });
    }
    throw new ProviderError(this.name, 'error', `${this.name}: ${what} request failed with HTTP ${status}`, {
      status,
      retryAfterS: retryAfterSeconds(a.headers),
    });
  }

  listBody<T extends { results: unknown[] }>(a: Answer, what: string): T {
    const body = a.body as Partial<T> | undefined;
    if (!body || !Array.isArray(body.results)) {
      throw new ProviderError(this.name, 'error', `${this.name}: ${what} answer has no results list`, {
        status: a.status,
      });
    }
    return body as T;
  }
}

/** The query of a list route: FxTwitter takes 1-100 items per page and its own cursor. */
export function pageQuery(req: PageRequest, extra: Record<string, string>): string {
  const p = new URLSearchParams(extra);
  p.set('count', String(Math.min(100, Math.max(1, Math.floor(req.count) || 20))));
  if (req.cursor) p.set('cursor', req.cursor);
  return p.toString();
}
