// A runnable example request for each declared route, for /docs and llms.txt. Values are chosen by parameter
// name, so a new route gets a sensible example without being listed here.
import type { RouteDecl } from '../contract/route-decl.ts';
import { routeParams } from './params.ts';

// The demo's simulator has these (alice_dev's self-thread, her account id, a list), so every example runs there.
export const EXAMPLE = {
  handle: 'alice_dev',
  postId: '1900000000000000001',
  userId: '1461000001',
  listId: '1900000000000090001',
  q: 'caching',
  resource: 'profile',
  tag: 'caching',
  symbol: 'TSLA',
} as const;

/** Path parameters named alike in every route that has them. */
const BY_NAME: Readonly<Record<string, string>> = { handle: EXAMPLE.handle, tag: EXAMPLE.tag, symbol: EXAMPLE.symbol };

function statusUrl(decl: RouteDecl, baseUrl: string): string {
  // oEmbed only knows the service's own permalinks; the post routes take the platform's URL.
  return decl.path.includes('oembed')
    ? `${baseUrl}/${EXAMPLE.handle}/status/${EXAMPLE.postId}`
    : `https://x.com/${EXAMPLE.handle}/status/${EXAMPLE.postId}`;
}

/** `{id}` names a post, an account or an X List, by the route it is in. */
function idFor(path: string): string {
  if (path.includes('/lists/')) return EXAMPLE.listId;
  if (path.includes('/user')) return EXAMPLE.userId;
  return EXAMPLE.postId;
}

export function exampleUrl(decl: RouteDecl, baseUrl: string): string {
  const names = new Set(
    routeParams(decl)
      .filter((p) => p.in === 'query')
      .map((p) => p.name),
  );
  const path = decl.path.replace(/\{([^}]+)\}/g, (_, n: string) => (n === 'id' ? idFor(decl.path) : (BY_NAME[n] ?? n)));
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
