// Reading X's web app: the home page names its main script (which holds `queryId`/`operationName` pairs for
// every GraphQL operation) and carries what request signing needs: the `twitter-site-verification` key, the
// `loading-x-anim-N` animations and, in its webpack runtime, the hash of the on-demand script whose
// `(x[NN], 16)` expressions name the key bytes used. The text is read by the scans of web-parse.ts, not a DOM
// and not backtracking patterns: the page is large, comes from a server we do not control, and only these few
// attributes matter. Scripts are fetched only from the configured web app's origin and X's static hosts.
import { fetchUpstream, type UpstreamPolicy } from '../http.ts';
import { ProviderError } from '../types.ts';
import { animationKey, type TransactionInputs } from './transaction-id.ts';
import {
  scanAnimationFrames,
  scanKeyByteIndices,
  scanMainScriptUrl,
  scanOnDemandScriptUrl,
  scanQueryIds,
  scanVerificationKey,
} from './web-parse.ts';
import { finishSliced } from './web-scan.ts';

export interface WebBundle {
  mainScriptUrl: string;
  /** operationName → queryId, for every operation the main script names. */
  queryIds: Map<string, string>;
  /** Signing inputs; absent (with the reason) when the page lacks them. */
  transaction?: TransactionInputs;
  transactionError?: string;
}

export interface BundleFetch {
  timeoutMs: number;
  policy?: UpstreamPolicy;
  signal?: AbortSignal;
}

/** Where X's web app loads its scripts from, besides its own origin. */
const X_STATIC_ORIGINS: readonly string[] = ['https://abs.twimg.com'];

/**
 * The origins a bundle read may fetch from (redirect hops included): the configured web app's and X's static
 * hosts. The page names the scripts, so without this a page (or anyone able to alter it) could make the
 * service request any address it can reach, internal ones included.
 */
function bundleOrigins(webUrl: string): ReadonlySet<string> {
  return new Set([new URL(webUrl).origin, ...X_STATIC_ORIGINS]);
}

const PAGE_HEADERS = {
  accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
  'accept-language': 'en',
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
};

/** A URL taken from the page, cut short for messages and logs (the page decides its length). */
function shownUrl(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}…` : url;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

async function getText(url: string, origins: ReadonlySet<string>, opts: BundleFetch): Promise<string> {
  const origin = originOf(url);
  if (origin === undefined || !origins.has(origin)) {
    throw new ProviderError(
      'x',
      'error',
      `x web bundle: ${shownUrl(url)} is not on THREADMARK_X_WEB_URL's origin or X's static hosts; not fetched`,
    );
  }
  const res = await fetchUpstream('x', url, {
    timeoutMs: opts.timeoutMs,
    policy: opts.policy,
    signal: opts.signal,
    headers: PAGE_HEADERS,
    redirectAllowed: (to) => origins.has(to.origin),
  });
  if (res.status !== 200)
    throw new ProviderError('x', 'error', `x web bundle: ${shownUrl(url)} answered HTTP ${res.status}`, {
      status: res.status,
    });
  return res.text;
}

/**
 * Reads the web app's home page, its main script and (for signing) its on-demand script. The page is
 * `/home`: the bare root may serve a slimmer logged-out app without the on-demand chunk map.
 */
export async function readWebBundle(webUrl: string, opts: BundleFetch): Promise<WebBundle> {
  const origins = bundleOrigins(webUrl);
  const pageUrl = `${webUrl.replace(/\/+$/, '')}/home`;
  const html = await getText(pageUrl, origins, opts);
  const main = await finishSliced(scanMainScriptUrl(html, pageUrl));
  if (!main) throw new ProviderError('x', 'error', `x web bundle: ${pageUrl} names no main script`);
  const queryIds = await finishSliced(scanQueryIds(await getText(main, origins, opts)));
  if (queryIds.size === 0)
    throw new ProviderError('x', 'error', `x web bundle: ${shownUrl(main)} holds no queryId/operationName pairs`);
  const bundle: WebBundle = { mainScriptUrl: main, queryIds };
  try {
    bundle.transaction = await signingInputs(html, main, origins, opts);
  } catch (err) {
    bundle.transactionError = (err as Error).message;
  }
  return bundle;
}

async function signingInputs(
  html: string,
  main: string,
  origins: ReadonlySet<string>,
  opts: BundleFetch,
): Promise<TransactionInputs> {
  const key = await finishSliced(scanVerificationKey(html));
  if (!key) throw new Error('the home page has no twitter-site-verification key');
  const keyBytes = new Uint8Array(Buffer.from(key, 'base64'));
  const onDemand = await finishSliced(scanOnDemandScriptUrl(html, main));
  if (!onDemand) throw new Error('the home page names no ondemand.s script');
  const indices = await finishSliced(scanKeyByteIndices(await getText(onDemand, origins, opts)));
  const frames = await finishSliced(scanAnimationFrames(html));
  return { keyBytes, animationKey: animationKey(keyBytes, frames, indices) };
}
