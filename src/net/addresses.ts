// Which addresses an outbound request that asks for public ones only may reach: no loopback, private, shared,
// link-local (cloud metadata), multicast or reserved range. Checked when the connection is made (the lookup below,
// and the literal address of a URL), so a name that resolves elsewhere later is never contacted either.
import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { NetError } from './errors.ts';

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
  // IPv4-compatible (::a.b.c.d, deprecated, which covers :: and ::1 too) and IPv4-translated (::ffff:0:a.b.c.d)
  // forms: no public host is reached through them, and they can name any IPv4 address, private ones included.
  // (IPv4-mapped ::ffff:a.b.c.d is judged as the IPv4 address it carries.)
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

/** The refusal of a host that is or resolves to a non-public address; which address is not said. */
export function notPublic(host: string): NetError {
  return new NetError('not_public', `${host} is not a public address`);
}

/** A DNS lookup that refuses non-public addresses at connection time (every address a name has must be public). */
export const publicOnlyLookup = ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
  dnsLookup(hostname, { ...options, all: true, verbatim: true }, (err, list) => {
    if (err) return callback(err);
    if (list.length === 0 || list.some((a) => !isPublicAddress(a.address))) return callback(notPublic(hostname));
    if ((options as { all?: boolean }).all) return callback(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
}) as LookupFunction;

/** The literal address of a URL's host, when it is one (the lookup is not asked for those). */
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : undefined;
}
