// The X List use cases: a page of a list's latest posts, or of its members, each with the list itself (name,
// description, owner, member count) so the reader knows what it is looking at. X Lists are read only through
// account-backed providers; an id the platform cannot have issued is not_found without asking any of them.
import type { CuratedList, Page } from './models.ts';
import { DomainError } from './errors.ts';
import { isNotFound } from './failures.ts';
import { canBeListId } from './ids.ts';
import type { Listed, ListSources, PageInput } from './lists.ts';
import { readPage, type PageCall, type ReadPage } from './paging.ts';
import type { ListMembersRead, ListPostsRead } from './reads.ts';
import type { ReadPolicy, Sourced } from './sourced.ts';

export interface CuratedListInput extends PageInput {
  /** The list's numeric id (digits only; the route checks the shape). */
  id: string;
}

/** An id the platform cannot have issued is not_found before any upstream is asked. */
export function assertListId(id: string): void {
  if (!canBeListId(id)) throw new DomainError({ kind: 'impossible_id', of: 'list', id });
}

/**
 * One page of either list timeline. The list is read alongside the first page: a missing or private list makes
 * the timeline fail or come back empty upstream, so the list's own answer decides what is a 404.
 */
async function readListPage<T>(
  src: ListSources,
  route: 'list' | 'list-members',
  input: CuratedListInput,
  policy: ReadPolicy,
  load: (call: PageCall) => Promise<Sourced<Page<T>>>,
): Promise<ReadPage<T> & { list: CuratedList }> {
  assertListId(input.id);
  let list: CuratedList | undefined;
  const page = await readPage(src.cursors, { route, query: input.id, feed: '' }, input, policy, async (call) => {
    if (list) return load(call);
    const [info, first] = await Promise.allSettled([src.lists.list(input.id, call.policy), load(call)]);
    if (info.status === 'rejected') {
      if (isNotFound(info.reason)) throw info.reason;
      if (first.status === 'rejected') throw first.reason;
      throw info.reason;
    }
    if (first.status === 'rejected') throw first.reason;
    list = info.value.value;
    return first.value;
  });
  if (!list) throw new Error('the list is read with the first page');
  return { ...page, list };
}

/** The latest posts of the list's members, newest first, as X shows them (replies and reposts included). */
export async function readListPosts(
  src: ListSources,
  input: CuratedListInput,
  policy: ReadPolicy,
): Promise<Listed<ListPostsRead>> {
  const got = await readListPage(src, 'list', input, policy, (call) => src.lists.listPosts(input.id, call));
  return { read: { list: got.list, posts: got.items, ...got.meta }, cache: got.cache };
}

/** The accounts the list holds. */
export async function readListMembers(
  src: ListSources,
  input: CuratedListInput,
  policy: ReadPolicy,
): Promise<Listed<ListMembersRead>> {
  const got = await readListPage(src, 'list-members', input, policy, (call) => src.lists.listMembers(input.id, call));
  return { read: { list: got.list, items: got.items, ...got.meta }, cache: got.cache };
}
