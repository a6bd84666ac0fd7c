// Loading and assembling feeds: the same cached reads as the profile and search routes (so a poll inside the
// cache lifetime never reaches an upstream), then entries, feed metadata and the conditional response.
import { LRUCache } from 'lru-cache';
import {
  groupThreads, mergePosts, selectPosts, type FeedDoc, type FeedKind, type FeedType, type ThreadMode,
} from '../../domain/feeds.ts';
import type { Author, Post } from '../../domain/models.ts';
import type { CacheStatus, ReadPolicy, Sourced } from '../../domain/sourced.ts';
import type { SearchFeed } from '../../providers/types.ts';
import { isProblem } from '../../problems/problem.ts';
import { newerThan } from '../../domain/since.ts';
import { buildEntry, feedPerson } from '../../render/feed/entries.ts';
import { keyStateOf } from '../key-state.ts';
import { presentFeed, serializeFeed, type SerializedFeed } from '../present/feeds.ts';
import { entityTagOf } from '../entity-tags.ts';
import type { HandlerContext as Handled, Rendered } from '../route-decl.ts';
import { DEFAULT_LIMIT } from './list-params.ts';
import { ACCOUNT_FEEDS } from './search.ts';

/** Feed handlers read only the request and the services; each route keeps its own query and path types. */
type HandlerContext = Handled<object, object>;

export interface FeedOptions {
  type: FeedType;
  threads: ThreadMode;
  nocache: boolean;
  /** Canonical URL of the feed (atom:link rel="self"). */
  selfUrl: string;
  /** Only posts newer than this status id (a poller that keeps the newest id it has seen). */
  since?: string;
}

const KIND_LABEL: Record<FeedKind, string> = { posts: '', media: ' · media', with_replies: ' · posts and replies' };

interface Loaded {
  posts: Post[];
  sources: string[];
  caches: CacheStatus[];
  warnings: string[];
}

/** The most telling cache status of several reads: any stale read makes the feed stale, then any miss. */
function overallCache(caches: CacheStatus[]): CacheStatus {
  for (const c of ['stale', 'miss', 'bypass'] as const) if (caches.includes(c)) return c;
  return 'hit';
}

function collect(into: Loaded, got: Sourced<unknown>): void {
  into.sources.push(got.source);
  into.caches.push(got.cache);
  into.warnings.push(...got.warnings);
}

/**
 * Rendered feeds by everything they are made from. Rendering every post to HTML is the expensive part of a
 * poll; the cached reads behind a feed change only when the cache reloads them, so a poll inside the cache
 * lifetime finds its body and ETag here. Keyed by a digest of the inputs, so any change in the data (a poll's
 * votes, a new post) is a different entry, never a stale one.
 */
const rendered = new LRUCache<string, SerializedFeed>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (f) => f.body.length + 64 });

function feedOf(head: FeedHead, posts: Post[], opts: FeedOptions, baseUrl: string, ttlS: number): SerializedFeed {
  const key = entityTagOf(JSON.stringify([opts.type, opts.threads, opts.selfUrl, baseUrl, ttlS, head, posts]));
  const hit = rendered.get(key);
  if (hit) return hit;
  const groups = opts.threads === 'grouped' ? groupThreads(posts) : posts.map((p) => [p]);
  const entries = groups.map((g) => buildEntry(g, { baseUrl }));
  const updated = entries.reduce<string | undefined>((max, e) => (max === undefined || Date.parse(e.updated) > Date.parse(max) ? e.updated : max), undefined);
  const feed = serializeFeed({ ...head, selfUrl: opts.selfUrl, entries, updated, ttlS }, opts.type);
  rendered.set(key, feed);
  return feed;
}

type FeedHead = Omit<FeedDoc, 'entries' | 'updated' | 'ttlS' | 'selfUrl'>;

async function respond(ctx: HandlerContext, head: FeedHead, loaded: Loaded, opts: FeedOptions): Promise<Rendered> {
  const { config } = ctx.services;
  const key = keyStateOf(ctx.req);
  const posts = opts.since === undefined ? loaded.posts : newerThan(loaded.posts, opts.since, (p) => p.id);
  // A 304 is charged like the 200 it stands for: the live lookup behind it (if any) already happened, and
  // `If-None-Match: *` matches every body, so a refund here would make live lookups free.
  return presentFeed(feedOf(head, posts, opts, config.baseUrl, config.cacheTtlS), {
    source: [...new Set(loaded.sources)].join(','),
    cache: overallCache(loaded.caches),
    warnings: loaded.warnings,
    keyStatus: key.status,
    keyed: key.status === 'valid',
    headers: ctx.req.headers,
  });
}

async function loadAccount(ctx: HandlerContext, handle: string, kind: FeedKind, policy: ReadPolicy, into: Loaded): Promise<Author> {
  const { lists } = ctx.services;
  const profile = await lists.profile(handle, policy);
  const timeline = await lists.timeline(handle, { count: DEFAULT_LIMIT, policy });
  collect(into, profile);
  collect(into, timeline);
  into.posts.push(...selectPosts(timeline.value.items, kind));
  return profile.value;
}

/**
 * One account's feed, or several merged newest first. In a merged feed an account that is not public is
 * left out with a warning (the others still deserve their feed); any other failure fails the feed, so the
 * reader retries rather than caching a feed with a hole in it.
 */
export async function serveProfileFeed(ctx: HandlerContext, handles: string[], kind: FeedKind, opts: FeedOptions): Promise<Rendered> {
  const { config, guards } = ctx.services;
  const policy = guards.policy(ctx.req, { nocache: opts.nocache });
  const perAccount = handles.map(() => ({ posts: [], sources: [], caches: [], warnings: [] }) as Loaded);
  const settled = await Promise.allSettled(handles.map((h, i) => loadAccount(ctx, h, kind, policy, perAccount[i]!)));
  const authors: Author[] = [];
  const loaded: Loaded = { posts: [], sources: [], caches: [], warnings: [] };
  settled.forEach((r, i) => {
    if (r.status === 'fulfilled') {
      authors.push(r.value);
      const one = perAccount[i]!;
      loaded.sources.push(...one.sources);
      loaded.caches.push(...one.caches);
      loaded.warnings.push(...one.warnings);
    } else if (handles.length > 1 && isProblem(r.reason) && r.reason.code === 'not_found') {
      loaded.warnings.push(`@${handles[i]} left out: not public`);
    } else {
      throw r.reason;
    }
  });
  if (authors.length === 0) throw (settled.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason;
  loaded.posts = mergePosts(perAccount.map((a) => a.posts));

  const base = config.baseUrl;
  const people = authors.map((a) => feedPerson(a, base));
  if (handles.length === 1) {
    const a = authors[0]!;
    const person = people[0]!;
    const bio = a.bio?.replace(/\s+/g, ' ').trim();
    return respond(
      ctx,
      {
        title: `${person.name} (@${a.handle})${KIND_LABEL[kind]}`,
        description: bio || `Posts by @${a.handle} on X.`,
        homeUrl: person.url,
        ...(person.avatarUrl ? { imageUrl: person.avatarUrl } : {}),
        authors: people,
      },
      loaded,
      opts,
    );
  }
  const names = authors.map((a) => `@${a.handle}`).join(', ');
  return respond(
    ctx,
    { title: `${names}${KIND_LABEL[kind]}`, description: `Posts by ${names} on X, newest first.`, homeUrl: base, authors: people },
    loaded,
    opts,
  );
}

export async function serveSearchFeed(ctx: HandlerContext, q: string, feed: SearchFeed, opts: FeedOptions): Promise<Rendered> {
  const { config, guards, lists } = ctx.services;
  const policy = guards.policy(ctx.req, { nocache: opts.nocache, search: ACCOUNT_FEEDS.has(feed) ? 'account' : 'plain' });
  const got = await lists.search(q, feed, { count: DEFAULT_LIMIT, policy });
  const loaded: Loaded = { posts: [], sources: [], caches: [], warnings: [] };
  collect(loaded, got);
  loaded.posts = got.value.items.flatMap((i) => (i.kind === 'post' ? [i.post] : []));
  // Search order (top is not chronological) is kept; only a merge re-sorts.
  const qs = new URLSearchParams({ q, feed });
  return respond(
    ctx,
    {
      title: `Search: ${q} · ${feed}`,
      description: `Posts on X matching “${q}” (${feed}).`,
      homeUrl: `${config.baseUrl}/search?${qs.toString()}`,
      authors: [],
    },
    loaded,
    opts,
  );
}
