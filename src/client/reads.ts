// The client's methods, one line per public read, keyed by the route's operationId (its parameter and result types
// come from that operationId's schemas in src/contract/reads.ts). `arg` names the method's first argument: a path
// parameter when the path holds {arg}, else a query parameter (search's q, oEmbed's url). A route in the table
// without a line here fails test/unit/client-coverage.test.ts.
import type { ReadName } from './contract-types.ts';
import type { ResultOf } from './types.ts';

/** How a read answers: one JSON document, cursor-paged JSON, a feed document, or an NDJSON export. */
export type ReadKind = 'one' | 'paged' | 'feed' | 'export';

export interface ReadEntry<N extends ReadName = ReadName> {
  op: N;
  path: string;
  kind: ReadKind;
  arg: string;
  /** For paged reads: the member of the body that holds the page's items. */
  items?: string;
}

const one = <N extends ReadName, A extends string>(op: N, path: string, arg: A) =>
  ({ op, path, arg, kind: 'one' }) as const;
const paged = <N extends ReadName, A extends string, I extends keyof ResultOf<N> & string>(
  op: N,
  path: string,
  arg: A,
  items: I,
) => ({ op, path, arg, items, kind: 'paged' }) as const;
const feed = <N extends ReadName, A extends string>(op: N, path: string, arg: A) =>
  ({ op, path, arg, kind: 'feed' }) as const;
const ndjson = <N extends ReadName, A extends string>(op: N, path: string, arg: A) =>
  ({ op, path, arg, kind: 'export' }) as const;

export const READS = {
  post: one('readPost', '/api/v1/posts', 'url'),
  profile: paged('readProfile', '/api/v1/profiles/{handle}', 'handle', 'posts'),
  profileById: paged('readProfileById', '/api/v1/users/{id}', 'id', 'posts'),
  followers: paged('listFollowers', '/api/v1/profiles/{handle}/followers', 'handle', 'items'),
  following: paged('listFollowing', '/api/v1/profiles/{handle}/following', 'handle', 'items'),
  search: paged('search', '/api/v1/search', 'q', 'items'),
  list: paged('readList', '/api/v1/lists/{id}', 'id', 'posts'),
  listMembers: paged('readListMembers', '/api/v1/lists/{id}/members', 'id', 'items'),
  export: ndjson('exportProfilePosts', '/api/v1/profiles/{handle}/posts', 'handle'),
  profileFeed: feed('profileFeed', '/api/v1/profiles/{handle}/feed', 'handle'),
  searchFeed: feed('searchFeed', '/api/v1/search/feed', 'q'),
  listFeed: feed('listFeed', '/api/v1/lists/{id}/feed', 'id'),
  threadFeed: feed('threadFeed', '/api/v1/posts/{id}/feed', 'id'),
  oembed: one('oembed', '/api/v1/oembed', 'url'),
  hashtag: paged('hashtag', '/api/v1/hashtags/{tag}', 'tag', 'items'),
  cashtag: paged('cashtag', '/api/v1/cashtags/{symbol}', 'symbol', 'items'),
  hashtagFeed: feed('hashtagFeed', '/api/v1/hashtags/{tag}/feed', 'tag'),
  cashtagFeed: feed('cashtagFeed', '/api/v1/cashtags/{symbol}/feed', 'symbol'),
  trends: one('trends', '/api/v1/trends', 'place'),
  quotes: paged('listQuotes', '/api/v1/posts/{id}/quotes', 'id', 'posts'),
  reposts: paged('listReposts', '/api/v1/posts/{id}/reposts', 'id', 'items'),
  media: paged('listMedia', '/api/v1/profiles/{handle}/media', 'handle', 'posts'),
  articles: paged('listArticles', '/api/v1/profiles/{handle}/articles', 'handle', 'posts'),
  about: one('readAbout', '/api/v1/profiles/{handle}/about', 'handle'),
  quotesFeed: feed('quotesFeed', '/api/v1/posts/{id}/quotes/feed', 'id'),
  articlesFeed: feed('articlesFeed', '/api/v1/profiles/{handle}/articles/feed', 'handle'),
} as const satisfies Record<string, ReadEntry>;

export type Reads = typeof READS;
