// Closed-loop load with autocannon: N connections, each sending its next request when the previous answer
// arrives. Every request carries its own X-Forwarded-For so the per-IP allowance never turns hits into 429s.
import autocannon from 'autocannon';

export interface LoadFigures {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  connections?: number;
  durationS?: number;
  headers?: Record<string, string>;
}

let counter = 0;
function nextIp(): string {
  counter = (counter + 1) % 65_000;
  return `10.77.${counter >> 8}.${counter & 255}`;
}

export async function load(opts: LoadOptions): Promise<LoadFigures> {
  const base = opts.headers ?? {};
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 10,
    duration: opts.durationS ?? 3,
    pipelining: 1,
    requests: [
      {
        method: 'GET',
        setupRequest: (req: { headers?: Record<string, string> }) => ({
          ...req,
          headers: { ...base, 'x-forwarded-for': nextIp() },
        }),
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
