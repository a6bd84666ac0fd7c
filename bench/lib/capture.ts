// One response from the service, captured so a baseline can replay the same bytes and headers.
import { get } from 'node:http';
const HOP_BY_HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export interface Captured {
  status: number;
  body: Buffer;
  headers: Record<string, string>;
}

export async function capture(url: string, headers: Record<string, string> = {}): Promise<Captured> {
  const res = await fetch(url, { headers: { 'accept-encoding': 'identity', ...headers } });
  const body = Buffer.from(await res.arrayBuffer());
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!HOP_BY_HOP.has(k)) out[k] = v;
  });
  return { status: res.status, body, headers: out };
}

/**
 * One response as it came over the wire (never decoded: a coded body stays coded), asked with `headers`, so a
 * baseline can write the very bytes a client asking that way gets.
 */
export function captureRaw(url: string, headers: Record<string, string>): Promise<Captured> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) {
          if (!HOP_BY_HOP.has(k) && v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
        }
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: out });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}
