// Reposts, the media tab and account facts on the simulated GraphQL API, in the shapes of twscrape's captures @9745b02
// (tests/mocked-data/raw_retweeters.json, raw_user_media.json). Retweeters answers `data.retweeters_timeline.timeline`
// with `user-{id}` TimelineUser entries, then Top and Bottom cursors. UserMedia answers the profile timeline shape:
// the first page one `profile-grid-0` VerticalGrid module of `profile-grid-0-tweet-{id}` items plus the cursors,
// later pages a TimelineAddToModule into that module and the cursors replaced in place. UserArticlesTweets answers
// UserTweets' shape (what FxEmbed reads it as, validators.ts @85ba21c: `tweet-{id}` entries, then the cursors) with
// each Article compact, as the tab lists it: title, preview and cover, its body only on the post's own TweetDetail.
import type { SimCorpus } from '../corpus-types.ts';
import { findUser, profileTab, reposters, visibility } from '../corpus-queries.ts';
import type { XEntry, XInstruction, XTweetResult } from '../../src/providers/x/wire.ts';
import type { SimResponse } from './types.ts';
import { cursorEntry, moduleEntry, moduleItem, tweetEntry, userEntry, xTweetResult, xUser } from './x-wire.ts';
import { addEntries, count, errorsOnly, ok, pageOrEnd, sortIndex, text, type Vars } from './x-timeline.ts';
import { subject, userTimeline } from './x-graphql.ts';

function retweeters(c: SimCorpus, v: Vars): SimResponse {
  const id = text(v.tweetId);
  const users = visibility(c, id) === 'ok' ? reposters(c, id) : [];
  const cursor = typeof v.cursor === 'string' ? v.cursor : null;
  const page = pageOrEnd(users, count(v, 20), cursor, `Retweeters:${id}`);
  if (page === 'invalid') return errorsOnly(400, 214, 'BadRequest: invalid cursor');
  const entries: XEntry[] = page.items.map((u, i) => userEntry(u, sortIndex(page.offset + i)));
  entries.push(cursorEntry('Top', page.top, sortIndex(-1)), cursorEntry('Bottom', page.bottom, sortIndex(1_000_000)));
  return ok({ data: { retweeters_timeline: { timeline: { instructions: [addEntries(entries)] } } } });
}

function userMedia(c: SimCorpus, v: Vars): SimResponse {
  const user = subject(c, v);
  if (!('id' in user)) return user;
  const cursor = typeof v.cursor === 'string' ? v.cursor : null;
  const page = pageOrEnd(profileTab(c, user, 'media'), count(v, 20), cursor, `UserMedia:${user.id}`);
  if (page === 'invalid') return errorsOnly(400, 214, 'BadRequest: invalid cursor');
  const items = page.items.map((p) => moduleItem(`profile-grid-0-tweet-${p.id}`, xTweetResult(c, p.id)!, 'MediaGrid'));
  const top = cursorEntry('Top', page.top, sortIndex(-1));
  const bottom = cursorEntry('Bottom', page.bottom, sortIndex(1_000_000));
  const instructions: XInstruction[] = [{ type: 'TimelineClearCache' }];
  if (!cursor)
    instructions.push(addEntries([moduleEntry('profile-grid-0', sortIndex(0), items, 'VerticalGrid'), top, bottom]));
  else {
    instructions.push(
      { type: 'TimelineAddToModule', moduleEntryId: 'profile-grid-0', moduleItems: items },
      { type: 'TimelineReplaceEntry', entry_id_to_replace: top.entryId, entry: top },
      { type: 'TimelineReplaceEntry', entry_id_to_replace: bottom.entryId, entry: bottom },
    );
  }
  return ok(userTimeline(instructions));
}

/** The tab's compact Article: the body (`content_state`) and its images (`media_entities`) left out. */
function compactArticle(t: XTweetResult): XTweetResult {
  const full = t.__typename === 'Tweet' ? t.article?.article_results?.result : undefined;
  if (t.__typename !== 'Tweet' || !full) return t;
  const { content_state: _body, media_entities: _images, ...compact } = full;
  return { ...t, article: { article_results: { result: compact } } };
}

function userArticles(c: SimCorpus, v: Vars): SimResponse {
  const user = subject(c, v);
  if (!('id' in user)) return user;
  const cursor = typeof v.cursor === 'string' ? v.cursor : null;
  const page = pageOrEnd(profileTab(c, user, 'articles'), count(v, 20), cursor, `UserArticlesTweets:${user.id}`);
  if (page === 'invalid') return errorsOnly(400, 214, 'BadRequest: invalid cursor');
  const entries: XEntry[] = page.items.map((p, i) =>
    tweetEntry(`tweet-${p.id}`, sortIndex(page.offset + i), compactArticle(xTweetResult(c, p.id)!)),
  );
  entries.push(cursorEntry('Top', page.top, sortIndex(-1)), cursorEntry('Bottom', page.bottom, sortIndex(1_000_000)));
  return ok(userTimeline([{ type: 'TimelineClearCache' }, addEntries(entries)]));
}

/**
 * AboutAccountQuery (twscrape raw_user_about.json): the user's core fields with `about_profile` (counts and times as
 * strings), `affiliates_highlighted_label` (empty when none) and `verification_info.reason.verified_since_msec`.
 */
function aboutAccount(c: SimCorpus, v: Vars): SimResponse {
  const user = findUser(c, text(v.screenName));
  if (!user) return ok({ data: {} });
  const base = xUser(user);
  if (user.suspended) return ok({ data: { user_result_by_screen_name: { result: base } } });
  const a = user.about;
  const result = {
    ...base,
    ...(a
      ? {
          about_profile: {
            account_based_in: a.basedIn,
            location_accurate: a.locationAccurate,
            created_country_accurate: true,
            source: a.source,
            ...(a.affiliate ? { affiliate_username: a.affiliate.handle } : {}),
            username_changes: {
              count: String(a.usernameChanges),
              ...(a.lastUsernameChange ? { last_changed_at_msec: String(a.lastUsernameChange) } : {}),
            },
          },
        }
      : {}),
    affiliates_highlighted_label: a?.affiliate
      ? {
          label: {
            description: a.affiliate.name,
            url: { url: `https://twitter.com/${a.affiliate.handle}`, urlType: 'DeepLink' },
            badge: { url: `https://pbs.twimg.com/profile_images/${a.affiliate.handle}_bigger.jpg` },
            userLabelType: 'BusinessLabel',
            userLabelDisplayType: 'Badge',
          },
        }
      : {},
    ...(user.verified !== null && a?.verifiedSince
      ? { verification_info: { is_identity_verified: false, reason: { verified_since_msec: String(a.verifiedSince) } } }
      : {}),
  };
  return ok({ data: { user_result_by_screen_name: { result } } });
}

export const TAB_OPERATIONS: Record<string, (c: SimCorpus, v: Vars) => SimResponse> = {
  Retweeters: retweeters,
  UserMedia: userMedia,
  UserArticlesTweets: userArticles,
  AboutAccountQuery: aboutAccount,
};
