// X web GraphQL (x.com/i/api/graphql/<queryId>/<Operation>), served under /x/i/api from the shared corpus
// in the real nested timeline shape. A query id other than the one the current deploy (x-deploy.ts) gives
// the operation answers 404, as X does after a web deploy; a signed operation (search) without a valid
// x-client-transaction-id answers X's bare 404 (x-web-bundle.ts). Every call then passes the account check of
// x-accounts.ts (cookies, csrf, locked accounts, per-operation rate-limit windows). Posts carry X's inline Grok
// translations into the request's client language when it asks for them (x-translations.ts).
//
// Control (for the demo and other processes): POST /x/__accounts/reset, POST /x/__accounts/limits
// {"limit","windowS"}, POST /x/__accounts/lock {"auth_token"}, POST /x/__accounts/logout {"auth_token"}, POST /x/__deploy/rotate {"operation"}
// (answers {"queryId"}), POST /x/__deploy/reset.
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
} from '../corpus-queries.ts';
import { paginate } from '../cursor.ts';
import type { XEntry, XEnvelope, XInstruction } from '../../src/providers/x/wire.ts';
import { xAccounts } from './x-accounts.ts';
import { xDeploy } from '../x-deploy.ts';
import { transactionIdProblem } from '../x-web-bundle.ts';
import { DEFAULT_OPERATIONS, OPERATION_NAMES, type OperationName } from '../../src/providers/x/operations.ts';
import {
  cursorEntry,
  cursorItemEntry,
  moduleEntry,
  moduleItem,
  tweetEntry,
  userEntry,
  xTweetResult,
  xUser,
} from './x-wire.ts';
import { json, type RouteModule, type SimRequest, type SimResponse } from './types.ts';
import {
  addEntries,
  count,
  text,
  errorsOnly,
  ok,
  pageOrEnd,
  sortIndex,
  timelineEntries,
  withHeaders,
  type Vars,
} from './x-timeline.ts';
import { LIST_OPERATIONS } from './x-lists.ts';
import { TAB_OPERATIONS } from './x-tabs.ts';
import { userTweetsAndReplies } from './x-replies.ts';
import { TREND_OPERATIONS } from './x-trends.ts';
import { wantsGrokTranslations, withGrokTranslations } from './x-translations.ts';

/** Reply modules per TweetDetail page. */
export const X_CONVERSATION_PAGE_MODULES = 5;

// ---------------------------------------------------------------------------------------------------------

function tweetDetail(c: SimCorpus, v: Vars): SimResponse {
  const id = text(v.focalTweetId);
  const vis = visibility(c, id);
  if (vis === 'missing' || vis === 'deleted') {
    return ok({
      data: {},
      errors: [
        {
          code: 144,
          message: '_Missing: No status found with that ID.',
          kind: 'NonFatal',
          path: ['threaded_conversation_with_injections_v2'],
        },
      ],
    });
  }
  const mode = v.rankingMode === 'Recency' ? 'recency' : 'likes';
  const cursor = typeof v.cursor === 'string' ? v.cursor : null;
  const own = continuationIds(c, id);
  const modules = replyModules(c, id, mode);
  // X shows the author's whole self-thread as the first module, not just three levels of it.
  if (own.length > 0 && modules[0]?.[0] === own[0]) modules[0] = own;
  const page = paginate(modules, X_CONVERSATION_PAGE_MODULES, cursor, `TweetDetail:${id}:${mode}`);
  if (page === 'invalid') return errorsOnly(400, 214, 'BadRequest: invalid cursor');

  const entries: XEntry[] = [];
  let i = 0;
  if (!cursor) {
    for (const a of ancestorIds(c, id)) {
      const r = xTweetResult(c, a);
      if (r) entries.push(tweetEntry(`tweet-${a}`, sortIndex(i++), r));
    }
    entries.push(tweetEntry(`tweet-${id}`, sortIndex(i++), xTweetResult(c, id)!, own.length ? 'SelfThread' : 'Tweet'));
  }
  if (vis === 'ok') {
    for (const mod of page.items) {
      const selfThread = mod === own;
      const items = mod.map((r) =>
        moduleItem(`conversationthread-${mod[0]}-tweet-${r}`, xTweetResult(c, r)!, selfThread ? 'SelfThread' : 'Tweet'),
      );
      entries.push(moduleEntry(`conversationthread-${mod[0]}`, sortIndex(i++), items));
    }
    if (page.bottom) entries.push(cursorItemEntry('Bottom', page.bottom, sortIndex(i)));
  }
  return ok({
    data: {
      threaded_conversation_with_injections_v2: {
        instructions: [addEntries(entries), { type: 'TimelineTerminateTimeline', direction: 'Top' }],
      },
    },
  });
}

function userByScreenName(c: SimCorpus, v: Vars): SimResponse {
  const user = findUser(c, text(v.screen_name));
  if (!user) return ok({ data: {} });
  return ok({ data: { user: { result: xUser(user) } } });
}

/** The user a userId-keyed operation is about, or the answer X gives when it cannot be read. */
export function subject(c: SimCorpus, v: Vars): SimUser | SimResponse {
  const user = c.users.get(text(v.userId));
  if (!user) return ok({ data: { user: {} } });
  if (user.suspended) return ok({ data: { user: { result: { __typename: 'UserUnavailable', reason: 'Suspended' } } } });
  if (user.protected) {
    return ok({
      data: { user: { result: { __typename: 'User' } } },
      errors: [{ code: 22, message: 'Not authorized to view the specified user.' }],
    });
  }
  return user;
}

export function userTimeline(instructions: XInstruction[]): XEnvelope {
  return { data: { user: { result: { __typename: 'User', timeline: { timeline: { instructions } } } } } };
}

function userTweets(c: SimCorpus, v: Vars): SimResponse {
  const user = subject(c, v);
  if (!('id' in user)) return user;
  const cursor = typeof v.cursor === 'string' ? v.cursor : null;
  const page = pageOrEnd(timeline(c, user, false), count(v, 20), cursor, `UserTweets:${user.id}`);
  if (page === 'invalid') return errorsOnly(400, 214, 'BadRequest: invalid cursor');
  const entries = timelineEntries(c, page);
  return ok(userTimeline([{ type: 'TimelineClearCache' }, addEntries(entries)]));
}

/**
 * X answers a follow list with 60-70 accounts however many were asked for. Tests set `size` to serve pages of
 * that length (unset: pages of `count` accounts).
 */
export const xFollowPages: { size?: number } = {};

function connections(c: SimCorpus, v: Vars, kind: 'followers' | 'following'): SimResponse {
  const user = subject(c, v);
  if (!('id' in user)) return user;
  const cursor = typeof v.cursor === 'string' ? v.cursor : null;
  const size = xFollowPages.size ?? count(v, 20);
  const page = paginate(relationship(c, user, kind), size, cursor, `${kind}:${user.id}`);
  if (page === 'invalid') return errorsOnly(400, 214, 'BadRequest: invalid cursor');
  const entries: XEntry[] = page.items.map((u, i) => userEntry(u, sortIndex(i)));
  // X's follow lists mark the end with a bottom cursor whose first part is 0.
  entries.push(cursorEntry('Bottom', page.bottom ?? `0|${sortIndex(entries.length)}`, sortIndex(entries.length)));
  entries.push(cursorEntry('Top', `-1|${sortIndex(0)}`, sortIndex(-1)));
  return ok(
    userTimeline([
      { type: 'TimelineClearCache' },
      { type: 'TimelineTerminateTimeline', direction: 'Top' },
      ...(page.bottom ? [] : [{ type: 'TimelineTerminateTimeline' as const, direction: 'Bottom' as const }]),
      addEntries(entries),
    ]),
  );
}

const PRODUCTS = { Latest: 'latest', Top: 'top', Media: 'media', People: 'people' } as const;

function searchTimeline(c: SimCorpus, v: Vars): SimResponse {
  const q = text(v.rawQuery).trim();
  if (!q) {
    return ok({
      data: {},
      errors: [
        {
          code: 214,
          message: 'BadRequest: SearchQueryParsingException(ERROR_EMPTY_QUERY)',
          path: ['search_by_raw_query', 'search_timeline', 'timeline'],
        },
      ],
    });
  }
  const product = PRODUCTS[text(v.product, 'Top') as keyof typeof PRODUCTS];
  if (!product) return errorsOnly(400, 214, `BadRequest: unknown product ${String(v.product)}`);
  const cursor = typeof v.cursor === 'string' ? v.cursor : null;
  const scope = `search:${product}:${q.toLowerCase()}`;
  const n = count(v, 20);
  const needle = q.toLowerCase();

  let items: XEntry[];
  let cursors: { top: string; bottom: string };
  if (product === 'people') {
    const users = [...c.users.values()].filter(
      (u) =>
        !u.suspended &&
        (u.handle.toLowerCase().includes(needle) ||
          u.name.toLowerCase().includes(needle) ||
          u.bio.toLowerCase().includes(needle)),
    );
    const p = pageOrEnd(users, n, cursor, scope);
    if (p === 'invalid') return errorsOnly(400, 214, 'BadRequest: invalid cursor');
    cursors = p;
    items = p.items.map((u, i) => userEntry(u, sortIndex(p.offset + i)));
  } else {
    const p = pageOrEnd(search(c, q, product), n, cursor, scope);
    if (p === 'invalid') return errorsOnly(400, 214, 'BadRequest: invalid cursor');
    cursors = p;
    items = p.items.map((post, i) =>
      tweetEntry(`tweet-${post.id}`, sortIndex(p.offset + i), xTweetResult(c, post.id)!),
    );
  }
  const top = cursorEntry('Top', cursors.top, sortIndex(-1));
  const bottom = cursorEntry('Bottom', cursors.bottom, sortIndex(1_000_000));
  const instructions: XInstruction[] = [];
  if (product === 'media') {
    // The media tab is one grid module; later pages append to it and swap the cursors in place.
    const gridItems = items.map((e) => ({
      entryId: `search-grid-0-${e.entryId}`,
      item: { itemContent: (e.content as { itemContent: never }).itemContent },
    }));
    if (!cursor)
      instructions.push(
        addEntries([moduleEntry('search-grid-0', sortIndex(0), gridItems, 'VerticalGrid'), top, bottom]),
      );
    else instructions.push({ type: 'TimelineAddToModule', moduleEntryId: 'search-grid-0', moduleItems: gridItems });
  } else {
    instructions.push(addEntries(cursor ? items : [...items, top, bottom]));
  }
  if (cursor) {
    instructions.push({ type: 'TimelineReplaceEntry', entry_id_to_replace: top.entryId, entry: top });
    instructions.push({ type: 'TimelineReplaceEntry', entry_id_to_replace: bottom.entryId, entry: bottom });
  }
  return ok({ data: { search_by_raw_query: { search_timeline: { timeline: { instructions } } } } });
}

/** The operations whose calls must carry a valid `x-client-transaction-id` (those the shipped table signs). */
const SIGNED = new Set<string>(OPERATION_NAMES.filter((n) => DEFAULT_OPERATIONS[n].transactionId));

const OPERATIONS: Record<string, (c: SimCorpus, v: Vars) => SimResponse> = {
  TweetDetail: tweetDetail,
  UserByScreenName: userByScreenName,
  UserTweets: userTweets,
  UserTweetsAndReplies: userTweetsAndReplies,
  Followers: (c, v) => connections(c, v, 'followers'),
  Following: (c, v) => connections(c, v, 'following'),
  SearchTimeline: searchTimeline,
  UserByRestId: (c, v) => {
    const user = subject(c, v);
    return 'id' in user ? ok({ data: { user: { result: xUser(user) } } }) : user;
  },
  ...LIST_OPERATIONS,
  ...TAB_OPERATIONS,
  ...TREND_OPERATIONS,
};

function control(req: SimRequest): SimResponse | null {
  if (req.method !== 'POST') return null;
  let body: Record<string, unknown>;
  try {
    body = req.body ? (JSON.parse(req.body) as Record<string, unknown>) : {};
  } catch {
    return json(400, { error: 'body must be JSON' });
  }
  if (req.path === '/__accounts/reset') xAccounts.reset();
  else if (req.path === '/__accounts/limits') {
    xAccounts.setLimits({
      ...(typeof body.limit === 'number' ? { limit: body.limit } : {}),
      ...(typeof body.windowS === 'number' ? { windowS: body.windowS } : {}),
    });
  } else if (req.path === '/__accounts/lock' && typeof body.auth_token === 'string') xAccounts.lock(body.auth_token);
  else if (req.path === '/__accounts/logout' && typeof body.auth_token === 'string') xAccounts.logout(body.auth_token);
  else if (req.path === '/__deploy/reset') xDeploy.reset();
  else if (req.path === '/__deploy/rotate') {
    const op = text(body.operation);
    if (!(OPERATION_NAMES as readonly string[]).includes(op))
      return json(400, { error: `operation must be one of ${OPERATION_NAMES.join(', ')}` });
    return json(200, { queryId: xDeploy.rotate(op as OperationName) });
  } else return null;
  return { status: 204, headers: {}, body: '' };
}

export const xGraphqlRoutes: RouteModule = {
  target: 'x',
  prefix: '/x',
  handle(req, { corpus }) {
    if (req.path.startsWith('/__accounts/') || req.path.startsWith('/__deploy/')) return control(req);
    const m = /^\/i\/api\/graphql\/([A-Za-z0-9_-]+)\/([A-Za-z]+)$/.exec(req.path);
    const op = m ? OPERATIONS[m[2]!] : undefined;
    if (!op || req.method !== 'GET') return null;
    // X's answer to a query id its current deploy does not know.
    if (xDeploy.queryId(m![2]!) !== m![1]) return json(404, { errors: [{ message: 'Query: Unspecified' }] });
    // Operations X protects with a transaction id answer a bare 404 to a missing or malformed one.
    const txHeader = req.headers['x-client-transaction-id'];
    if (SIGNED.has(m![2]!) && transactionIdProblem(typeof txHeader === 'string' ? txHeader : undefined, Date.now())) {
      return { status: 404, headers: {}, body: '' };
    }
    const admitted = xAccounts.admit(req.headers, m![2]!);
    if ('refuse' in admitted) return admitted.refuse;
    let variables: Vars;
    let features: unknown;
    try {
      variables = JSON.parse(req.query.get('variables') ?? '{}') as Vars;
      features = JSON.parse(req.query.get('features') ?? 'null');
    } catch {
      return withHeaders(errorsOnly(400, 214, 'BadRequest: variables and features must be JSON'), admitted.headers);
    }
    if (!req.query.get('features')) {
      return withHeaders(
        errorsOnly(
          400,
          336,
          'The following features cannot be null: responsive_web_graphql_timeline_navigation_enabled',
        ),
        admitted.headers,
      );
    }
    const answer = op(corpus, variables);
    const clientLanguage = req.headers['x-twitter-client-language'];
    const translated =
      typeof clientLanguage === 'string' && wantsGrokTranslations(features)
        ? withGrokTranslations(answer, corpus, clientLanguage)
        : answer;
    return withHeaders(translated, admitted.headers);
  },
};
