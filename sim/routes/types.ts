// Contract between the simulator server and its route modules. A module owns one URL prefix and one
// fault/call-counter target; adding an upstream is one new module plus one line in routes/index.ts.
import type { IncomingHttpHeaders } from 'node:http';
import type { SimCorpus } from '../corpus-types.ts';

export interface SimRequest {
  method: string;
  /** Path below the module prefix, starting with '/'. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  /** Text is sent as UTF-8; media bytes go as they are. */
  body: string | Buffer;
}

export interface RouteContext {
  corpus: SimCorpus;
}

export interface RouteModule {
  /** Name used by faults and call counters, e.g. 'fxtwitter'. */
  target: string;
  /** URL prefix this module serves, e.g. '/fx'. */
  prefix: string;
  /** Returns null when no route matches (the server answers 404). */
  handle(req: SimRequest, ctx: RouteContext): SimResponse | null | Promise<SimResponse | null>;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): SimResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

export function html(status: number, body: string): SimResponse {
  return { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body };
}
