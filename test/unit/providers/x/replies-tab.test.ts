// X's Replies tab (UserTweetsAndReplies) in both of its forms, on fixtures built from captured posts
// (test/fixtures/x/README.md): `data.user.result.timeline` with the 2026 user shape and
// `data.user.result.timeline_v2` with the older legacy one. A page holds `tweet-` entries, `profile-conversation-`
// modules (the post answered, by someone else, above the account's reply), a `who-to-follow-` module and a pinned
// entry; only the account's own posts are its timeline. Pages asked in a language carry X's Grok translations on
// their posts, reposted posts included: one page read translates the page.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRepliesPage } from '../../../../src/providers/x/tabs.ts';
import { parseListPostsPage } from '../../../../src/providers/x/lists.ts';
import { inlineTranslator } from '../../../../src/providers/x/translation.ts';
import { ProviderError } from '../../../../src/providers/types.ts';
import type { XEnvelope } from '../../../../src/providers/x/wire.ts';
import { timelineFilter } from '../../../../src/domain/lists.ts';
import { fixture } from '../fixtures.ts';

const x = (name: string) => fixture<XEnvelope>(`x/${name}`);
const XDEVELOPERS = '2244994945';

describe('x parse: UserTweetsAndReplies (timeline form)', () => {
  const page = parseRepliesPage(x('user_tweets_and_replies.json'), XDEVELOPERS);

  it("reads the account's replies to others and its own posts, newest first, without the posts answered", () => {
    assert.deepEqual(
      page.items.map((p) => p.id),
      ['2085480112233445566', '2085462233445566778', '2085455566778899001', '2072126677535346779'],
    );
    assert.ok(page.items.every((p) => p.author.handle === 'XDevelopers'));
  });

  it('labels each reply with the account and post it answers, as the FxTwitter path does', () => {
    const [toBenji, toMike, toSantiago, own] = page.items;
    assert.deepEqual(toBenji!.replyTo, { id: '2085471234567890123', handle: 'benjitaylor' });
    assert.deepEqual(toMike!.replyTo, { id: '2085460011223344556', handle: 'mike_rosinsky' });
    assert.equal(toSantiago!.replyTo?.handle, 'santiagomed');
    assert.equal(own!.replyTo, undefined);
    // The profile read's filter shows them only when replies are asked for.
    assert.deepEqual(
      page.items.filter(timelineFilter({ replies: false, reposts: false })).map((p) => p.id),
      ['2072126677535346779'],
    );
  });

  it('leaves the pinned post and the who-to-follow module out, and keeps the bottom cursor', () => {
    assert.ok(!page.items.some((p) => p.id === '2074882755905585583'), 'the pinned post is not recent');
    assert.equal(page.nextCursor, 'DAABCgABHPEX6_u___0KAAIVdq52NdWwAAgAAwAAAAIAAA');
  });
});

describe('x parse: UserTweetsAndReplies (timeline_v2 form)', () => {
  const page = parseRepliesPage(x('user_tweets_and_replies_v2.json'), XDEVELOPERS);

  it('reads the same entries from the older nesting and user shape', () => {
    assert.deepEqual(
      page.items.map((p) => p.id),
      ['1874400011122233344', '1874381122233344455', '1874370011122233344'],
    );
    assert.deepEqual(
      page.items.map((p) => p.replyTo?.handle),
      ['taycaldwell', 'nicole_clash', undefined],
    );
    assert.ok(!page.items.some((p) => p.id === '1851463451929186504'), 'pinned entry left out');
    assert.equal(page.nextCursor, 'DAABCgABGgN1BW8__-oKAAIZgp02XhdRkwgAAwAAAAIAAA');
  });

  it('an account X cannot show is not_found; an answer without a timeline is an error', () => {
    assert.throws(
      () => parseRepliesPage(x('user_tweets_unavailable.json'), XDEVELOPERS),
      (e: unknown) => e instanceof ProviderError && e.kind === 'not_found',
    );
    assert.throws(
      () => parseRepliesPage({ data: { user: { result: { __typename: 'User' } } } }, XDEVELOPERS),
      (e: unknown) => e instanceof ProviderError && e.kind === 'error',
    );
  });
});

describe('x parse: translations attached to timeline pages', () => {
  it("reads X's translation of a post of a profile page asked in English, and only of the posts that carry one", () => {
    const env = x('user_tweets_and_replies.json');
    const page = parseRepliesPage(env, XDEVELOPERS).items.map(inlineTranslator(env, 'en'));
    const german = page.find((p) => p.id === '2085455566778899001')!;
    assert.deepEqual(german.translation, {
      text: 'Thanks! The new version of the library now supports lists too.',
      from: 'de',
      to: 'en',
      service: 'Grok',
      provider: 'x',
    });
    assert.match(german.text, /Danke!/, 'the original text stays');
    assert.ok(page.filter((p) => p !== german).every((p) => p.translation === undefined));
    // Asked in another language, X's English does not count.
    assert.ok(
      parseRepliesPage(env, XDEVELOPERS)
        .items.map(inlineTranslator(env, 'fr'))
        .every((p) => !p.translation),
    );
  });

  it('puts the translation on the reposted post of a List page, where X attaches it', () => {
    const env = structuredClone(x('list_latest_tweets.json'));
    const entry = (env.data as any).list.tweets_timeline.timeline.instructions[0].entries[0];
    const original = entry.content.itemContent.tweet_results.result.legacy.retweeted_status_result.result;
    original.grok_translated_post_with_availability = {
      is_available: true,
      data: { translation: 'Eine Übersetzung.', source_language: 'en', destination_language: 'de', entities: {} },
    };
    const page = parseListPostsPage(env, '1').items.map(inlineTranslator(env, 'de'));
    const repost = page.find((p) => p.repostOf?.id === original.rest_id)!;
    assert.equal(repost.repostOf!.translation?.text, 'Eine Übersetzung.');
    assert.equal(repost.translation, undefined, 'the repost entry itself has no text of its own');
  });
});
