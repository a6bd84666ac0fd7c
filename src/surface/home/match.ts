// Which declared permalink route answers a path this service built (domain/pasted-link.ts permalinkOf), and with
// which path parameters: the static segments must match, and the most specific route wins, as in the router.
import type { RouteDef } from '../../contract/route-decl.ts';
import type { RouteTable } from '../documents.ts';

export interface PermalinkMatch {
  def: RouteDef;
  params: Record<string, string>;
  query: Record<string, string>;
}

export function matchPermalink(table: RouteTable, permalink: string): PermalinkMatch | undefined {
  const url = new URL(permalink, 'http://permalink.invalid');
  const parts = url.pathname.split('/').slice(1);
  let best: { match: PermalinkMatch; statics: number } | undefined;
  for (const def of table) {
    if (def.decl.surface !== 'permalink') continue;
    const shape = def.decl.path.split('/').slice(1);
    if (shape.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let statics = 0;
    const fits = shape.every((seg, i) => {
      const part = decodeURIComponent(parts[i]!);
      const name = /^\{(.+)\}$/.exec(seg)?.[1];
      if (name === undefined) return seg === part && ++statics > 0;
      params[name] = part;
      return true;
    });
    if (fits && (!best || statics > best.statics))
      best = { match: { def, params, query: Object.fromEntries(url.searchParams) }, statics };
  }
  return best?.match;
}
