// The profile use case: the account and a page of its recent original posts (its self-thread continuations
// included), optionally within a date window.
import type { Author } from './models.ts';
import {
  timelineFilter,
  type Listed,
  type ListSources,
  type PageInput,
  type TimelineOptions,
  type WindowInput,
} from './lists.ts';
import { DEFAULT_LIMIT, readPage } from './paging.ts';
import { postPages } from './post-pages.ts';
import { newerThan, reachesSince } from './since.ts';
import type { ProfileRead } from './reads.ts';
import type { ReadPolicy } from './sourced.ts';

/** A profile named by its handle, or by its numeric account id (whatever the handle is today). */
export type ProfileRef = { handle: string } | { accountId: string };

export interface ProfileInput extends PageInput {
  ref: ProfileRef;
  window?: WindowInput;
  /** Incremental read: only posts newer than this status id. */
  sinceId?: string;
  /** Replies to others and reposts shown besides the account's own posts (default: neither). */
  includes?: TimelineOptions;
}

/**
 * Filtering can leave a page short or empty without it being the end: the next cursor says whether there is
 * more. The profile is read once, before the first page of posts (a page=N walk reads it only once). A window
 * jumps straight to its time through X search instead of paging the timeline down to it; cursors are tied to it.
 */
export async function readProfile(
  src: ListSources,
  input: ProfileInput,
  policy: ReadPolicy,
): Promise<Listed<ProfileRead>> {
  const { ref, window } = input;
  const ops = window?.operators ?? '';
  const byId = 'accountId' in ref;
  const includes = input.includes ?? { replies: false, reposts: false };
  const keep = timelineFilter(includes);
  // Cursors are tied to the timeline options as well as to the window.
  const flags = `${includes.replies ? 'r' : ''}${includes.reposts ? 'p' : ''}`;
  const scope = byId
    ? { route: 'profile-id', query: `${ref.accountId}|${ops}`, feed: flags }
    : { route: 'profile', query: `${ref.handle.toLowerCase()}${ops ? `|${ops}` : ''}`, feed: flags };
  let author: Author | undefined;
  const { sinceId } = input;
  const page = await readPage(
    src.cursors,
    scope,
    input,
    policy,
    async (call) => {
      author ??= (
        await (byId ? src.lists.profileById(ref.accountId, call.policy) : src.lists.profile(ref.handle, call.policy))
      ).value;
      // Pages are cut from the posts the read shows, not from what the timeline holds, so replies and reposts in
      // between never take a post's place on a page; full upstream pages, whatever the limit, give each page
      // enough to cut from, and every limit the same upstream pages (and cache entries).
      const got = await postPages(src.lists, author.handle, window, {
        replies: includes.replies,
      })({ ...call, count: Math.max(call.count, DEFAULT_LIMIT) });
      return { ...got, value: { ...got.value, items: got.value.items.filter(keep) } };
    },
    (items) => sinceId !== undefined && reachesSince(items, sinceId, (p) => p.id),
  );
  if (!author) throw new Error('the profile is read before the first page');
  const posts = page.items;
  // X search (`from:`) returns no reposts, so a window cannot show them: say so rather than drop them silently.
  const warnings =
    window && includes.reposts
      ? [...page.meta.warnings, 'reposts are not available inside a date window']
      : page.meta.warnings;
  return {
    read: {
      profile: author,
      posts: sinceId === undefined ? posts : newerThan(posts, sinceId, (p) => p.id),
      ...(window ? { window: window.iso } : {}),
      ...(includes.replies || includes.reposts ? { includes } : {}),
      ...page.meta,
      warnings,
    },
    cache: page.cache,
  };
}
