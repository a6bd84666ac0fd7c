// The export use case: an account's posts in one go, walked page after page through the same sources as the
// profile read (cached pages reused, concurrent misses coalesced) and handed out one by one as they are read, so
// the route can stream them. The walk stops at the window's start, the upstream's end, `maxPosts`, an upstream
// failure or the time limit, and says which, with a sealed cursor to resume from.
import { openCursor, type CursorScope, type CursorState } from './cursors.ts';
import { AllowanceRefused } from './failures.ts';
import { timelineFilter, type ListSources, type TimelineOptions, type WindowInput } from './lists.ts';
import type { Post } from './models.ts';
import { nextOf } from './paging.ts';
import { postPages } from './post-pages.ts';
import type { CacheStatus, ReadPolicy } from './sourced.ts';
import { MAX_TRANSLATED, translatePosts, type TranslationSource } from './translate-read.ts';

export const MAX_EXPORT_POSTS = 5000;
export const DEFAULT_EXPORT_POSTS = 1000;
/** Posts asked of the upstream per page: its largest page, so a 5,000-post export is about 50 reads. */
export const EXPORT_PAGE_SIZE = 100;

/** Why an export stopped. */
export const EXPORT_STOPS = [
  'max_posts',
  'window',
  'end_of_timeline',
  'upstream_error',
  'rate_limited',
  'time_limit',
] as const;
export type ExportStop = (typeof EXPORT_STOPS)[number];

export interface ExportInput {
  handle: string;
  window?: WindowInput;
  includes: TimelineOptions;
  maxPosts: number;
  /** The cursor of an earlier export's end, to continue where it stopped. */
  cursor?: string;
}

export interface ExportLimits {
  /** Epoch ms after which no further page is read (each page read has its own upstream deadline besides). */
  until?: number;
  now?: () => number;
  /** Posts per upstream page (default EXPORT_PAGE_SIZE). */
  pageSize?: number;
  /** Told where each page came from (provider, cache status), as it is read. */
  onPage?: (read: { source: string; cache: CacheStatus }) => void;
}

export interface ExportEnd {
  reason: ExportStop;
  /** Posts handed out by this export. */
  posts: number;
  /** Sealed position of the next post, when there may be more to read. */
  cursor?: string;
  /** What cut the export short (upstream_error, rate_limited). */
  error?: unknown;
  warnings: string[];
}

/** Cursors belong to the handle, the window and the timeline options, as the profile's do. */
function exportScope(input: ExportInput): CursorScope {
  const { replies, reposts } = input.includes;
  return {
    route: 'export',
    query: `${input.handle.toLowerCase()}|${input.window?.operators ?? ''}`,
    feed: `${replies ? 'r' : ''}${reposts ? 'p' : ''}`,
  };
}

interface Position {
  provider?: string;
  upstream?: string;
  page: number;
  /** Items of this page already delivered (or passed over), and the id of the last one. */
  skip: number;
  last?: string;
}

function resumeAt(src: ListSources, scope: CursorScope, cursor: string): Position {
  const state = openCursor(src.cursors, scope, cursor, 'export');
  return {
    ...(state.provider ? { provider: state.provider } : {}),
    ...(state.upstream ? { upstream: state.upstream } : {}),
    page: state.page,
    skip: state.skip ?? 0,
    ...(state.last ? { last: state.last } : {}),
  };
}

/** Where to start in a page: after the last item delivered when it is still there, else after `skip` items. */
function startIndex(items: Post[], pos: Position): number {
  if (pos.last !== undefined) {
    const at = items.findIndex((p) => p.id === pos.last);
    if (at >= 0) return at + 1;
  }
  return Math.min(pos.skip, items.length);
}

/** A validated export request: its cursor scope and where the walk starts. */
export interface ExportPlan {
  input: ExportInput;
  scope: CursorScope;
  start: Position;
}

/** Checks the cursor before anything is charged or read: a bad one is invalid_export_cursor. */
export function planExport(src: ListSources, input: ExportInput): ExportPlan {
  const scope = exportScope(input);
  return { input, scope, start: input.cursor ? resumeAt(src, scope, input.cursor) : { page: 1, skip: 0 } };
}

/**
 * Yields the posts of the export, newest first, and returns how it ended. A failure before the first post is
 * thrown (nothing was handed out: the caller answers with the problem); after it, the export ends with
 * `upstream_error` or `rate_limited` and a cursor at the page that failed, so nothing already handed out is lost.
 */
export async function* exportPosts(
  src: ListSources,
  plan: ExportPlan,
  policy: ReadPolicy,
  limits: ExportLimits = {},
): AsyncGenerator<Post, ExportEnd, void> {
  const { input, scope } = plan;
  let pos = plan.start;
  const author = (await src.lists.profile(input.handle, policy)).value;
  const load = postPages(src.lists, author.handle, input.window, { replies: input.includes.replies });
  const keep = timelineFilter(input.includes);
  const now = limits.now ?? Date.now;
  const { since, until } = input.window?.iso ?? {};
  const sinceMs = since === undefined ? undefined : Date.parse(since);
  const untilMs = until === undefined ? undefined : Date.parse(until);
  // X search (`from:`) returns no reposts, so a window cannot show them: say so rather than drop them silently.
  const warnings = new Set<string>(
    input.window && input.includes.reposts ? ['reposts are not available inside a date window'] : [],
  );
  let written = 0;
  const end = (reason: ExportStop, at?: Position, error?: unknown): ExportEnd => ({
    reason,
    posts: written,
    ...(at ? { cursor: src.cursors.seal(scope, sealable(at)) } : {}),
    ...(error !== undefined ? { error } : {}),
    warnings: [...warnings],
  });

  for (;;) {
    if (limits.until !== undefined && now() >= limits.until) return end('time_limit', pos);
    let got;
    try {
      got = await load({
        provider: pos.provider,
        cursor: pos.upstream,
        count: limits.pageSize ?? EXPORT_PAGE_SIZE,
        policy,
      });
    } catch (err) {
      if (written === 0) throw err;
      return end(err instanceof AllowanceRefused ? 'rate_limited' : 'upstream_error', pos, err);
    }
    limits.onPage?.({ source: got.source, cache: got.cache });
    // What a page had to leave out or degrade (a stale copy, a fallback search without cursor) is the export's too.
    for (const w of got.warnings) warnings.add(w);
    const items = got.value.items;
    const here: Position = { ...pos, provider: got.source };
    const next = nextOf(got.value.nextCursor, pos.upstream, got.source);
    for (let i = startIndex(items, pos); i < items.length; i++) {
      const p = items[i]!;
      const at = Date.parse(p.createdAt);
      // A repost carries the original's time, not the time of the repost: it says nothing about the window.
      if (!p.repostOf && sinceMs !== undefined && at < sinceMs) return end('window');
      if (untilMs !== undefined && !p.repostOf && at >= untilMs) continue;
      if (!keep(p)) continue;
      written++;
      yield p;
      if (written >= input.maxPosts) {
        const rest: Position | undefined =
          i + 1 < items.length
            ? { ...here, skip: i + 1, last: p.id }
            : next && { provider: next.provider, upstream: next.upstream, page: pos.page + 1, skip: 0 };
        return end('max_posts', rest);
      }
    }
    if (!next) return end(sinceMs !== undefined ? 'window' : 'end_of_timeline');
    pos = { provider: next.provider, upstream: next.upstream, page: pos.page + 1, skip: 0 };
  }
}

function sealable(at: Position): CursorState {
  return {
    provider: at.provider ?? '',
    upstream: at.upstream ?? '',
    page: at.page,
    ...(at.skip ? { skip: at.skip } : {}),
    ...(at.last ? { last: at.last } : {}),
  };
}

/**
 * The export's posts with their translations into `lang`: those the upstream attached to its pages (the walk's
 * policy asks in `lang`), and post by post the others, at most MAX_TRANSLATED per export so a long export cannot
 * turn into thousands of upstream calls; what is left untranslated is said once in the end's warnings.
 */
export async function* translatedExport(
  walk: AsyncGenerator<Post, ExportEnd, void>,
  lang: string,
  source: TranslationSource,
  policy: ReadPolicy,
): AsyncGenerator<Post, ExportEnd, void> {
  let left = MAX_TRANSLATED;
  let missed = 0;
  const failures: string[] = [];
  for (;;) {
    const next = await walk.next();
    if (next.done) {
      const warnings = [...failures.slice(0, 1)];
      if (missed > 0)
        warnings.push(`${missed} posts not translated into ${lang}: at most ${MAX_TRANSLATED} per export`);
      return { ...next.value, warnings: [...next.value.warnings, ...warnings] };
    }
    const t = await translatePosts([next.value], lang, source, policy, left);
    left -= t.asked;
    missed += t.passedOver;
    if (!t.settled) failures.push(...t.warnings.slice(0, 1));
    yield t.apply(next.value);
  }
}
