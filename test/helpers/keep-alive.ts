// Requests over kept-alive connections (node:http with a keep-alive agent), read back with the header lines as
// received: the shape of traffic behind a reverse proxy, which rawRequest (one request per connection) is not.
import { Agent, request } from 'node:http';
import type { RawResponse } from './raw-http.ts';

export function keepAliveAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1 });
}

export function keepAliveRequest(
  agent: Agent,
  port: number,
  target: string,
  headers: [string, string][] = [],
  method = 'GET',
): Promise<RawResponse & { socketReused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: target, method, agent, headers: Object.fromEntries(headers) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', reject);
        res.on('end', () => {
          const rawHeaders: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            rawHeaders.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
          resolve({
            status: res.statusCode ?? 0,
            rawHeaders,
            headers: Object.fromEntries(rawHeaders.map(([k, v]) => [k.toLowerCase(), v])),
            body: Buffer.concat(chunks),
            head: '',
            socketReused: req.reusedSocket,
          });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
