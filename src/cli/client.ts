// The service's REST routes as the command sees them, through the typed client (threadmark-client): a 2xx body,
// or a CliError worded from the problem.
import {
  createClient,
  ThreadmarkError,
  ThreadmarkNetworkError,
  type ExportStream,
  type ThreadmarkClient,
} from '../client/index.ts';
import { CliError, EXIT, exitCodeForStatus } from './exit.ts';
import { pathParams, problemText, type Sent } from './problem-terms.ts';
import type { Query, Transport } from './transport.ts';

/** The parts of an answer a failure is worded from. */
export interface Reply {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: string;
}

const FALLBACK_CODES: Record<number, string> = {
  404: 'not_found',
  429: 'rate_limited',
  502: 'upstream_error',
  503: 'upstream_error',
};

/**
 * A short wait the service asks for (an upstream's brief outage) is waited out; a used-up allowance (a minute or
 * more) is reported at once with exit 4, so scripts decide when to come back.
 */
const CLI_RETRY = { retries: 2, maxDelayMs: 5_000 };

/**
 * A problem document when there is one (its detail and, for the caller's mistakes, its resolution, in the
 * command's terms when `sent` says what was asked); otherwise (a Markdown recovery page on 404) its first line.
 */
export function problemFromReply(reply: Reply, sent?: Sent): CliError {
  let code = FALLBACK_CODES[reply.status] ?? `http_${reply.status}`;
  let detail = '';
  try {
    const doc = JSON.parse(reply.body) as { code?: unknown; detail?: unknown; title?: unknown; resolution?: unknown };
    if (doc && typeof doc.code === 'string') code = doc.code;
    if (doc && typeof doc.detail === 'string') detail = doc.detail;
    else if (doc && typeof doc.title === 'string') detail = doc.title;
    // What to do about a 429 or an outage is the retry delay added below; the service's words are about headers.
    const help = reply.status === 400 || reply.status === 404;
    if (detail && help && typeof doc.resolution === 'string') detail = problemText(detail, doc.resolution, sent);
  } catch {
    detail = firstLineOf(reply.body);
  }
  if (!detail) detail = `HTTP ${reply.status}`;
  const retry = reply.headers['retry-after'];
  if (retry && (reply.status === 429 || reply.status === 503)) detail += ` (retry after ${retry} s)`;
  return new CliError(code, detail, exitCodeForStatus(reply.status));
}

function firstLineOf(body: string): string {
  const title = /<title>([^<]*)<\/title>/i.exec(body)?.[1];
  if (title !== undefined) return title.trim();
  const first = body.split('\n').find((l) => l.trim() !== '');
  return first?.replace(/^#+\s*/, '').trim() ?? '';
}

/** A failure of the typed client in the command's words. */
export function cliErrorOf(e: unknown, target: string, sent?: Sent): unknown {
  if (e instanceof ThreadmarkError) {
    const headers: Record<string, string> = {};
    e.headers.forEach((v, k) => (headers[k] = v));
    return problemFromReply({ status: e.status, headers, body: e.body }, sent);
  }
  if (e instanceof ThreadmarkNetworkError) {
    const cause = e.cause as { cause?: { code?: string; message?: string }; message?: string } | undefined;
    const why = cause?.cause?.code ?? cause?.cause?.message ?? cause?.message ?? 'network error';
    return new CliError('unreachable', `cannot reach ${target} (${why})`, EXIT.failure);
  }
  return e;
}

export class Client {
  /** The typed client every request of the command goes through. */
  readonly api: ThreadmarkClient;

  constructor(
    private readonly transport: Transport,
    private readonly apiKey?: string,
    private readonly userAgent = 'threadmark-cli',
  ) {
    this.api = createClient({
      baseUrl: transport.requestBase,
      fetch: transport.fetch,
      apiKey,
      retry: CLI_RETRY,
      headers: { 'user-agent': userAgent },
    });
  }

  /** The service's public base (links in notes the command renders itself). */
  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** Runs a call of the typed client, its failures worded for the command. */
  async call<T>(run: (api: ThreadmarkClient) => Promise<T>, sent?: Sent): Promise<T> {
    try {
      return await run(this.api);
    } catch (e) {
      throw cliErrorOf(e, this.transport.target, sent);
    }
  }

  /** GET returning the body of a 2xx answer; anything else throws the problem as a CliError. */
  text(path: string, query: Query, accept?: string): Promise<string> {
    return this.call(async (api) => (await api.request(path, { query, accept })).text(), {
      query,
      params: pathParams(path),
    });
  }

  /** A keyed write; the 2xx body (empty for a 204), or the problem as a CliError. */
  async send(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': this.userAgent,
      ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
    };
    let res: Response;
    try {
      res = await this.transport.fetch(this.transport.requestBase + path, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (e) {
      throw cliErrorOf(new ThreadmarkNetworkError(this.transport.target, e), this.transport.target);
    }
    const text = await res.text();
    if (res.ok) return text;
    const replyHeaders: Record<string, string> = {};
    res.headers.forEach((v, k) => (replyHeaders[k] = v));
    throw problemFromReply({ status: res.status, headers: replyHeaders, body: text });
  }

  async json<T>(path: string, query: Query): Promise<T> {
    return JSON.parse(await this.text(path, { ...query, format: 'json' }, 'application/json')) as T;
  }

  /** An export whose request has been accepted: its lines are read as they arrive. */
  async export(handle: string, params: Parameters<ThreadmarkClient['export']>[1]): Promise<ExportStream> {
    const stream = this.api.export(handle, params);
    const query = Object.fromEntries(
      Object.entries(params ?? {}).map(([k, v]) => [k, v === undefined ? v : String(v)]),
    );
    await this.call(() => stream.open(), { query, params: { handle } });
    return stream;
  }
}
