// A push receiver on loopback for webhook and WebSub tests: records every request (method, URL, headers, body) and
// answers with whatever the test's `answer` decides.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Requests with this method (POST: the pushes). */
  of(method: string): Received[];
  close(): Promise<void>;
}

export type Answer = (r: Received, n: number) => { status: number; body?: string };

export async function startReceiver(answer: Answer = () => ({ status: 204 })): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(r);
      const a = answer(r, received.filter((x) => x.method === r.method).length);
      res.writeHead(a.status, { 'content-type': 'text/plain' });
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    of: (method) => received.filter((r) => r.method === method),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
