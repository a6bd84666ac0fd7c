// Sequential timed GETs over a keep-alive connection, for latency figures without load.
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

export interface Timed {
  status: number;
  ms: number;
  headers: Record<string, string | string[] | undefined>;
}

export function timedGet(url: string, headers: Record<string, string> = {}): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = request(url, { agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - t0) / 1e6, headers: res.headers }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export function closeAgent(): void {
  agent.destroy();
}
