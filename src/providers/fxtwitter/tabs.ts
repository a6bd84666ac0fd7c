// FxTwitter's lists hanging off a post or a profile tab: /2/status/{id}/quotes, /2/profile/{h}/media and /articles answer
// the search shape ({code, results: statuses, cursor: {top, bottom}}), /2/status/{id}/reposts the user-list shape
// ({code, results: users, cursor}), per FxEmbed's src/realms/api/routes.ts. Each answers 404 with an empty list
// for "nothing here" (no quotes, no reposts, an empty or unknown tab): the post or profile read alongside decides
// what is missing, so here that is an empty page.
import { encodePart } from '../../domain/links.ts';
import type { Author, Page, Post } from '../../domain/models.ts';
import { upstreamPage } from '../shared/paging.ts';
import type { PageRequest } from '../types.ts';
import { pageQuery, type Answer, type FxTwitterClient } from './client.ts';
import { isUsableStatus, parseStatus, parseUser } from './parse.ts';
import type { FxProfileRelationshipList, FxSearchResults } from './wire.ts';

const isEmptyList = (a: Answer) =>
  a.status === 404 && Array.isArray((a.body as { results?: unknown } | undefined)?.results);

async function statusPage(client: FxTwitterClient, path: string, what: string, req: PageRequest, now: number) {
  const a = await client.get(`${path}?${pageQuery(req, {})}`, req);
  if (isEmptyList(a) || a.status === 204) return { items: [] };
  client.failOnStatus(a, what);
  const body = client.listBody<FxSearchResults>(a, what);
  const statuses = body.results.flatMap((r) => ('statuses' in r && r.type === 'thread' ? r.statuses : [r]));
  const items = statuses.filter(isUsableStatus).map((s) => parseStatus(s, { now }));
  return upstreamPage(items, body.cursor?.bottom, req.cursor);
}

export function fxQuotes(client: FxTwitterClient, id: string, req: PageRequest, now: number): Promise<Page<Post>> {
  return statusPage(client, `/2/status/${encodePart(id)}/quotes`, 'quotes', req, now);
}

export function fxMedia(client: FxTwitterClient, handle: string, req: PageRequest, now: number): Promise<Page<Post>> {
  return statusPage(client, `/2/profile/${encodePart(handle)}/media`, 'media', req, now);
}

export function fxArticles(
  client: FxTwitterClient,
  handle: string,
  req: PageRequest,
  now: number,
): Promise<Page<Post>> {
  return statusPage(client, `/2/profile/${encodePart(handle)}/articles`, 'articles', req, now);
}

export async function fxReposts(client: FxTwitterClient, id: string, req: PageRequest): Promise<Page<Author>> {
  const a = await client.get(`/2/status/${encodePart(id)}/reposts?${pageQuery(req, {})}`, req);
  if (isEmptyList(a)) return { items: [] };
  client.failOnStatus(a, 'reposts');
  const body = client.listBody<FxProfileRelationshipList>(a, 'reposts');
  const users = body.results
    .filter((u) => typeof u?.screen_name === 'string' && typeof u.id === 'string')
    .map(parseUser);
  return upstreamPage(users, body.cursor?.bottom, req.cursor);
}
