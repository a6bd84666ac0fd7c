// Child process: the floor of any proxy, a bare node:http server that answers each request with the body of one
// upstream GET (BENCH_UPSTREAM) made on a kept-alive connection, nothing read, checked or rendered. What it adds
// over calling the upstream directly is the cost of the extra hop on this machine, which no code can remove.
import { Agent, createServer, get } from 'node:http';
import { serveOnLoopback } from './listen.ts';

const upstream = process.env.BENCH_UPSTREAM ?? '';
const agent = new Agent({ keepAlive: true });

const server = createServer((req, res) => {
  get(upstream, { agent }, (up) => {
    const chunks: Buffer[] = [];
    up.on('data', (c: Buffer) => chunks.push(c));
    up.on('end', () => {
      const body = Buffer.concat(chunks);
      res.writeHead(up.statusCode ?? 502, { 'content-type': 'text/plain', 'content-length': String(body.length) });
      res.end(req.method === 'HEAD' ? undefined : body);
    });
  }).on('error', () => res.writeHead(502).end());
});
serveOnLoopback(server);
