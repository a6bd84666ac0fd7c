// X Lists on the simulated GraphQL API, in the shapes of twscrape's 2026 captures: ListByRestId answers
// `data.list` (owner under user_results), ListLatestTweetsTimeline `data.list.tweets_timeline.timeline` (tweet-
// entries, then top and bottom cursors), ListMembers `data.list.members_timeline.timeline` (user- entries; the
// end is a bottom cursor starting "0|", as on follow lists). A list no one has answers an empty `data`; a
// private list shows its mode on ListByRestId and no timelines.
import type { SimCorpus, SimList } from '../corpus-types.ts';
import { listTimeline } from '../corpus-queries.ts';
import { paginate } from '../cursor.ts';
import type { XEntry } from '../../src/providers/x/wire.ts';
import type { SimResponse } from './types.ts';
import { cursorEntry, userEntry, xUser } from './x-wire.ts';
import {
  addEntries,
  count,
  errorsOnly,
  ok,
  pageOrEnd,
  sortIndex,
  text,
  timelineEntries,
  type Vars,
} from './x-timeline.ts';

function listOf(c: SimCorpus, v: Vars, privateToo = false): SimList | undefined {
  const list = c.lists.get(text(v.listId));
  return list && (privateToo || !list.private) ? list : undefined;
}

function listByRestId(c: SimCorpus, v: Vars): SimResponse {
  const l = listOf(c, v, true);
  if (!l) return ok({ data: {} });
  return ok({
    data: {
      list: {
        __typename: 'List',
        id: Buffer.from(`List:${l.id}`).toString('base64'),
        id_str: l.id,
        name: l.name,
        description: l.description,
        member_count: l.memberIds.length,
        subscriber_count: l.subscribers,
        mode: l.private ? 'Private' : 'Public',
        created_at: l.createdAt,
        user_results: { result: xUser(c.users.get(l.ownerId)!) },
      },
    },
  });
}

function listTweets(c: SimCorpus, v: Vars): SimResponse {
  const l = listOf(c, v);
  if (!l) return ok({ data: {} });
  const cursor = typeof v.cursor === 'string' ? v.cursor : null;
  const page = pageOrEnd(listTimeline(c, l), count(v, 20), cursor, `ListLatestTweetsTimeline:${l.id}`);
  if (page === 'invalid') return errorsOnly(400, 214, 'BadRequest: invalid cursor');
  const entries = timelineEntries(c, page);
  return ok({ data: { list: { tweets_timeline: { timeline: { instructions: [addEntries(entries)] } } } } });
}

function listMembers(c: SimCorpus, v: Vars): SimResponse {
  const l = listOf(c, v);
  if (!l) return ok({ data: {} });
  const cursor = typeof v.cursor === 'string' ? v.cursor : null;
  const members = l.memberIds.map((id) => c.users.get(id)!);
  const page = paginate(members, count(v, 20), cursor, `ListMembers:${l.id}`);
  if (page === 'invalid') return errorsOnly(400, 214, 'BadRequest: invalid cursor');
  const entries: XEntry[] = page.items.map((u, i) => userEntry(u, sortIndex(i)));
  entries.push(cursorEntry('Bottom', page.bottom ?? `0|${sortIndex(entries.length)}`, sortIndex(entries.length)));
  entries.push(cursorEntry('Top', `-1|${sortIndex(0)}`, sortIndex(-1)));
  return ok({
    data: {
      list: {
        members_timeline: {
          timeline: {
            instructions: [
              { type: 'TimelineClearCache' },
              { type: 'TimelineTerminateTimeline', direction: 'Top' },
              addEntries(entries),
            ],
          },
        },
      },
    },
  });
}

export const LIST_OPERATIONS: Record<string, (c: SimCorpus, v: Vars) => SimResponse> = {
  ListByRestId: listByRestId,
  ListLatestTweetsTimeline: listTweets,
  ListMembers: listMembers,
};
