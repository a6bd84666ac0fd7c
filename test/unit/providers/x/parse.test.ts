// Parser tests on real captured X GraphQL answers (test/fixtures/x, see its README for sources).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isUnavailable, type Post } from '../../../../src/domain/models.ts';
import { ProviderError } from '../../../../src/providers/types.ts';
import {
  collectEntries,
  contentError,
  parseConversation,
  parseProfile,
  parseReplyPage,
  parseSearchPage,
  parseTimelinePage,
  parseUserPage,
} from '../../../../src/providers/x/parse.ts';
import { parsePoll, parseTweetResult, unwrapTweet } from '../../../../src/providers/x/post.ts';
import type { XEnvelope, XTweetResult } from '../../../../src/providers/x/wire.ts';
import { fixture } from '../fixtures.ts';

const x = (name: string) => fixture<XEnvelope>(`x/${name}`);

function rejectsWith(fn: () => unknown, kind: string, pattern?: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ProviderError, `expected ProviderError, got ${String(err)}`);
    assert.equal(err.kind, kind);
    assert.equal(err.provider, 'x');
    if (pattern) assert.match(err.message, pattern);
    return true;
  });
}

describe('x parse: TweetDetail (twscrape raw_tweet_details)', () => {
  const { bundle, nextCursor } = parseConversation(x('tweet_detail.json'), '1649191520250245121');

  it('reads the focal post with author, metrics, source and permalink', () => {
    const p = bundle.post;
    assert.equal(p.id, '1649191520250245121');
    assert.equal(p.url, 'https://x.com/XDevelopers/status/1649191520250245121');
    assert.equal(
      p.text,
      'Today, we are deprecating our Premium v1.1 API, including Premium Search and Account Activity API.',
    );
    assert.equal(p.createdAt, '2023-04-20T23:21:13.000Z');
    assert.deepEqual(p.metrics, { likes: 453, reposts: 220, quotes: 117, replies: 100, bookmarks: 73, views: 935947 });
    assert.equal(p.source, 'Twitter Web App');
    assert.equal(p.author.handle, 'XDevelopers');
    assert.equal(p.author.followers, 700242);
    assert.equal(p.author.verified, true);
    assert.equal(bundle.repliesAvailable, true);
    assert.equal(bundle.threadAvailable, true);
    assert.deepEqual(bundle.ancestors, []);
  });

  it('takes the SelfThread module as the author continuation, with expanded links', () => {
    assert.deepEqual(
      bundle.continuations.map((c) => c.id),
      ['1649191521323995138', '1649191522485817345'],
    );
    const second = bundle.continuations[1]!;
    assert.equal(second.replyTo?.id, '1649191521323995138');
    const link = second.segments.find((s) => s.type === 'link');
    assert.deepEqual(link, { type: 'link', text: 'https://shorturl.at/uwAKZ', href: 'https://shorturl.at/uwAKZ' });
    assert.ok(!second.text.includes('t.co'));
  });

  it('lists the other reply modules as top-level replies without the hidden reply prefix', () => {
    assert.deepEqual(
      bundle.replies.map((r) => r.post.id),
      ['1649367462897500160', '1667373163150278657'],
    );
    assert.equal(bundle.replies[0]!.post.text, 'Can y’all do me a solid ? Throw me a blue check off the strength ?');
    assert.equal(bundle.replies[0]!.post.author.handle, 'njg009');
  });

  it('reads a note tweet in full from note_tweet_results', () => {
    const note = bundle.replies[1]!.post;
    assert.ok(note.text.endsWith('Id rather not see my own tweets in my ‘for you’ 💕'), note.text);
    assert.ok(note.text.startsWith('Hey @TwitterDev'));
  });

  it('returns the bottom cursor (held in an item) for more replies', () => {
    assert.match(nextCursor ?? '', /^UgAAAPAxHBm/);
  });

  it('answers not_found when the focal post is missing from the answer', () => {
    rejectsWith(() => parseConversation(x('tweet_detail.json'), '1'), 'not_found');
  });

  it('reads a follow-up reply page (modules only) as reply nodes', () => {
    const page = parseReplyPage(x('tweet_detail.json'), '1649191520250245121');
    assert.ok(page.items.some((n) => n.post.id === '1649367462897500160'));
    assert.ok(page.nextCursor);
  });
});

describe('x parse: TweetDetail (FxEmbed mock, quote with visibility wrapper)', () => {
  const { bundle } = parseConversation(x('tweet_detail_visibility_quote.json'), '1902059299591090335');

  it('drops the media t.co link and picks the best mp4', () => {
    const p = bundle.post;
    assert.equal(p.text, '');
    assert.equal(p.media.length, 1);
    const m = p.media[0]!;
    assert.equal(m.kind, 'video');
    assert.match(m.url, /576x1280\/yhSQqEJfEU8wapy2\.mp4/);
    assert.equal(
      m.thumbnailUrl,
      'https://pbs.twimg.com/ext_tw_video_thumb/1902059279190052864/pu/img/DLoQFXU9gzkHQ2fh.jpg',
    );
    assert.equal(m.durationSeconds, 16.394);
    assert.equal(m.width, 576);
    assert.equal(m.height, 1280);
  });

  it('unwraps a TweetWithVisibilityResults quote', () => {
    const q = bundle.post.quote;
    assert.ok(q && !isUnavailable(q));
    assert.equal(q.id, '1900793157786255768');
    assert.equal(q.author.handle, '__itzt3z');
    assert.equal(q.text, 'the funniest tik toks be the ones they dont let you save');
  });
});

describe('x parse: cards and tombstones', () => {
  it('reads a two-choice poll card (twscrape card_poll)', () => {
    const { bundle } = parseConversation(x('tweet_detail_card_poll.json'), '1780666831310877100');
    assert.deepEqual(bundle.post.poll, {
      choices: [
        { label: 'Yes', votes: 844386, percent: 69.8 },
        { label: 'No', votes: 364677, percent: 30.2 },
      ],
      totalVotes: 1209063,
      // Captured just before the close (counts_are_final still false); its end time has passed, so it is final.
      final: true,
      endsAt: '2024-04-18T18:37:10.000Z',
    });
    assert.equal(bundle.post.card, undefined);
  });

  it('the same poll read before its end time is open', () => {
    // The capture's focal entry, read as plain JSON: data.threaded_conversation….instructions[].entries[0].
    type Raw = { entries?: { content: { itemContent: { tweet_results: { result: XTweetResult } } } }[] };
    const raw = fixture<{ data: { threaded_conversation_with_injections_v2: { instructions: Raw[] } } }>(
      'x/tweet_detail_card_poll.json',
    );
    const entry = raw.data.threaded_conversation_with_injections_v2.instructions.flatMap((i) => i.entries ?? [])[0]!;
    const tweet = unwrapTweet(entry.content.itemContent.tweet_results.result)!;
    const poll = parsePoll(tweet.card!.legacy!, Date.parse('2024-04-18T00:00:00Z'));
    assert.equal(poll?.final, false);
    assert.equal(poll?.totalVotes, 1209063);
  });

  it('turns tombstones and unavailable results into UnavailablePost', () => {
    const suspended = parseTweetResult({
      __typename: 'TweetTombstone',
      tombstone: { __typename: 'TextTombstone', text: { text: 'This account has been suspended.' } },
    });
    assert.deepEqual(suspended, {
      unavailable: true,
      reason: 'suspended',
      message: 'This account has been suspended.',
    });
    assert.deepEqual(parseTweetResult({ __typename: 'TweetUnavailable', reason: 'Protected' }), {
      unavailable: true,
      reason: 'private',
      message: 'Protected',
    });
  });

  it('a focal tombstone is not_found', () => {
    const env: XEnvelope = {
      data: {
        threaded_conversation_with_injections_v2: {
          instructions: [
            {
              type: 'TimelineAddEntries',
              entries: [
                {
                  entryId: 'tweet-42',
                  content: {
                    entryType: 'TimelineTimelineItem',
                    itemContent: {
                      itemType: 'TimelineTweet',
                      tweet_results: {
                        result: {
                          __typename: 'TweetTombstone',
                          tombstone: { text: { text: 'This Post was deleted by the Post author.' } },
                        },
                      },
                    },
                  },
                },
              ],
            },
          ],
        },
      },
    };
    rejectsWith(() => parseConversation(env, '42'), 'not_found', /deleted/);
  });
});

describe('x parse: users', () => {
  it('reads UserByScreenName (legacy shape)', () => {
    const a = parseProfile(x('user_by_screen_name.json'), 'XDevelopers');
    assert.equal(a.id, '2244994945');
    assert.equal(a.handle, 'XDevelopers');
    assert.equal(a.name, 'Developers');
    assert.equal(a.website, 'https://docs.x.com/');
    assert.equal(a.avatarUrl, 'https://pbs.twimg.com/profile_images/1683501992314798080/xl1POYLw_200x200.jpg');
    assert.equal(a.joined, '2013-12-14T04:35:55.000Z');
    assert.deepEqual([a.followers, a.following, a.posts, a.likes, a.mediaCount], [700242, 746, 4079, 2167, 821]);
    assert.equal(a.location, '127.0.0.1');
  });

  it('expands the website of the current user shape (profile_bio entities, no legacy URL entities)', () => {
    const a = parseProfile(x('user_by_screen_name_current.json'), 'XDevelopers');
    assert.equal(a.handle, 'XDevelopers');
    assert.equal(a.website, 'https://docs.x.com/');
  });

  it('maps suspended, unknown and DeadlineExceeded users', () => {
    rejectsWith(() => parseProfile(x('user_suspended.json'), 'gone'), 'not_found', /suspended/);
    rejectsWith(() => parseProfile(x('user_not_found.json'), 'nobody'), 'not_found');
    rejectsWith(() => parseProfile(x('deadline_exceeded_empty_user.json'), 'slow'), 'error', /DeadlineExceeded/);
    rejectsWith(() => parseTimelinePage(x('user_tweets_unavailable.json')), 'not_found');
  });

  it('reads a Followers page in the 2026 split user shape', () => {
    const page = parseUserPage(x('followers.json'));
    assert.deepEqual(
      page.items.map((a) => a.handle),
      ['leslieberland', 'bonappetweet'],
    );
    const b = page.items[1]!;
    assert.equal(b.name, 'bonappetweet');
    assert.equal(b.location, '9th & Market Street');
    assert.equal(b.website, 'http://www.cafebonappetit.com/twitter');
    assert.equal(b.joined, '2011-07-19T00:21:48.000Z');
    assert.equal(b.protected, false);
    assert.equal(page.items[0]!.verified, true);
    assert.equal(page.nextCursor, '1865803255256154935|2057507791211331512');
  });
});

describe('x parse: timelines and search', () => {
  it('leaves the pinned post out of the UserTweets page (timeline_v2) and keeps the cursor', () => {
    const page = parseTimelinePage(x('user_tweets.json'));
    assert.deepEqual(page.items, []);
    assert.equal(page.nextCursor, 'DAABCgABGgN1BW8__-oKAAIZgp02XhdRkwgAAwAAAAIAAA');
    const pin = collectEntries(x('user_tweets.json').data!.user!.result!.timeline_v2!.timeline).pinned[0]!;
    const post = parseTweetResult((pin.content as any).itemContent.tweet_results.result) as Post;
    assert.ok(post.text.endsWith('will have 2x higher access levels for free ⚡️'), 'note tweet read in full');
  });

  it('reads a SearchTimeline Latest page with its bottom cursor', () => {
    const page = parseSearchPage(x('search_latest.json'), 'posts');
    assert.deepEqual(
      page.items.map((i) => (i.kind === 'post' ? i.post.id : i.user.id)),
      ['1897829051819016464', '1897829041345880146'],
    );
    const first = page.items[0]!;
    assert.ok(first.kind === 'post');
    assert.equal(
      first.post.text,
      'Elon Musk will have an order of magnitude greater positive effect on humanity than Steve Jobs and Jobs was over the top.',
    );
    assert.deepEqual(first.post.replyTo, { handle: 'Teslaconomics', id: '1897626454109901157' });
    assert.match(page.nextCursor ?? '', /^DAADDAABCgABGlZxd64WwRAK.*ACCAAD/);
  });

  it('filters a Media page by media kind for the photos feed', () => {
    const page = parseSearchPage(x('search_latest.json'), 'posts', 'photo');
    assert.deepEqual(page.items, []);
  });

  it('maps a code 214 search error to an error ProviderError', () => {
    rejectsWith(
      () => parseSearchPage(x('search_empty_query_error.json'), 'posts'),
      'error',
      /ERROR_EMPTY_QUERY.*code 214/,
    );
    assert.equal(contentError({}, 'x'), undefined);
  });

  it('maps missing-post codes to not_found', () => {
    const err = contentError({ errors: [{ message: '_Missing: No status found with that ID.', code: 144 }] }, 'post 1');
    assert.equal(err?.kind, 'not_found');
  });
});

describe('x parse: timeline instructions', () => {
  it('applies TimelineReplaceEntry and TimelineAddToModule and skips ads and who-to-follow', () => {
    const tweet = (id: string, extra: Record<string, unknown> = {}) => ({
      itemType: 'TimelineTweet' as const,
      ...extra,
      tweet_results: {
        result: {
          __typename: 'Tweet' as const,
          rest_id: id,
          core: {
            user_results: {
              result: { __typename: 'User' as const, rest_id: '7', core: { screen_name: 'u', name: 'U' } },
            },
          },
          legacy: { full_text: `post ${id}`, created_at: 'Wed Oct 10 20:19:24 +0000 2018', entities: {} },
        },
      },
    });
    const env: XEnvelope = {
      data: {
        search_by_raw_query: {
          search_timeline: {
            timeline: {
              instructions: [
                {
                  type: 'TimelineAddEntries',
                  entries: [
                    { entryId: 'tweet-1', content: { itemContent: tweet('1') } },
                    { entryId: 'promoted-tweet-2', content: { itemContent: tweet('2') } },
                    { entryId: 'tweet-3', content: { itemContent: tweet('3', { promotedMetadata: {} }) } },
                    {
                      entryId: 'who-to-follow-4',
                      content: { items: [{ entryId: 'x', item: { itemContent: tweet('4') } }] },
                    },
                    {
                      entryId: 'search-grid-0',
                      content: { items: [{ entryId: 'search-grid-0-tweet-5', item: { itemContent: tweet('5') } }] },
                    },
                    { entryId: 'cursor-bottom-0', content: { cursorType: 'Bottom', value: 'old' } },
                  ],
                },
                {
                  type: 'TimelineAddToModule',
                  moduleEntryId: 'search-grid-0',
                  moduleItems: [{ entryId: 'search-grid-0-tweet-6', item: { itemContent: tweet('6') } }],
                },
                {
                  type: 'TimelineReplaceEntry',
                  entry_id_to_replace: 'cursor-bottom-0',
                  entry: { entryId: 'cursor-bottom-0', content: { cursorType: 'Bottom', value: 'new' } },
                },
              ],
            },
          },
        },
      },
    };
    const page = parseSearchPage(env, 'posts');
    assert.deepEqual(
      page.items.map((i) => (i.kind === 'post' ? i.post.id : '')),
      ['1', '5', '6'],
    );
    assert.equal(page.nextCursor, 'new');
  });
});
