// The profile's Replies tab on the simulated GraphQL API (UserTweetsAndReplies), in the shape of twscrape's captures
// (upstreams.md §3.3): UserTweets' `data.user.result.timeline` with the account's posts, reposts and replies to
// anyone. A reply to another account's post comes as a `profile-conversation-{id}` VerticalConversation module, the
// post answered above the reply, as X's web app shows it; the first page carries a `who-to-follow-` module of
// suggested accounts between the entries, which a client has to skip.
import type { SimCorpus, SimUser } from '../corpus-types.ts';
import { timeline, visibility } from '../corpus-queries.ts';
import type { XEntry, XItemContent } from '../../src/providers/x/wire.ts';
import type { SimResponse } from './types.ts';
import { cursorEntry, moduleEntry, moduleItem, userEntry, xTweetResult } from './x-wire.ts';
import { addEntries, count, errorsOnly, ok, pageOrEnd, sortIndex, timelineEntry, type Vars } from './x-timeline.ts';
import { subject, userTimeline } from './x-graphql.ts';

/** Where the suggestions sit on the first page: after this many entries. */
const WHO_TO_FOLLOW_AT = 2;

function whoToFollow(c: SimCorpus, user: SimUser, sort: string): XEntry | undefined {
  const suggested = [...c.users.values()].find((u) => u.id !== user.id && !u.suspended && !u.protected);
  if (!suggested) return undefined;
  const { itemContent } = userEntry(suggested, sort).content as { itemContent: XItemContent };
  return moduleEntry(
    `who-to-follow-${sort}`,
    sort,
    [{ entryId: `who-to-follow-${sort}-user-${suggested.id}`, item: { itemContent } }],
    'Vertical',
  );
}

export function userTweetsAndReplies(c: SimCorpus, v: Vars): SimResponse {
  const user = subject(c, v);
  if (!('id' in user)) return user;
  const cursor = typeof v.cursor === 'string' ? v.cursor : null;
  const page = pageOrEnd(timeline(c, user, true), count(v, 20), cursor, `UserTweetsAndReplies:${user.id}`);
  if (page === 'invalid') return errorsOnly(400, 214, 'BadRequest: invalid cursor');
  const entries: XEntry[] = page.items.map((row, i) => {
    const sort = sortIndex(page.offset + i);
    const post = c.posts.get(row.postId)!;
    const parent = !row.repostedBy && post.replyToId ? c.posts.get(post.replyToId) : undefined;
    if (!parent || parent.authorId === post.authorId || visibility(c, parent.id) !== 'ok')
      return timelineEntry(c, row, sort);
    const items = [parent.id, post.id].map((id) =>
      moduleItem(`profile-conversation-${post.id}-tweet-${id}`, xTweetResult(c, id)!),
    );
    return moduleEntry(`profile-conversation-${post.id}`, sort, items);
  });
  const suggestions = cursor ? undefined : whoToFollow(c, user, sortIndex(page.offset + WHO_TO_FOLLOW_AT) + '5');
  if (suggestions && entries.length > WHO_TO_FOLLOW_AT) entries.splice(WHO_TO_FOLLOW_AT, 0, suggestions);
  entries.push(
    cursorEntry('Top', page.top, sortIndex(-1)),
    cursorEntry('Bottom', page.bottom, sortIndex(page.offset + page.items.length)),
  );
  return ok(userTimeline([{ type: 'TimelineClearCache' }, addEntries(entries)]));
}
