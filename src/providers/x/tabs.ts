// Pure translation of the X answers behind reposts and the media tab, in the shapes of twscrape's captures
// (tests/mocked-data/raw_retweeters.json, raw_user_media.json @9745b02): Retweeters answers
// `data.retweeters_timeline.timeline` with `user-{id}` TimelineUser entries and Top/Bottom cursors; UserMedia answers
// the profile timeline shape, its posts in a `profile-grid-0` VerticalGrid module that later pages append to.
import type { Author, Page } from '../../domain/models.ts';
import { ProviderError } from '../types.ts';
import { collectEntries, findCursor, missing, usersOf, withCursor } from './parse.ts';
import type { XEnvelope } from './wire.ts';

export function parseRetweetersPage(env: XEnvelope, id: string): Page<Author> {
  const tl = env.data?.retweeters_timeline?.timeline;
  if (!tl)
    throw missing(env, `reposts of ${id}`, new ProviderError('x', 'error', `X answered without reposts of ${id}`));
  const { entries } = collectEntries(tl);
  return withCursor(usersOf(entries), findCursor(entries, 'Bottom'));
}

/** X's search operator for the posts quoting a post (what X's own "Quotes" view asks SearchTimeline). */
export const quotesQuery = (id: string) => `quoted_tweet_id:${id}`;
