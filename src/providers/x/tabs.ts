// Translation of the X answers behind reposts and the profile tabs (pure, but for the Articles' bodies, read through
// the function handed in), in the shapes of twscrape's captures
// (tests/mocked-data/raw_retweeters.json, raw_user_media.json @9745b02): Retweeters answers
// `data.retweeters_timeline.timeline` with `user-{id}` TimelineUser entries and Top/Bottom cursors; UserMedia answers
// the profile timeline shape, its posts in a `profile-grid-0` VerticalGrid module that later pages append to.
// UserArticlesTweets answers UserTweets' shape (FxEmbed reads both from `data.user.result.timeline.timeline`,
// validators.ts @85ba21c) with each Article compact: title, preview and cover, no body (FxEmbed fetches the body
// again by id; public clients ask this operation for no more than `withArticlePlainText`).
// UserTweetsAndReplies (the Replies tab) answers UserTweets' shape too, in its `timeline` and older `timeline_v2`
// nesting, with each reply to someone else's post in a `profile-conversation-` module under the post it answers.
import type { Author, Page, Post } from '../../domain/models.ts';
import { ProviderError } from '../types.ts';
import { collectEntries, findCursor, missing, parseTimelinePage, usersOf, withCursor } from './parse.ts';
import type { XEnvelope } from './wire.ts';

export function parseRetweetersPage(env: XEnvelope, id: string): Page<Author> {
  const tl = env.data?.retweeters_timeline?.timeline;
  if (!tl)
    throw missing(env, `reposts of ${id}`, new ProviderError('x', 'error', `X answered without reposts of ${id}`));
  const { entries } = collectEntries(tl);
  return withCursor(usersOf(entries), findCursor(entries, 'Bottom'));
}

/**
 * A page of the Replies tab: the account's posts and its replies, newest first. The posts answered stand above each
 * reply as context; they are other accounts' posts, not the account's timeline, so only `ownerId`'s are kept (a
 * repost is the account's entry too: its author is the reposter).
 */
export function parseRepliesPage(env: XEnvelope, ownerId: string): Page<Post> {
  const page = parseTimelinePage(env);
  return { ...page, items: page.items.filter((p) => p.author.id === ownerId) };
}

/** A page of the Articles tab: the posts carrying an Article, most of them without its body yet. */
export function parseArticlesPage(env: XEnvelope): Page<Post> {
  const page = parseTimelinePage(env);
  return { ...page, items: page.items.filter((p) => p.article !== undefined) };
}

/** An Article listed without its body (the tab's compact form): its post has to be read for the rest. */
export const lacksArticleBody = (p: Post): boolean => p.article !== undefined && p.article.blocks.length === 0;

/** The listed post with its Article whole, from the post's own read; the listing's when that read has none. */
export function withArticleBody(listed: Post, read: Post): Post {
  return read.id === listed.id && read.article ? read : listed;
}

/**
 * The page's Articles whole: each one listed without its body is read again through `readPost`, one at a time to
 * spare the sessions. One gone since the listing (not_found) is left out; any other failure fails the page, so a
 * page with an Article cut to its preview is never served or cached.
 */
export async function withArticleBodies(items: Post[], readPost: (id: string) => Promise<Post>): Promise<Post[]> {
  const out: Post[] = [];
  for (const listed of items) {
    if (!lacksArticleBody(listed)) {
      out.push(listed);
      continue;
    }
    try {
      out.push(withArticleBody(listed, await readPost(listed.id)));
    } catch (err) {
      if (!(err instanceof ProviderError && err.kind === 'not_found')) throw err;
    }
  }
  return out;
}

/** X's search operator for the posts quoting a post (what X's own "Quotes" view asks SearchTimeline). */
export const quotesQuery = (id: string) => `quoted_tweet_id:${id}`;
