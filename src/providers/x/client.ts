// Transport to X's web GraphQL API with logged-in cookie sessions. Picks a session per call, reads the
// rate-limit headers, and moves on to the next session when one is rate limited, locked or logged out,
// so one bad account costs one extra request, not a failed read.
import type { Deadline } from '../deadline.ts';
import { fetchUpstream, parseJson, type UpstreamPolicy } from '../http.ts';
import { AllowanceRefused } from '../../domain/failures.ts';
import { ProviderError } from '../types.ts';
import { CONFIRMATION_SHARE, Confirmations } from './confirmations.ts';
import { graphqlUrl, type OperationName } from './operations.ts';
import { OperationTable } from './operation-table.ts';
import { OperationStats } from './operation-stats.ts';
import { transactionId } from './transaction-id.ts';
import type { XWebApp } from './web-app.ts';
import type { DeadState, SessionPool, XSession } from './sessions.ts';
import type { XEnvelope, XGraphqlError } from './wire.ts';

export const PROVIDER = 'x';

/**
 * The public bearer token of X's own web app (the same constant in twscrape `account.py`, Nitter
 * `consts.nim` and FxEmbed `constants.ts`); it identifies the web client, not an account.
 */
export const WEB_BEARER =
  'AAAAAAAAAAAAAAAAAAAAANRILgAAAAAAnNwIzUejRCOuH5E6I8xnZz4puTs%3D1Zv7ttfk8LF81IUq16cHjhLTvJu4FA33AGWWjCpTnA';

const USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36';

/** GraphQL error codes that mean the account itself is unusable (Nitter/twscrape treat them alike). */
const DEAD_CODES: ReadonlyMap<number, { reason: string; state: DeadState }> = new Map([
  [32, { reason: 'could not authenticate', state: 'logged_out' }],
  [64, { reason: 'account suspended', state: 'suspended' }],
  [89, { reason: 'expired token', state: 'logged_out' }],
  [239, { reason: 'bad token', state: 'logged_out' }],
  [326, { reason: 'account locked', state: 'locked' }],
  [353, { reason: 'csrf token mismatch', state: 'logged_out' }],
]);
const RATE_LIMITED = 88;

export interface XClientOptions {
  /** `$THREADMARK_X_API_URL`, e.g. https://x.com/i/api */
  apiUrl: string;
  pool: SessionPool;
  /** The operations in force; the shipped table when omitted. */
  operations?: OperationTable;
  timeoutMs: number;
  /** Retries and body limit; without one each read is tried once. */
  policy?: UpstreamPolicy;
  /** X's web app: signing inputs and query-id discovery; without it nothing is signed or discovered. */
  web?: XWebApp;
}

export interface XCallOptions {
  signal?: AbortSignal;
  deadline?: Deadline;
  /** Charges the requesting client for this session call (see CallOptions). */
  chargeSession?: () => Promise<void>;
  /** The call would only confirm another provider's unvouched "not found" (see CallOptions). */
  confirming?: boolean;
  /** Charges and counts each request for the run's payer (see CallOptions). */
  beforeRequest?: () => void | Promise<void>;
  /** `x-twitter-client-language` of the request (English when unset): the language X translates posts into. */
  clientLanguage?: string;
}

export class XGraphqlClient {
  readonly operations: OperationTable;
  /** Per-operation answers by verdict, for /metrics and GET /api. */
  readonly stats = new OperationStats();
  private readonly confirmations: Confirmations;

  constructor(private readonly opts: XClientOptions) {
    this.operations = opts.operations ?? new OperationTable();
    this.confirmations = new Confirmations(opts.pool);
  }

  get pool(): SessionPool {
    return this.opts.pool;
  }

  /**
   * One GraphQL read. Returns the decoded envelope (which may still carry content-level `errors`, e.g.
   * a missing post, for the parser to judge). Throws ProviderError 'unavailable' with `retryAfterS` when no
   * session can serve `op`, 'error' for bad statuses or bodies, 'network' from the transport.
   */
  async call(op: OperationName, variables: Record<string, unknown>, call: XCallOptions = {}): Promise<XEnvelope> {
    // Nothing is charged for a call no session could send.
    if (!this.opts.pool.isAvailable(op)) throw this.exhausted(op, 0);
    if (!call.confirming) {
      await call.chargeSession?.();
      return this.send(op, variables, call);
    }
    // A confirmation: within the service-wide share first (a refused one costs the client nothing), then the
    // client's own allowance; either refusal leaves the "not found" unconfirmed instead of spending a session.
    const release = this.confirmations.take(op);
    if (!release) throw notConfirmed(op, `confirmations may spend ${CONFIRMATION_SHARE * 100}% of its session window`);
    try {
      try {
        await call.chargeSession?.();
      } catch (err) {
        if (err instanceof AllowanceRefused) throw notConfirmed(op, "the client's account allowance is used up");
        throw err;
      }
      return await this.send(op, variables, call);
    } finally {
      release();
    }
  }

  /** The session calls of one operation: rotates to the next session on a rate limit, a dead or a refused one. */
  private async send(op: OperationName, variables: Record<string, unknown>, call: XCallOptions): Promise<XEnvelope> {
    const tried = new Set<XSession>();
    let refreshedIds = false;
    let refreshedSigning = false;
    for (;;) {
      const session = this.opts.pool.acquire(op, tried);
      if (!session) throw this.exhausted(op, tried.size);
      tried.add(session);
      const operation = this.operations.get(op);
      const url = graphqlUrl(this.opts.apiUrl, operation, variables);
      const headers = sessionHeaders(session, call.clientLanguage);
      if (operation.transactionId) {
        const inputs = await this.opts.web?.signingInputs();
        if (inputs) headers['x-client-transaction-id'] = transactionId(inputs, 'GET', new URL(url).pathname);
      }
      const charged = call.beforeRequest?.();
      if (charged) await charged;
      const res = await fetchUpstream(PROVIDER, url, {
        signal: call.signal,
        deadline: call.deadline,
        timeoutMs: this.opts.timeoutMs,
        policy: this.opts.policy,
        headers,
      });
      this.opts.pool.recordRateLimit(session, op, res.headers);
      const verdict = judge(res.status, res.text);
      this.stats.count(op, verdict.kind);
      if (verdict.kind === 'rate_limited') {
        this.opts.pool.parkRateLimited(session, op, res.headers);
        continue;
      }
      if (verdict.kind === 'dead') {
        this.opts.pool.markDead(session, verdict.reason, verdict.state);
        continue;
      }
      if (verdict.kind === 'retry') {
        // A signed call refused with X's bare 404: the signing inputs may be out of date; read them again once.
        if (operation.transactionId && this.opts.web && !refreshedSigning) {
          refreshedSigning = true;
          if (await this.opts.web.resetSigning()) tried.delete(session);
        }
        continue;
      }
      if (verdict.kind === 'stale') {
        // One refresh of the ids from X's web bundle, then one retry if it changed this operation's id.
        if (!refreshedIds && this.opts.web && (await this.opts.web.refreshFor(op, operation.queryId))) {
          refreshedIds = true;
          tried.delete(session);
          continue;
        }
        const advice = this.opts.web?.discover
          ? 'the web bundle has no newer id; refresh THREADMARK_X_OPERATIONS'
          : 'refresh THREADMARK_X_OPERATIONS or set THREADMARK_X_DISCOVER=true';
        throw new ProviderError(PROVIDER, 'error', `x ${op}: ${verdict.reason}; ${advice}`, { status: res.status });
      }
      if (verdict.kind === 'fail') {
        throw new ProviderError(PROVIDER, 'error', `x ${op}: ${verdict.reason}`, { status: res.status });
      }
      return verdict.body;
    }
  }

  private exhausted(op: OperationName, tried: number): ProviderError {
    const retryAfterS = this.opts.pool.nextAvailableInS(op);
    if (retryAfterS === 0) {
      // Usable sessions remain but each already got a transient failure on this read.
      return new ProviderError(PROVIDER, 'error', `x ${op}: transient failure with every session`, { status: 404 });
    }
    const why =
      this.opts.pool.size === 0
        ? 'no X sessions are configured (THREADMARK_X_SESSIONS)'
        : tried > 0
          ? `every X session was rate limited or refused for ${op}`
          : `every X session is parked for ${op}`;
    return new ProviderError(
      PROVIDER,
      'unavailable',
      why,
      retryAfterS === undefined ? {} : { retryAfterS: Math.max(1, retryAfterS) },
    );
  }
}

/** A confirmation not sent: the other provider's "not found" stands, unconfirmed. */
function notConfirmed(op: OperationName, why: string): ProviderError {
  return new ProviderError(PROVIDER, 'unconfirmed', `x ${op} not asked to confirm: ${why}`);
}

export function sessionHeaders(s: XSession, clientLanguage = 'en'): Record<string, string> {
  return {
    authorization: `Bearer ${WEB_BEARER}`,
    'x-csrf-token': s.ct0,
    cookie: `auth_token=${s.authToken}; ct0=${s.ct0}`,
    'x-twitter-auth-type': 'OAuth2Session',
    'x-twitter-active-user': 'yes',
    'x-twitter-client-language': clientLanguage,
    'user-agent': USER_AGENT,
    origin: 'https://x.com',
    referer: 'https://x.com/',
    'content-type': 'application/json',
  };
}

type Verdict =
  | { kind: 'ok'; body: XEnvelope }
  | { kind: 'rate_limited' }
  | { kind: 'dead'; reason: string; state: DeadState }
  | { kind: 'retry' }
  | { kind: 'stale'; reason: string }
  | { kind: 'fail'; reason: string };

/** X's code for a request whose feature flags do not match what the operation expects now. */
const FEATURES_MISMATCH = 336;
/** X's code for a bad request it can explain (bad cursor, bad query): not a sign of a stale table. */
const BAD_REQUEST = 214;

/** Sorts one answer into: usable, session problem (rotate), transient (rotate) or upstream failure. */
function judge(status: number, text: string): Verdict {
  if (status === 429) return { kind: 'rate_limited' };
  const body = tryJson(text);
  const codes = errorCodes(body);
  if (codes.includes(RATE_LIMITED)) return { kind: 'rate_limited' };
  const dead = codes.find((c) => DEAD_CODES.has(c));
  if (dead !== undefined) {
    const { reason, state } = DEAD_CODES.get(dead)!;
    return { kind: 'dead', reason: `${reason} (code ${dead})`, state };
  }
  // An HTML error page comes from the edge (Cloudflare-style block of our address), not from the account.
  if (status >= 400 && /^\s*</.test(text))
    return { kind: 'fail', reason: `blocked with an HTML page (HTTP ${status})` };
  if (status === 401) return { kind: 'dead', reason: 'logged out (HTTP 401)', state: 'logged_out' };
  if (status === 403) return { kind: 'dead', reason: 'refused with HTTP 403', state: 'locked' };
  // X answers a transient 404 with an empty body (stale transaction id, shard hiccup): another session may pass.
  if (status === 404 && text.trim() === '') return { kind: 'retry' };
  // After a web deploy an old query id answers 404 and old flags 400 / code 336, whichever session asks.
  if (codes.includes(FEATURES_MISMATCH))
    return { kind: 'stale', reason: `features out of date (code ${FEATURES_MISMATCH})` };
  if (status === 404 || (status === 400 && !codes.includes(BAD_REQUEST))) {
    return { kind: 'stale', reason: `query id or features out of date (HTTP ${status})` };
  }
  if (status >= 400) return { kind: 'fail', reason: `HTTP ${status}` };
  if (body === undefined) {
    parseJson(PROVIDER, text); // throws the canonical malformed-JSON ProviderError
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { kind: 'fail', reason: 'answered with a non-object body' };
  }
  return { kind: 'ok', body: body };
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function errorCodes(body: unknown): number[] {
  const errors = (body as XEnvelope | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors
    .map((e: XGraphqlError) => e?.code ?? e?.extensions?.code)
    .filter((c): c is number => typeof c === 'number');
}
