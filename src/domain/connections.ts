// The followers / following use case: a page of accounts, with a missing account told apart from an empty list.
import { isNotFound } from './failures.ts';
import type { Listed, ListSources, PageInput } from './lists.ts';
import { readPage } from './paging.ts';
import type { ConnectionsRead } from './reads.ts';
import type { ReadPolicy } from './sourced.ts';

export type ConnectionKind = 'followers' | 'following';

export interface ConnectionsInput extends PageInput {
  kind: ConnectionKind;
  handle: string;
}

export async function readConnections(
  src: ListSources,
  input: ConnectionsInput,
  policy: ReadPolicy,
): Promise<Listed<ConnectionsRead>> {
  const { kind, handle } = input;
  let checked = false;
  const scope = { route: kind, query: handle.toLowerCase(), feed: '' };
  const page = await readPage(src.cursors, scope, input, policy, async (call) => {
    if (checked) return src.lists.connections(kind, handle, call);
    checked = true;
    // A missing, suspended or protected account has no public list: upstreams answer that with an error or an
    // empty page, so the profile (cached, read alongside the first page) decides what is a 404.
    const [profile, first] = await Promise.allSettled([
      src.lists.profile(handle, call.policy),
      src.lists.connections(kind, handle, call),
    ]);
    if (profile.status === 'rejected' && isNotFound(profile.reason)) throw profile.reason;
    if (first.status === 'rejected') throw first.reason;
    return first.value;
  });
  return { read: { kind, handle, items: page.items, ...page.meta }, cache: page.cache };
}
