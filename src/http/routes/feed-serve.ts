// Feed routes' presentation: the feed use cases (domain/feed-reads.ts) give the posts and their provenance;
// this builds the entries, the feed metadata and the conditional response.
import { groupThreads, type FeedDoc, type FeedKind, type FeedType, type ThreadMode } from '../../domain/feeds.ts';
import { readListFeed, readProfileFeed, readSearchFeed, type FeedRead } from '../../domain/feed-reads.ts';
import { applyFilter, type FeedFilter, type TitleStyle } from '../../domain/feed-filters.ts';
import { readThreadFeed } from '../../domain/thread-feed.ts';
import { readProfileTab, readQuotes, type ProfileTab } from '../../domain/post-lists.ts';
import { tabSources } from './post-lists.ts';
import type { Post } from '../../domain/models.ts';
import type { SearchFeed } from '../../domain/capabilities.ts';
import type { WindowInput } from '../../domain/lists.ts';
import { searchCharge } from '../../domain/search.ts';
import { newerThan } from '../../domain/since.ts';
import { buildEntry, entryTitle, feedPerson } from '../../render/feed/entries.ts';
import { statusPath } from '../../domain/links.ts';
import { HUB_PATH } from '../../contract/watch-body.ts';
import { presentFeed, serializeFeed } from '../present/feeds.ts';
import { proxyMediaLinks } from '../present/media-links.ts';
import type { SerializedFeed } from '../../contract/rendered.ts';
import type { HandlerContext, Rendered } from '../../contract/route-decl.ts';
import type { RequestGuards, Services } from '../../contract/services.ts';
import type { ReadPolicy } from '../../domain/sourced.ts';
import { translatePosts } from '../../domain/translate-read.ts';

/**
 * What serving a feed reads: the request (key state, conditional headers) and the four services below. Each route
 * has already turned its typed path and query into the handles, search terms or list id and the FeedOptions.
 */
type FeedContext = Pick<HandlerContext, 'req' | 'guards'> & {
  services: Pick<Services, 'config' | 'lists' | 'feeds' | 'posts' | 'media' | 'tabs' | 'cursors' | 'translations'>;
};

export interface FeedOptions {
  type: FeedType;
  threads: ThreadMode;
  nocache: boolean;
  /** Canonical URL of the feed (atom:link rel="self"). */
  selfUrl: string;
  /** Only posts newer than this status id (a poller that keeps the newest id it has seen). */
  since?: string;
  /** A window of time (since ≤ time < until), read straight away through X search. */
  window?: WindowInput;
  /** Which posts the reader keeps (applied to what was read: filters never change the upstream read). */
  filter: FeedFilter;
  titleStyle: TitleStyle;
  /** The language to translate the posts into (canonical tag); the self link names it. */
  translate?: string;
}

/** The window in a feed's title: ` · from … to before …` (ISO 8601 UTC). */
function windowTitle(w: WindowInput | undefined): string {
  const { since, until } = w?.iso ?? {};
  if (since && until) return ` · from ${since} to before ${until}`;
  return since ? ` · since ${since}` : until ? ` · before ${until}` : '';
}

const KIND_LABEL: Record<FeedKind, string> = { posts: '', media: ' · media', with_replies: ' · posts and replies' };

/**
 * Rendering every post to HTML is the expensive part of a poll; the cached reads behind a feed change only when
 * the cache reloads them, so a poll inside the cache lifetime finds its body and ETag in the response cache.
 * Keyed by everything the feed is made from, so any change in the data (a poll's votes, a new post) is a
 * different entry, never a stale one.
 */
function feedOf(
  ctx: FeedContext,
  head: FeedHead,
  posts: Post[],
  opts: FeedOptions,
  places?: ReadonlyMap<string, string>,
): SerializedFeed {
  const { baseUrl, cacheTtlS: ttlS } = ctx.services.config;
  // Places are keyed as the entries of the posts kept: a grown thread renumbers its parts.
  const placeKey = places ? posts.map((p) => places.get(p.id) ?? '') : undefined;
  return ctx.services.feeds.byContent(
    {
      opts: {
        type: opts.type,
        threads: opts.threads,
        selfUrl: opts.selfUrl,
        filter: opts.filter,
        titleStyle: opts.titleStyle,
      },
      baseUrl,
      ttlS,
      head,
      posts,
      ...(placeKey ? { placeKey } : {}),
    },
    () => {
      const groups = opts.threads === 'grouped' ? groupThreads(posts) : posts.map((p) => [p]);
      const entryCtx = { baseUrl, titleStyle: opts.titleStyle, ...(places ? { places } : {}) };
      const entries = groups.map((g) => buildEntry(g, entryCtx));
      const updated = entries.reduce<string | undefined>(
        (max, e) => (max === undefined || Date.parse(e.updated) > Date.parse(max) ? e.updated : max),
        undefined,
      );
      const hubUrl = `${baseUrl}${HUB_PATH}`;
      return serializeFeed({ ...head, selfUrl: opts.selfUrl, hubUrl, entries, updated, ttlS }, opts.type, (text) =>
        proxyMediaLinks(text, ctx.services.media, baseUrl),
      );
    },
  );
}

type FeedHead = Omit<FeedDoc, 'entries' | 'updated' | 'ttlS' | 'selfUrl'>;

/** The feed's read policy: asked in the feed's language when it has one (see ReadPolicy.translate). */
function feedPolicy(ctx: FeedContext, opts: FeedOptions, o: Parameters<RequestGuards['policy']>[0]): ReadPolicy {
  const policy = ctx.guards.policy(o);
  return opts.translate ? { ...policy, translate: opts.translate } : policy;
}

async function respond(
  ctx: FeedContext,
  head: FeedHead,
  read: FeedRead,
  opts: FeedOptions,
  policy: ReadPolicy,
  places?: ReadonlyMap<string, string>,
): Promise<Rendered> {
  const key = ctx.guards.key;
  const kept = applyFilter(opts.filter, read.posts);
  const newer = opts.since === undefined ? kept : newerThan(kept, opts.since, (p) => p.id);
  let posts = newer;
  let warnings = read.warnings;
  if (opts.translate) {
    const t = await translatePosts(newer, opts.translate, ctx.services.translations, policy);
    posts = newer.map(t.apply);
    warnings = [...warnings, ...t.warnings];
    if (!t.settled) ctx.guards.degraded();
  }
  // A 304 is charged like the 200 it stands for: the live lookup behind it (if any) already happened, and
  // `If-None-Match: *` matches every body, so a refund here would make live lookups free.
  return presentFeed(feedOf(ctx, head, posts, opts, places), {
    source: read.source,
    cache: read.cache,
    warnings,
    keyStatus: key.status,
    keyed: key.status === 'valid',
    headers: ctx.req.headers,
  });
}

export async function serveProfileFeed(
  ctx: FeedContext,
  handles: string[],
  kind: FeedKind,
  opts: FeedOptions,
): Promise<Rendered> {
  const { config } = ctx.services;
  // A windowed feed reads X search: live search lookups, one charge per account read live.
  const policy = feedPolicy(ctx, opts, {
    nocache: opts.nocache,
    ...(opts.window ? { search: 'plain' as const } : {}),
  });
  const read = await readProfileFeed(ctx.services.lists, { handles, kind, window: opts.window }, policy);
  const { authors } = read;
  const base = config.baseUrl;
  const people = authors.map((a) => feedPerson(a, base));
  if (handles.length === 1) {
    const a = authors[0]!;
    const person = people[0]!;
    const bio = a.bio?.replace(/\s+/g, ' ').trim();
    return respond(
      ctx,
      {
        title: `${person.name} (@${a.handle})${KIND_LABEL[kind]}${windowTitle(opts.window)}`,
        description: bio || `Posts by @${a.handle} on X.`,
        homeUrl: person.url ?? base,
        ...(person.avatarUrl ? { imageUrl: person.avatarUrl } : {}),
        authors: people,
      },
      read,
      opts,
      policy,
    );
  }
  const names = authors.map((a) => `@${a.handle}`).join(', ');
  return respond(
    ctx,
    {
      title: `${names}${KIND_LABEL[kind]}${windowTitle(opts.window)}`,
      description: `Posts by ${names} on X, newest first.`,
      homeUrl: base,
      authors: people,
    },
    read,
    opts,
    policy,
  );
}

/** A search feed of a page of its own (a hashtag's): its title and the page the feed's home link names. */
export interface NamedSearchFeed {
  title: string;
  /** Path of the page, e.g. /hashtag/caching. */
  page: string;
}

export async function serveSearchFeed(
  ctx: FeedContext,
  q: string,
  feed: SearchFeed,
  opts: FeedOptions,
  named?: NamedSearchFeed,
): Promise<Rendered> {
  const { config } = ctx.services;
  const policy = feedPolicy(ctx, opts, { nocache: opts.nocache, search: searchCharge(feed) });
  const read = await readSearchFeed(ctx.services.lists, { q, feed, window: opts.window }, policy);
  const qs = new URLSearchParams(named ? { feed } : { q, feed });
  return respond(
    ctx,
    {
      title: `${named?.title ?? `Search: ${q}`} · ${feed}${windowTitle(opts.window)}`,
      description: `Posts on X matching “${q}” (${feed}).`,
      homeUrl: `${config.baseUrl}${named?.page ?? '/search'}?${qs.toString()}`,
      authors: [],
    },
    read,
    opts,
    policy,
  );
}

/** An X List's latest posts as a feed; account-backed, so live reads are charged to the account pool. */
export async function serveListFeed(ctx: FeedContext, id: string, opts: FeedOptions): Promise<Rendered> {
  const { config } = ctx.services;
  const policy = feedPolicy(ctx, opts, { nocache: opts.nocache, accountBacked: true });
  const read = await readListFeed(ctx.services.lists, { id }, policy);
  const { list } = read;
  const owner = feedPerson(list.owner, config.baseUrl);
  const about = list.description?.replace(/\s+/g, ' ').trim();
  return respond(
    ctx,
    {
      title: `${list.name} (X List by @${list.owner.handle})`,
      description: about || `Latest posts of the X List “${list.name}”.`,
      homeUrl: `${config.baseUrl}/i/lists/${encodeURIComponent(list.id)}`,
      authors: [owner],
    },
    read,
    opts,
    policy,
  );
}

/**
 * A conversation as it grows: the author's chain and the replies below it, one item per post, newest first, each
 * titled with its place in the conversation. Read through the post route's cached conversation.
 */
export async function serveThreadFeed(ctx: FeedContext, id: string, opts: FeedOptions): Promise<Rendered> {
  const { config } = ctx.services;
  const policy = feedPolicy(ctx, opts, { nocache: opts.nocache });
  const read = await readThreadFeed(ctx.services.posts, id, policy);
  if (read.degraded) ctx.guards.degraded();
  const { top } = read;
  const person = feedPerson(top.author, config.baseUrl);
  return respond(
    ctx,
    {
      title: `Thread by @${top.author.handle}: ${entryTitle([top])}`,
      description: `The conversation around a post by @${top.author.handle} on X: the author's thread and the replies, newest first.`,
      homeUrl: config.baseUrl + statusPath(read.requested.author.handle, read.requested.id),
      ...(person.avatarUrl ? { imageUrl: person.avatarUrl } : {}),
      authors: [person],
    },
    read,
    { ...opts, threads: 'separate' },
    policy,
    read.places,
  );
}

/** The latest posts quoting a post, newest first, read like the first page of the quotes route. */
export async function serveQuotesFeed(ctx: FeedContext, id: string, opts: FeedOptions): Promise<Rendered> {
  const { config } = ctx.services;
  const policy = feedPolicy(ctx, opts, { nocache: opts.nocache });
  const { read, cache } = await readQuotes(tabSources(ctx.services), { id }, policy);
  const { post } = read;
  const person = feedPerson(post.author, config.baseUrl);
  return respond(
    ctx,
    {
      title: `Quotes of @${post.author.handle}: ${entryTitle([post])}`,
      description: `Posts on X quoting a post by @${post.author.handle}, newest first.`,
      homeUrl: config.baseUrl + statusPath(post.author.handle, post.id),
      ...(person.avatarUrl ? { imageUrl: person.avatarUrl } : {}),
      authors: [person],
    },
    { posts: read.posts, source: read.source, cache, warnings: read.warnings },
    { ...opts, threads: 'separate' },
    policy,
  );
}

/**
 * The profile tabs with a feed of their own. The media tab has none: its feed is the profile feed of kind media
 * (/{handle}/media/rss, Nitter's path, and kind=media on the versioned route).
 */
export type FeedTab = Exclude<ProfileTab, 'media'>;

const TAB_FEED: Record<FeedTab, { label: string; about: (handle: string) => string }> = {
  articles: { label: 'Articles', about: (h) => `X Articles by @${h}, newest first, each whole.` },
};

/** A profile tab as a feed: the first page of the tab's route, read through the same cache. */
export async function serveTabFeed(
  ctx: FeedContext,
  handle: string,
  tab: FeedTab,
  opts: FeedOptions,
): Promise<Rendered> {
  const { config } = ctx.services;
  const policy = feedPolicy(ctx, opts, { nocache: opts.nocache });
  const { read, cache } = await readProfileTab(tabSources(ctx.services), { handle, tab }, policy);
  const a = read.profile;
  const person = feedPerson(a, config.baseUrl);
  return respond(
    ctx,
    {
      title: `${person.name} (@${a.handle}) · ${TAB_FEED[tab].label}`,
      description: TAB_FEED[tab].about(a.handle),
      homeUrl: `${config.baseUrl}/${encodeURIComponent(a.handle)}/${tab}`,
      ...(person.avatarUrl ? { imageUrl: person.avatarUrl } : {}),
      authors: [person],
    },
    { posts: read.posts, source: read.source, cache, warnings: read.warnings },
    { ...opts, threads: 'separate' },
    policy,
  );
}
