// Where X's media hosts are reached: https://<host> unless THREADMARK_MEDIA_HOSTS maps the host to another base
// (a mirror, or the simulator in tests). Only X's media hosts can be mapped, so no setting opens other hosts.
import { X_MEDIA_HOSTS, xMediaUrl, type XMediaHost } from '../domain/media-refs.ts';

export type MediaHostMap = Partial<Record<XMediaHost, string>>;

/** Parses `host=base,host=base`; answers an error message for anything else. */
export function parseMediaHosts(value: string): MediaHostMap | string {
  const out: MediaHostMap = {};
  for (const pair of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = pair.indexOf('=');
    const host = pair.slice(0, eq).trim();
    const base = pair.slice(eq + 1).trim();
    if (eq < 0 || !(X_MEDIA_HOSTS as readonly string[]).includes(host)) {
      return `must map X's media hosts (${X_MEDIA_HOSTS.join(', ')}) to base URLs: host=URL,host=URL`;
    }
    let u: URL;
    try {
      u = new URL(base);
    } catch {
      return `maps ${host} to ${JSON.stringify(base)}, which is not an http(s) URL`;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      return `maps ${host} to ${JSON.stringify(base)}, which is not an http(s) URL`;
    }
    out[host as XMediaHost] = u.href.replace(/\/+$/, '');
  }
  return out;
}

/** The address a media URL is fetched from; undefined when the URL is not on one of X's media hosts. */
export function fetchAddress(url: string, hosts: MediaHostMap): string | undefined {
  const u = xMediaUrl(url);
  if (!u) return undefined;
  const base = hosts[u.hostname as XMediaHost] ?? `https://${u.hostname}`;
  return `${base}${u.pathname}${u.search}`;
}
