// Reading X's web app: the home page names its main script (which holds `queryId`/`operationName` pairs for
// every GraphQL operation) and carries what request signing needs: the `twitter-site-verification` key, the
// `loading-x-anim-N` animations and, in its webpack runtime, the hash of the on-demand script whose
// `(x[NN], 16)` expressions name the key bytes used. Text is scanned with patterns, not a DOM: the page is
// large and only these few attributes matter.
import { fetchUpstream, type UpstreamPolicy } from '../http.ts';
import { ProviderError } from '../types.ts';
import { animationKey, type TransactionInputs } from './transaction-id.ts';

export interface WebBundle {
  mainScriptUrl: string;
  /** operationName → queryId, for every operation the main script names. */
  queryIds: Map<string, string>;
  /** Signing inputs; absent (with the reason) when the page lacks them. */
  transaction?: TransactionInputs;
  transactionError?: string;
}

export function mainScriptUrl(html: string, pageUrl: string): string | undefined {
  const m = /<script[^>]*\ssrc=["']([^"']*\/main\.[A-Za-z0-9_-]+\.js)["']/i.exec(html);
  return m ? new URL(m[1]!, pageUrl).toString() : undefined;
}

export function queryIdsIn(script: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of script.matchAll(
    /queryId\s*:\s*["']([A-Za-z0-9_-]+)["']\s*,\s*operationName\s*:\s*["']([A-Za-z0-9_]+)["']/g,
  )) {
    if (!out.has(m[2]!)) out.set(m[2]!, m[1]!);
  }
  return out;
}

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}=["']([^"']*)["']`, 'i').exec(tag)?.[1];
}

export function verificationKey(html: string): string | undefined {
  for (const m of html.matchAll(/<meta\b[^>]*>/gi)) {
    if (attr(m[0], 'name') === 'twitter-site-verification') return attr(m[0], 'content') || undefined;
  }
  return undefined;
}

/** The `d` of the second path of each `loading-x-anim-N` element, in N order (the animated path). */
export function animationFrames(html: string): string[] {
  const frames: Array<[number, string]> = [];
  for (const m of html.matchAll(/<svg\b[^>]*\sid=["']loading-x-anim-(\d+)["'][^>]*>([\s\S]*?)<\/svg>/gi)) {
    const paths = [...m[2]!.matchAll(/<path\b[^>]*>/gi)].map((p) => attr(p[0], 'd'));
    const d = paths[1];
    if (d) frames.push([Number(m[1]), d]);
  }
  return frames.sort((a, b) => a[0] - b[0]).map(([, d]) => d);
}

/** The on-demand script sits next to the main script, named by the chunk hash the runtime maps it to. */
export function onDemandScriptUrl(html: string, mainUrl: string): string | undefined {
  const chunk = /["']?(\d+)["']?\s*:\s*["']ondemand\.s["']/.exec(html)?.[1];
  if (!chunk) return undefined;
  for (const m of html.matchAll(new RegExp(`["']?\\b${chunk}["']?\\s*:\\s*["']([A-Za-z0-9_-]+)["']`, 'g'))) {
    if (m[1] !== 'ondemand') return new URL(`ondemand.s.${m[1]}a.js`, mainUrl).toString();
  }
  return undefined;
}

export function keyByteIndices(script: string): number[] {
  return [...script.matchAll(/\(\w\[(\d{1,2})\],\s*16\)/g)].map((m) => Number(m[1]));
}

export interface BundleFetch {
  timeoutMs: number;
  policy?: UpstreamPolicy;
  signal?: AbortSignal;
}

const PAGE_HEADERS = {
  accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
  'accept-language': 'en',
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
};

async function getText(url: string, opts: BundleFetch): Promise<string> {
  const res = await fetchUpstream('x', url, {
    timeoutMs: opts.timeoutMs,
    policy: opts.policy,
    signal: opts.signal,
    headers: PAGE_HEADERS,
  });
  if (res.status !== 200)
    throw new ProviderError('x', 'error', `x web bundle: ${url} answered HTTP ${res.status}`, { status: res.status });
  return res.text;
}

/**
 * Reads the web app's home page, its main script and (for signing) its on-demand script. The page is
 * `/home`: the bare root may serve a slimmer logged-out app without the on-demand chunk map.
 */
export async function readWebBundle(webUrl: string, opts: BundleFetch): Promise<WebBundle> {
  const pageUrl = `${webUrl.replace(/\/+$/, '')}/home`;
  const html = await getText(pageUrl, opts);
  const main = mainScriptUrl(html, pageUrl);
  if (!main) throw new ProviderError('x', 'error', `x web bundle: ${pageUrl} names no main script`);
  const queryIds = queryIdsIn(await getText(main, opts));
  if (queryIds.size === 0)
    throw new ProviderError('x', 'error', `x web bundle: ${main} holds no queryId/operationName pairs`);
  const bundle: WebBundle = { mainScriptUrl: main, queryIds };
  try {
    bundle.transaction = await signingInputs(html, main, opts);
  } catch (err) {
    bundle.transactionError = (err as Error).message;
  }
  return bundle;
}

async function signingInputs(html: string, main: string, opts: BundleFetch): Promise<TransactionInputs> {
  const key = verificationKey(html);
  if (!key) throw new Error('the home page has no twitter-site-verification key');
  const keyBytes = new Uint8Array(Buffer.from(key, 'base64'));
  const onDemand = onDemandScriptUrl(html, main);
  if (!onDemand) throw new Error('the home page names no ondemand.s script');
  const indices = keyByteIndices(await getText(onDemand, opts));
  return { keyBytes, animationKey: animationKey(keyBytes, animationFrames(html), indices) };
}
