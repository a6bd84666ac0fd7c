// FxTwitter API v2 routes (api.fxtwitter.com), served under /fx.
//
// What `thread` holds, following FxEmbed's providers/twitter/conversation.ts:
// - /2/status: `thread` is null.
// - /2/thread: the reply chain up to the conversation root (any author; unavailable ancestors become
//   tombstones), then the focal post, then the focal author's own continuation (each step the earliest
//   self-reply), oldest first.
// - /2/conversation: the ancestor chain plus the focal post (no continuation); on a cursor page only
//   the focal post. `replies` flattens TweetDetail's reply modules: the author's own continuation module
//   first, then other replies ranked by likes or recency, each followed by its descendants.
// Error shapes mirror FxEmbed: status routes answer {code, status:null, thread:null, author:null} with
// 404 (missing/deleted) or 401 (protected), or a tombstone `status` with 404 (suspended author).
import type { SimCorpus, SimUser } from '../corpus-types.ts';
import {
  ancestorIds,
  continuationIds,
  findUser,
  relationship,
  replyModules,
  search,
  timeline,
  visibility,
  type SearchFeed,
} from '../corpus-queries.ts';
import { paginate } from '../cursor.ts';
import { SIM_TRENDS } from '../trends.ts';
import { fxStatus, fxStatusOrTombstone, fxTombstone, fxUser, withFxTranslation } from '../wire/fxtwitter.ts';
import { json, type RouteModule, type SimRequest, type SimResponse } from './types.ts';
import { fxTabRoute } from './fxtwitter-tabs.ts';

const CORS = { 'access-control-allow-origin': '*' };
export const reply = (status: number, body: unknown) => json(status, body, CORS);
export const badRequest = (message: string) => reply(400, { code: 400, message });
export const emptyList = (code: number) => reply(code, { code, results: [], cursor: { top: null, bottom: null } });

/**
 * FxTwitter does not keep X's ranking inside a conversation page. Tests set `scrambled` to have each page's reply
 * modules served in reverse, so a client that trusts the upstream order shows them wrongly ranked.
 */
export const fxConversationOrder = { scrambled: false };

/** Replies per conversation page, counted in reply modules. */
export const CONVERSATION_PAGE_MODULES = 4;

export function parseCount(q: URLSearchParams, fallback: number): number | string {
  const raw = q.get('count');
  if (raw === null) return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : 'count must be an integer between 1 and 100';
}

export const isSnowflake = (id: string) => /^\d{1,20}$/.test(id);

type StatusGate = { ok: true } | { ok: false; response: (extra: Record<string, null>) => SimResponse };

/** Shared availability check for the focal post of status/thread/conversation. */
function gate(c: SimCorpus, id: string): StatusGate {
  const v = visibility(c, id);
  if (v === 'ok') return { ok: true };
  if (v === 'protected')
    return {
      ok: false,
      response: (extra) => reply(401, { code: 401, status: null, thread: null, author: null, ...extra }),
    };
  if (v === 'suspended')
    return {
      ok: false,
      response: (extra) =>
        reply(404, { code: 404, status: fxTombstone('suspended', id), thread: null, author: null, ...extra }),
    };
  return {
    ok: false,
    response: (extra) => reply(404, { code: 404, status: null, thread: null, author: null, ...extra }),
  };
}

function statusRoute(c: SimCorpus, id: string, withThread: boolean, q: URLSearchParams): SimResponse {
  if (!isSnowflake(id)) return badRequest('Invalid status ID');
  const g = gate(c, id);
  if (!g.ok) return g.response({});
  const lang = q.get('lang');
  const status = withFxTranslation(fxStatus(c, c.posts.get(id)!), c.posts.get(id)!, lang);
  if (!withThread) return reply(200, { code: 200, status, thread: null, author: status.author });
  const thread = [
    ...ancestorIds(c, id).map((a) => fxStatusOrTombstone(c, a, { inThread: true })),
    status,
    ...continuationIds(c, id).map((n) => fxStatus(c, c.posts.get(n)!, { inThread: true })),
  ];
  return reply(200, { code: 200, status, thread, author: status.author });
}

function conversationRoute(c: SimCorpus, id: string, q: URLSearchParams): SimResponse {
  if (!isSnowflake(id)) return badRequest('Invalid status ID');
  const mode = q.get('ranking_mode') ?? 'likes';
  if (mode !== 'likes' && mode !== 'recency') return badRequest('ranking_mode must be one of: likes, recency');
  const nulls = { replies: null, cursor: null };
  const g = gate(c, id);
  if (!g.ok) return g.response(nulls);
  const cursor = q.get('cursor');
  const page = paginate(replyModules(c, id, mode), CONVERSATION_PAGE_MODULES, cursor, `conversation:${id}:${mode}`);
  if (page === 'invalid') return reply(404, { code: 404, status: null, thread: null, author: null, ...nulls });
  const status = fxStatus(c, c.posts.get(id)!);
  const thread = cursor
    ? [status]
    : [...ancestorIds(c, id).map((a) => fxStatusOrTombstone(c, a, { inThread: true })), status];
  const modules = fxConversationOrder.scrambled ? [...page.items].reverse() : page.items;
  const replies = modules.flat().map((r) => fxStatus(c, c.posts.get(r)!));
  return reply(200, {
    code: 200,
    status,
    thread,
    replies,
    author: status.author,
    cursor: page.bottom ? { bottom: page.bottom } : null,
  });
}

export function profileUser(c: SimCorpus, handle: string): SimUser | SimResponse {
  const user = findUser(c, handle);
  if (!user) return reply(404, { code: 404, message: 'User not found' });
  if (user.suspended) return reply(404, { code: 404, message: 'User is suspended', reason: 'suspended', id: user.id });
  return user;
}

export const isResponse = (x: SimUser | SimResponse): x is SimResponse => 'body' in x;

export function listRoute<T>(
  all: T[],
  q: URLSearchParams,
  fallbackCount: number,
  scope: string,
  render: (t: T) => unknown,
): SimResponse {
  const count = parseCount(q, fallbackCount);
  if (typeof count === 'string') return badRequest(count);
  const page = paginate(all, count, q.get('cursor'), scope);
  // An unusable cursor makes FxTwitter's upstream timeline call fail, which it reports as 500.
  if (page === 'invalid') return emptyList(500);
  return reply(200, { code: 200, results: page.items.map(render), cursor: { top: page.top, bottom: page.bottom } });
}

function profileListRoute(c: SimCorpus, handle: string, kind: string, q: SimRequest['query']): SimResponse {
  const user = profileUser(c, handle);
  // Lists answer an unknown or suspended account with an empty 404 list, not the profile envelope.
  if (isResponse(user)) return emptyList(404);
  const count = parseCount(q, 20);
  if (typeof count === 'string') return badRequest(count);
  // Logged-out viewers see nothing behind a protected account.
  if (user.protected) return reply(200, { code: 200, results: [], cursor: { top: null, bottom: null } });
  if (kind === 'statuses') {
    const withReplies = ['1', 'true', 'yes'].includes((q.get('with_replies') ?? '').toLowerCase());
    const rows = timeline(c, user, withReplies);
    return listRoute(rows, q, 20, `statuses:${user.id}:${withReplies}`, (e) =>
      fxStatus(c, c.posts.get(e.postId)!, { repostedBy: e.repostedBy ? c.users.get(e.repostedBy) : undefined }),
    );
  }
  return listRoute(relationship(c, user, kind as 'followers' | 'following'), q, 20, `${kind}:${user.id}`, (u) =>
    fxUser(u),
  );
}

function searchRoute(c: SimCorpus, q: URLSearchParams): SimResponse {
  const term = q.get('q') ?? '';
  if (term.replace(/[_\s]/g, '') === '') return badRequest('q is required');
  if (term.length > 512) return badRequest('q must be at most 512 characters');
  const feed = q.get('feed') ?? 'latest';
  if (!['latest', 'top', 'media'].includes(feed)) return badRequest('feed must be one of: latest, top, media');
  return listRoute(search(c, term, feed as SearchFeed), q, 30, `search:${feed}:${term.toLowerCase()}`, (p) =>
    fxStatus(c, p),
  );
}

/** /2/trends: only the `trending` timeline exists; count 1-50 (default 20). */
function trendsRoute(q: URLSearchParams): SimResponse {
  const type = q.get('type') ?? 'trending';
  if (type !== 'trending') return badRequest('type must be one of: trending');
  const count = parseCount(q, 20);
  if (typeof count === 'string' || count > 50) return badRequest('count must be an integer between 1 and 50');
  const trends = SIM_TRENDS.slice(0, count).map((t) => ({
    name: t.name,
    rank: t.rank,
    context: t.context,
    ...(t.grouped ? { grouped_topics: t.grouped.map((name) => ({ name })) } : {}),
  }));
  return reply(200, {
    code: 200,
    timeline_type: 'trending',
    trends,
    cursor: {
      top: 'DAABCgABGRXuIqHAJxEKAAIZFe4iocAnEQgAAwAAAAEAAA',
      bottom: 'DAABCgABGRXuIqHAJxEKAAIZFe4iocAnEQgAAwAAAAIAAA',
    },
  });
}

export const fxtwitterRoutes: RouteModule = {
  target: 'fxtwitter',
  prefix: '/fx',
  handle(req, { corpus: c }) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return null;
    const parts = req.path.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== '2') return null;
    const [, kind, arg, sub] = parts;
    if (kind === 'status' && arg && parts.length === 3) return statusRoute(c, arg, false, req.query);
    if (kind === 'thread' && arg && parts.length === 3) return statusRoute(c, arg, true, req.query);
    if (kind === 'conversation' && arg && parts.length === 3) return conversationRoute(c, arg, req.query);
    if (kind === 'search' && parts.length === 2) return searchRoute(c, req.query);
    if (kind === 'trends' && parts.length === 2) return trendsRoute(req.query);
    if (kind === 'profile' && arg && parts.length === 3) {
      const user = profileUser(c, arg);
      return isResponse(user) ? user : reply(200, { code: 200, message: 'OK', user: fxUser(user) });
    }
    if (kind === 'profile' && arg && parts.length === 4 && ['statuses', 'followers', 'following'].includes(sub!)) {
      return profileListRoute(c, arg, sub!, req.query);
    }
    return fxTabRoute(c, parts, req.query);
  },
};
