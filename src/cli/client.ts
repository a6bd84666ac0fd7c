// The service's REST routes as the command sees them: a 2xx body, or a CliError built from the problem.
import { CliError, exitCodeForStatus } from './exit.ts';
import { pathParams, problemText, type Sent } from './problem-terms.ts';
import type { Query, Reply, Transport } from './transport.ts';

const FALLBACK_CODES: Record<number, string> = {
  404: 'not_found',
  429: 'rate_limited',
  502: 'upstream_error',
  503: 'upstream_error',
};

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

export class Client {
  constructor(
    private readonly transport: Transport,
    private readonly apiKey?: string,
  ) {}

  private headers(accept?: string): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': 'threadmark-cli' };
    if (accept) headers.accept = accept;
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    return headers;
  }

  /** The service's public base (links in notes the command renders itself). */
  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** GET returning the body of a 2xx answer; anything else throws the problem as a CliError. */
  async text(path: string, query: Query, accept?: string): Promise<string> {
    const reply = await this.transport.get(path, query, this.headers(accept));
    if (reply.status < 200 || reply.status > 299) throw problemFromReply(reply, { query, params: pathParams(path) });
    return reply.body;
  }

  /** GET whose 2xx body is read line by line as it arrives; anything else throws the problem as a CliError. */
  async lines(path: string, query: Query): Promise<AsyncGenerator<string>> {
    const reply = await this.transport.stream(path, query, this.headers());
    if (reply.status < 200 || reply.status > 299) {
      let body = '';
      const decoder = new TextDecoder();
      for await (const chunk of reply.body) body += typeof chunk === 'string' ? chunk : decoder.decode(chunk);
      throw problemFromReply(
        { status: reply.status, headers: reply.headers, body },
        { query, params: pathParams(path) },
      );
    }
    return linesOf(reply.body);
  }

  /** A keyed write; the 2xx body (empty for a 204), or the problem as a CliError. */
  async send(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<string> {
    const reply = await this.transport.send(method, path, body, this.headers('application/json'));
    if (reply.status < 200 || reply.status > 299) throw problemFromReply(reply);
    return reply.body;
  }

  async json<T>(path: string, query: Query): Promise<T> {
    return JSON.parse(await this.text(path, { ...query, format: 'json' }, 'application/json')) as T;
  }
}

/** Complete lines of a body, as they arrive; a trailing line without its newline is still handed out. */
async function* linesOf(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of body) {
    rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let at: number;
    while ((at = rest.indexOf('\n')) >= 0) {
      yield rest.slice(0, at);
      rest = rest.slice(at + 1);
    }
  }
  rest += decoder.decode();
  if (rest) yield rest;
}
