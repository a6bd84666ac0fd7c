// Turns the `url` parameter into a status reference, with the contract's four distinct failure codes.
import { Problem } from '../../problems/problem.ts';
import { canBeStatusId, impossibleIdDetail } from '../../domain/ids.ts';
import { HANDLE_RE, STATUS_ID_RE } from './common.ts';

export interface StatusRef {
  /** Absent for X's handle-less permalinks (/i/status/{id}, /i/web/status/{id}). */
  handle?: string;
  id: string;
}

/** Stands in for the missing handle while the shape is checked; a valid handle, never returned. */
const HANDLE_LESS = '_';
const HOSTS = new Set(['x.com', 'twitter.com']);
const HOST_PREFIXES = ['www.', 'mobile.'];
/** Trailing path pieces the platform appends to a permalink (media viewers, analytics, quotes...). */
const TRAILERS = new Set(['photo', 'video', 'analytics', 'quotes', 'retweets', 'likes', 'history', 'media_tags']);

function bareHost(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, '');
  for (const p of HOST_PREFIXES) if (h.startsWith(p)) return h.slice(p.length);
  return h;
}

export function parseStatusUrl(raw: string): StatusRef {
  const text = raw.trim();
  if (text.length === 0 || text.length > 2048)
    throw new Problem('invalid_url', 'The url parameter is empty or too long.');
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`);
  } catch {
    throw new Problem('invalid_url', 'The url parameter is not a valid URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Problem('invalid_url', 'Only http and https status URLs are accepted.');
  }
  if (url.username || url.password) throw new Problem('invalid_url', 'Status URLs carry no credentials.');
  if (!HOSTS.has(bareHost(url.hostname))) {
    throw new Problem('unsupported_host', 'Only x.com and twitter.com (optionally www. or mobile.) are supported.');
  }
  const parts = url.pathname.split('/').filter(Boolean);
  // X's handle-less permalinks: /i/status/{id} and /i/web/status/{id} read like /{handle}/status/{id}.
  const handleLess = parts[0] === 'i' && (parts[1] === 'status' || (parts[1] === 'web' && parts[2] === 'status'));
  if (handleLess) parts.splice(0, parts[1] === 'web' ? 2 : 1, HANDLE_LESS);
  const [handle, status, id, trailer, index, ...rest] = parts;
  const shaped =
    handle !== undefined &&
    status === 'status' &&
    id !== undefined &&
    HANDLE_RE.test(handle) &&
    STATUS_ID_RE.test(id) &&
    (trailer === undefined || (TRAILERS.has(trailer) && (index === undefined || /^[0-9]{1,2}$/.test(index)))) &&
    rest.length === 0;
  if (!shaped)
    throw new Problem('invalid_path', 'The URL path must be shaped /{handle}/status/{id} (or /i/status/{id}).');
  checkIdRange(id);
  return handleLess ? { id: id } : { handle: handle, id: id };
}

/** A numeric id the platform cannot have issued (see domain/ids.ts) is 404 with no upstream call. */
export function checkIdRange(id: string): void {
  if (!canBeStatusId(id)) throw new Problem('not_found', impossibleIdDetail('post', id));
}
