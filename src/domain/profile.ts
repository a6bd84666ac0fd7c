// The profile use case: the account and a page of its recent original posts.
import type { Author, Post } from './models.ts';
import type { Listed, ListSources, PageInput } from './lists.ts';
import { readPage } from './paging.ts';
import type { ProfileRead } from './reads.ts';
import type { ReadPolicy } from './sourced.ts';

/** A profile's own posts: replies and reposts are not part of "recent original posts". */
export function isOriginal(p: Post): boolean {
  return !p.repostOf && !p.replyTo;
}

export interface ProfileInput extends PageInput {
  handle: string;
}

/**
 * Filtering can leave a page short or empty without it being the end: the next cursor says whether there is
 * more. The profile is read once, before the first page of posts (a page=N walk reads it only once).
 */
export async function readProfile(src: ListSources, input: ProfileInput, policy: ReadPolicy): Promise<Listed<ProfileRead>> {
  const { handle } = input;
  let author: Author | undefined;
  const scope = { route: 'profile', query: handle.toLowerCase(), feed: '' };
  const page = await readPage(src.cursors, scope, input, policy, async (call) => {
    author ??= (await src.lists.profile(handle, call.policy)).value;
    return src.lists.timeline(handle, call);
  });
  if (!author) throw new Error('the profile is read before the first page');
  return { read: { profile: author, posts: page.items.filter(isOriginal), ...page.meta }, cache: page.cache };
}
