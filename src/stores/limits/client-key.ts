import { isIPv4, isIPv6 } from 'node:net';

/**
 * The rate-limit partition of a client address: IPv4 as is; IPv6 grouped by its /64 (one subscriber
 * usually owns a whole /64); IPv4-mapped IPv6 treated as the IPv4 address it carries.
 */
export function clientKey(ip: string): string {
  if (isPlainIPv4(ip)) return ip;
  const addr = ip
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  if (isIPv4(addr)) return addr;
  if (!isIPv6(addr)) return ip;
  const groups = expandIPv6(addr);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    const hi = groups[6] ?? 0;
    const lo = groups[7] ?? 0;
    return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** Eight 16-bit groups of a valid IPv6 address (embedded dotted IPv4 tail included). */
function expandIPv6(addr: string): number[] {
  let text = addr.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a, b, c, d] = dotted[1].split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16));
}

/**
 * Whether `s` is a dotted-quad IPv4 address exactly as `isIPv4` accepts it (no leading zeros, each part ≤ 255,
 * nothing around it). Every request asks this of its client address; a character scan costs a tenth of the
 * regular expression behind `isIPv4`.
 */
export function isPlainIPv4(s: string): boolean {
  const n = s.length;
  if (n < 7 || n > 15) return false;
  let dots = 0;
  let part = 0;
  let digits = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || ++dots > 3) return false;
      part = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return false;
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return false;
    } else return false;
  }
  return dots === 3 && digits > 0;
}
