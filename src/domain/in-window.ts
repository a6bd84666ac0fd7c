// A date window is a promise about the answer, not only a hint to the upstream: the window travels to X search as
// operators, but an upstream that ignores them (or a fallback that cannot express them) would hand back posts from
// any time. What is read for a window keeps only the posts inside it.
import type { WindowInput } from './lists.ts';
import type { Post } from './models.ts';
import type { PageLoader } from './paging.ts';

/** A post's time, as the window judges it; a repost carries its original's time, which says nothing. */
export function postTime(p: Post): number | undefined {
  return p.repostOf ? undefined : Date.parse(p.createdAt);
}

type Placement = 'before' | 'inside' | 'after';

/** Where a time falls against the window; a time it says nothing about (undefined) counts as inside. */
function placer(window: WindowInput | undefined): ((at: number | undefined) => Placement) | undefined {
  const since = window?.iso.since === undefined ? undefined : Date.parse(window.iso.since);
  const until = window?.iso.until === undefined ? undefined : Date.parse(window.iso.until);
  if (since === undefined && until === undefined) return undefined;
  return (at) => {
    if (at === undefined || !Number.isFinite(at)) return 'inside';
    if (since !== undefined && at < since) return 'before';
    return until !== undefined && at >= until ? 'after' : 'inside';
  };
}

/** The posts of `posts` inside the window (all of them without one). */
export function postsInWindow(posts: Post[], window: WindowInput | undefined): Post[] {
  const place = placer(window);
  return place ? posts.filter((p) => place(postTime(p)) === 'inside') : posts;
}

/**
 * `load` with every item outside [since, until) left out. `timeOf` gives an item's time, or undefined for one the
 * window says nothing about (an account, a repost). When `newestFirst`, an item older than `since` means
 * everything after it is older too: the page is then the last.
 */
export function keepToWindow<T>(
  load: PageLoader<T>,
  window: WindowInput | undefined,
  timeOf: (item: T) => number | undefined,
  newestFirst: boolean,
): PageLoader<T> {
  const place = placer(window);
  if (!place) return load;
  return async (call) => {
    const got = await load(call);
    let passedStart = false;
    const items = got.value.items.filter((item) => {
      const where = place(timeOf(item));
      if (where === 'before') passedStart = true;
      return where === 'inside';
    });
    if (items.length === got.value.items.length) return got;
    const { nextCursor: _last, ...lastPage } = got.value;
    return { ...got, value: newestFirst && passedStart ? { ...lastPage, items } : { ...got.value, items } };
  };
}
