// Where the service may send a push: a callback must be an http(s) URL without credentials (https for webhooks) whose
// every address is public — no loopback, private, shared, link-local (cloud metadata), multicast or reserved range —
// checked after DNS resolution, and checked again on every connection (the lookup below), so a name that later
// resolves elsewhere is never contacted. THREADMARK_WEBHOOK_ALLOW_PRIVATE=true lifts the address and https rules (tests).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export class CallbackRefused extends Error {
  override name = 'CallbackRefused';
}

const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  // IPv4-compatible (::a.b.c.d, deprecated) and IPv4-translated (::ffff:0:a.b.c.d) forms: no public host is reached
  // through them, and they can name any IPv4 address, private ones included. (IPv4-mapped ::ffff:a.b.c.d is judged
  // as the IPv4 address it carries.)
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv6');

/** Whether an address may be contacted: public unicast only (an IPv4-mapped IPv6 address is judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPublicAddress(mapped);
  const family = isIP(address);
  if (family === 0) return false;
  return !BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
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

/** A DNS lookup for outgoing pushes that refuses non-public addresses at connection time. */
export function publicOnlyLookup(allowPrivate: boolean): LookupFunction | undefined {
  if (allowPrivate) return undefined;
  return ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (err, addrs) => {
      if (err) return callback(err);
      const list = addrs;
      // The reason is kept with the delivery and shown to the watch's owner: it names the host, not its addresses.
      if (list.length === 0 || list.some((a) => !isPublicAddress(a.address)))
        return callback(new CallbackRefused(`${hostname} is not a public address`));
      const all = (options as { all?: boolean }).all;
      if (all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  }) as LookupFunction;
}
