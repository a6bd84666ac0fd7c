// Pure translation of X's List operations: ListByRestId (`data.list`), ListLatestTweetsTimeline
// (`data.list.tweets_timeline.timeline`) and ListMembers (`data.list.members_timeline.timeline`), in the shapes
// twscrape's 2026 captures show. An absent `data.list` is X's way of saying the list does not exist (or is not
// visible to the session).
import type { Author, CuratedList, Page, Post } from '../../domain/models.ts';
import { ProviderError } from '../types.ts';
import { toIso } from '../shared/dates.ts';
import { collectEntries, findCursor, itemContents, missing, postsOf, readable, usersOf, withCursor } from './parse.ts';
import { parseUser } from './user.ts';
import type { XEnvelope, XTimeline } from './wire.ts';

const PROVIDER = 'x';

function listOf(env: XEnvelope, id: string): NonNullable<NonNullable<XEnvelope['data']>['list']> {
  const list = env.data?.list;
  if (!list || Object.keys(list).length === 0)
    throw missing(env, `list ${id}`, new ProviderError(PROVIDER, 'not_found', `X has no public list ${id}`));
  return list;
}

export function parseList(env: XEnvelope, id: string): CuratedList {
  const l = listOf(env, id);
  if (l.mode?.toLowerCase() === 'private') throw new ProviderError(PROVIDER, 'not_found', `list ${id} is private`);
  const owner = parseUser(l.user_results?.result);
  if (!owner || !l.name) throw new ProviderError(PROVIDER, 'error', `X answered with an unreadable list ${id}`);
  const out: CuratedList = { id: l.id_str ?? id, name: l.name, owner };
  if (l.description) out.description = l.description;
  if (typeof l.member_count === 'number') out.members = l.member_count;
  if (typeof l.subscriber_count === 'number') out.subscribers = l.subscriber_count;
  const created = toIso(l.created_at);
  if (created) out.createdAt = created;
  return out;
}

function timelineOf(env: XEnvelope, id: string, which: 'tweets_timeline' | 'members_timeline'): XTimeline {
  const tl = listOf(env, id)[which]?.timeline;
  if (!tl) throw new ProviderError(PROVIDER, 'error', `list ${id}: X answered without a timeline`);
  return tl;
}

/** A page of the list's latest posts: single `tweet-` entries and `list-conversation-` modules, newest first. */
export function parseListPostsPage(env: XEnvelope, id: string): Page<Post> {
  const { entries } = collectEntries(timelineOf(env, id, 'tweets_timeline'));
  const seen = new Set<string>();
  const items: Post[] = [];
  for (const e of entries) {
    if (!e.entryId.startsWith('tweet-') && !e.entryId.startsWith('list-conversation-')) continue;
    for (const p of postsOf(itemContents(e))) {
      if (readable(p) && !seen.has(p.id)) {
        seen.add(p.id);
        items.push(p);
      }
    }
  }
  return withCursor(items, findCursor(entries, 'Bottom'));
}

/** A page of the list's members: `user-{id}` TimelineUser entries; unavailable accounts are skipped. */
export function parseListMembersPage(env: XEnvelope, id: string): Page<Author> {
  const { entries } = collectEntries(timelineOf(env, id, 'members_timeline'));
  return withCursor(usersOf(entries), findCursor(entries, 'Bottom'));
}
