// Child process: the baseline, a bare node:http server writing fixed bytes with fixed headers
// (those the service sent for the same request, captured by the harness and passed in BENCH_RESPONSE).
import { createServer } from 'node:http';
import { serveOnLoopback } from './listen.ts';

const spec = JSON.parse(process.env.BENCH_RESPONSE ?? '{}') as { body: string; headers: Record<string, string> };
const body = Buffer.from(spec.body, 'base64');
const headers = { ...spec.headers, 'content-length': String(body.length) };

const server = createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
});
serveOnLoopback(server);
