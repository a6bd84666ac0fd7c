// One response from the service, captured so a baseline can replay the same bytes and headers.
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
