// A runnable example request for each declared route, for /docs and llms.txt. Values are chosen by parameter
// name, so a new route gets a sensible example without being listed here.
import type { RouteDecl } from '../contract/route-decl.ts';
import { routeParams } from './params.ts';

export const EXAMPLE = { handle: 'jack', id: '20', q: 'open source', resource: 'profile' } as const;

function statusUrl(decl: RouteDecl, baseUrl: string): string {
  // oEmbed only knows the service's own permalinks; the post routes take the platform's URL.
  return decl.path.includes('oembed')
    ? `${baseUrl}/${EXAMPLE.handle}/status/${EXAMPLE.id}`
    : `https://x.com/${EXAMPLE.handle}/status/${EXAMPLE.id}`;
}

export function exampleUrl(decl: RouteDecl, baseUrl: string): string {
  const names = new Set(
    routeParams(decl)
      .filter((p) => p.in === 'query')
      .map((p) => p.name),
  );
  const path = decl.path.replace(/\{([^}]+)\}/g, (_, n: string) =>
    n in EXAMPLE ? EXAMPLE[n as keyof typeof EXAMPLE] : n,
  );
  const qs = new URLSearchParams();
  if (names.has('url')) qs.set('url', statusUrl(decl, baseUrl));
  else if (names.has('resource')) {
    qs.set('resource', EXAMPLE.resource);
    if (names.has('handle')) qs.set('handle', EXAMPLE.handle);
  } else if (names.has('q')) qs.set('q', EXAMPLE.q);
  const query = qs.toString();
  return `${baseUrl}${path}${query ? `?${query}` : ''}`;
}

/** A curl line that works when pasted into a POSIX shell. */
export function exampleCurl(decl: RouteDecl, baseUrl: string): string {
  return `curl -s '${exampleUrl(decl, baseUrl).replace(/'/g, "'\\''")}'`;
}
