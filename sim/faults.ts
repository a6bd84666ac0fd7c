// Fault injection: a list of armed faults, each matching a route target and optionally a path substring.
// The first matching fault wins; `times` counts down and the fault disarms at zero.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimResponse } from './routes/types.ts';

export const FAULT_KINDS = [
  'status',
  'latency',
  'timeout',
  'malformed',
  'truncated',
  'empty',
  'html',
  'ratelimit',
  'reset',
  'ignore_window',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  /** Route target ('fxtwitter', 'syndication', 'x') or '*' for all. */
  target: string;
  /** Substring of the request path (including the query string). */
  match?: string;
  kind: FaultKind;
  /** HTTP status for 'status' (default 503) and 'html' (default 200). */
  status?: number;
  /** Delay for 'latency' (default 1000 ms). */
  delayMs?: number;
  /** Retry-After for 'ratelimit' (default 60 s); on 'status', sent only when set. */
  retryAfterS?: number;
  /** How many requests it applies to; unset = until cleared. */
  times?: number;
}

/** Validates a fault received over the control API; returns an error message or the fault. */
export function parseFault(input: unknown): Fault | string {
  if (typeof input !== 'object' || input === null) return 'fault must be a JSON object';
  const f = input as Record<string, unknown>;
  if (typeof f.target !== 'string' || !f.target) return 'target is required';
  if (!FAULT_KINDS.includes(f.kind as FaultKind)) return `kind must be one of: ${FAULT_KINDS.join(', ')}`;
  for (const k of ['status', 'delayMs', 'retryAfterS', 'times'] as const) {
    if (f[k] !== undefined && (typeof f[k] !== 'number' || !Number.isFinite(f[k]) || f[k] < 0))
      return `${k} must be a non-negative number`;
  }
  if (f.match !== undefined && typeof f.match !== 'string') return 'match must be a string';
  return f as unknown as Fault;
}

export class FaultBook {
  private armed: { fault: Fault; left: number }[] = [];

  add(fault: Fault): void {
    this.armed.push({ fault: { ...fault }, left: fault.times ?? Number.POSITIVE_INFINITY });
  }

  clear(): void {
    this.armed = [];
  }

  /** The fault to apply to this request, consuming one use of it. */
  take(target: string, path: string): Fault | undefined {
    const hit = this.armed.find(
      (a) =>
        a.left > 0 &&
        (a.fault.target === '*' || a.fault.target === target) &&
        (!a.fault.match || path.includes(a.fault.match)),
    );
    if (!hit) return undefined;
    hit.left -= 1;
    if (hit.left <= 0) this.armed = this.armed.filter((a) => a !== hit);
    return hit.fault;
  }
}

const CHALLENGE_PAGE =
  '<!DOCTYPE html><html lang="en"><head><title>Just a moment...</title></head><body><h1>Checking your browser</h1></body></html>';

export interface FaultIO {
  req: IncomingMessage;
  res: ServerResponse;
  /** The request's query string, which `render` reads when called. */
  query: URLSearchParams;
  /** Produces the response the route would have given. */
  render: () => Promise<SimResponse>;
  send: (r: SimResponse) => void;
  /** A delay the server cancels when it closes. */
  sleep: (ms: number) => Promise<void>;
}

/** Carries out `fault` for one request. */
export async function applyFault(fault: Fault, io: FaultIO): Promise<void> {
  const { req, res, send } = io;
  switch (fault.kind) {
    case 'status': {
      const status = fault.status ?? 503;
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
      if (fault.retryAfterS !== undefined) headers['retry-after'] = String(fault.retryAfterS);
      return send({ status, headers, body: JSON.stringify({ code: status, message: 'SIMULATED_FAULT' }) });
    }
    case 'latency':
      await io.sleep(fault.delayMs ?? 1000);
      return send(await io.render());
    case 'timeout':
      // Never answer; the server's close() drops the connection.
      return;
    case 'malformed':
      return send({
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"code":200,"status":{"id":"19',
      });
    case 'empty':
      return send({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '' });
    case 'html':
      return send({
        status: fault.status ?? 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: CHALLENGE_PAGE,
      });
    case 'ratelimit': {
      const retry = fault.retryAfterS ?? 60;
      return send({
        status: 429,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'retry-after': String(retry),
          'x-rate-limit-limit': '50',
          'x-rate-limit-remaining': '0',
          'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + retry),
        },
        body: JSON.stringify({ errors: [{ code: 88, message: 'Rate limit exceeded.' }] }),
      });
    }
    case 'truncated': {
      // Promise the whole body, send half, then drop the connection mid-body.
      const rendered = (await io.render()).body;
      const full = typeof rendered === 'string' ? Buffer.from(rendered, 'utf8') : rendered;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(full.length) });
      res.write(full.subarray(0, Math.floor(full.length / 2)), () => req.socket.destroy());
      return;
    }
    case 'reset':
      req.socket.destroy();
      return;
    case 'ignore_window':
      // An upstream whose search does not know the window operators: it answers as if they were not there.
      for (const [name, value] of [...io.query]) io.query.set(name, withoutWindowOperators(value));
      return send(await io.render());
  }
}

/** Search terms (or X's JSON variables holding them) without since:, until:, since_time: and until_time:. */
export function withoutWindowOperators(value: string): string {
  return value.replace(/\b(?:since|until|since_time|until_time):[^\s"]+/gi, '').replace(/ {2,}/g, ' ');
}
