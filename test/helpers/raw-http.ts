// A minimal HTTP/1.1 client over node:net, for requests fetch refuses to send: malformed request lines, raw
// control bytes or non-ASCII in the target and headers, arbitrary methods. One request per connection.
import { createConnection } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header lines exactly as received (name, value), in order. */
  rawHeaders: [string, string][];
  headers: Record<string, string>;
  body: Buffer;
  /** The bytes before the body, as received. */
  head: string;
}

export interface RawRequest {
  method: string;
  /** Request target, written as is (may be malformed on purpose). */
  target: string;
  headers?: [string, string][];
  body?: string | Buffer;
}

/** Sends one request and reads the whole response (Connection: close); rejects on timeout or a silent close. */
export function rawRequest(port: number, req: RawRequest, timeoutMs = 10_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    const lines = [`${req.method} ${req.target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
    for (const [k, v] of req.headers ?? []) lines.push(`${k}: ${v}`);
    if (body) lines.push(`Content-Length: ${body.length}`);
    const socket = createConnection(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response within ${timeoutMs} ms: ${req.method} ${req.target.slice(0, 200)}`));
    }, timeoutMs);
    socket.on('connect', () => {
      socket.write(Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), body ?? Buffer.alloc(0)]));
    });
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseResponse(Buffer.concat(chunks), req.method === 'HEAD'));
      } catch (e) {
        reject(e);
      }
    });
  });
}

export function parseResponse(raw: Buffer, head: boolean): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`incomplete response: ${JSON.stringify(raw.toString('latin1').slice(0, 300))}`);
  const headText = raw.subarray(0, end).toString('latin1');
  const [statusLine = '', ...headerLines] = headText.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!m) throw new Error(`bad status line: ${JSON.stringify(statusLine)}`);
  const rawHeaders: [string, string][] = headerLines.map((l) => {
    const i = l.indexOf(':');
    return [l.slice(0, i), l.slice(i + 1).trim()];
  });
  const headers: Record<string, string> = {};
  for (const [k, v] of rawHeaders)
    headers[k.toLowerCase()] = headers[k.toLowerCase()] ? `${headers[k.toLowerCase()]}, ${v}` : v;
  let body = raw.subarray(end + 4);
  if (head) body = Buffer.alloc(0);
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  else if (headers['content-length'] !== undefined) {
    const len = Number(headers['content-length']);
    if (body.length < len) throw new Error(`body shorter than content-length (${body.length} < ${len})`);
    body = body.subarray(0, len);
  }
  return { status: Number(m[1]), rawHeaders, headers, body, head: headText };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) throw new Error('truncated chunked body');
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) throw new Error('bad chunk size');
    if (size === 0) return Buffer.concat(out);
    out.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
