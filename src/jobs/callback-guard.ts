// Where the service may send a push: a callback must be an http(s) URL without credentials (https for webhooks) whose
// every address is public — no loopback, private, shared, link-local (cloud metadata), multicast or reserved range —
// checked after DNS resolution, and checked again on every connection (net/addresses.ts), so a name that later
// resolves elsewhere is never contacted. THREADMARK_WEBHOOK_ALLOW_PRIVATE=true lifts the address and https rules (tests).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { isPublicAddress } from '../net/addresses.ts';

export { isPublicAddress };

export class CallbackRefused extends Error {
  override name = 'CallbackRefused';
}

export interface CallbackRules {
  /** THREADMARK_WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** Webhooks: https only (unless private addresses are allowed). */
  httpsOnly: boolean;
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addrs) => (err ? reject(err) : resolve(addrs))),
  );
}

/** The URL parsed, or CallbackRefused saying why it may not be used (before anything is contacted). */
export async function checkCallback(raw: string, rules: CallbackRules): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CallbackRefused('the callback is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CallbackRefused('the callback must be http(s)');
  if (rules.httpsOnly && !rules.allowPrivate && url.protocol !== 'https:')
    throw new CallbackRefused('a webhook callback must use https');
  if (url.username || url.password) throw new CallbackRefused('the callback must not carry credentials');
  if (url.hash) throw new CallbackRefused('the callback must not have a fragment');
  if (rules.allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // One answer whether the name does not resolve or resolves to a private address, and never the address itself:
  // otherwise anyone could resolve the deployment's internal names through it.
  const refused = new CallbackRefused('the callback host is not a public address');
  let addrs: LookupAddress[];
  try {
    addrs = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolveAll(host);
  } catch {
    throw refused;
  }
  if (addrs.length === 0 || addrs.some((a) => !isPublicAddress(a.address))) throw refused;
  return url;
}
