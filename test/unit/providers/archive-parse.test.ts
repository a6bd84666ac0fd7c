// Archive posts as domain posts: counts and indices written as strings, replies, reposts cut short, long posts
// matched to their note by time and text, and elements that are not posts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NoteIndex } from '../../../src/providers/archive/notes.ts';
import { parseArchiveTweet, parseOwner, tweetOf } from '../../../src/providers/archive/parse.ts';
import { ArchiveError } from '../../../src/providers/archive/errors.ts';
import type { ArchiveTweet } from '../../../src/providers/archive/wire.ts';

const owner = parseOwner({ account: { accountId: '42', username: 'amy', accountDisplayName: 'Amy' } }, undefined);

const tweet = (over: Partial<ArchiveTweet>): ArchiveTweet => ({
  id_str: '1000',
  created_at: 'Wed Oct 10 20:19:24 +0000 2018',
  full_text: 'Hello',
  display_text_range: ['0', '5'],
  favorite_count: '12',
  retweet_count: '3',
  ...over,
});

describe('archive posts', () => {
  test('counts and indices as strings; t.co expanded, media link dropped, mentions and cashtags kept', () => {
    const p = parseArchiveTweet(
      tweet({
        full_text: 'Hi @bob, $TSLA &amp; https://t.co/abc https://t.co/pic',
        display_text_range: ['0', '37'],
        entities: {
          user_mentions: [{ screen_name: 'bob', indices: ['3', '7'] }],
          symbols: [{ text: 'TSLA', indices: ['9', '14'] }],
          urls: [{ url: 'https://t.co/abc', expanded_url: 'https://example.com/a', indices: ['21', '37'] }],
        },
        extended_entities: {
          media: [
            {
              type: 'photo',
              url: 'https://t.co/pic',
              indices: ['38', '54'],
              media_url_https: 'https://pbs.twimg.com/media/K.jpg',
              original_info: { width: '800', height: '600' },
            },
          ],
        },
      }),
      owner,
      new NoteIndex(),
    )!;
    assert.equal(p.text, 'Hi @bob, $TSLA & https://example.com/a');
    assert.deepEqual(
      p.segments.map((s) => s.type),
      ['text', 'mention', 'text', 'cashtag', 'text', 'link'],
    );
    assert.deepEqual(p.media, [
      { kind: 'photo', url: 'https://pbs.twimg.com/media/K.jpg?name=orig', width: 800, height: 600 },
    ]);
    assert.deepEqual(p.metrics, { likes: 12, reposts: 3 });
    assert.equal(p.createdAt, '2018-10-10T20:19:24.000Z');
    assert.equal(p.author.handle, 'amy');
  });

  test('a reply to someone else keeps the post it answers; a reply to oneself is a self-reply', () => {
    const other = parseArchiveTweet(
      tweet({ in_reply_to_status_id_str: '7', in_reply_to_user_id_str: '9', in_reply_to_screen_name: 'bob' }),
      owner,
      new NoteIndex(),
    )!;
    assert.deepEqual(other.replyTo, { id: '7', handle: 'bob' });
    // The handle the owner had when answering itself may be an old one: the account id decides.
    const self = parseArchiveTweet(
      tweet({ in_reply_to_status_id_str: '8', in_reply_to_user_id_str: '42', in_reply_to_screen_name: 'amy_old' }),
      owner,
      new NoteIndex(),
    )!;
    assert.deepEqual(self.replyTo, { id: '8', handle: 'amy' });
  });

  test('a repost is a repost of @handle with the text X kept', () => {
    const p = parseArchiveTweet(
      tweet({
        full_text: 'RT @carol: Caches are a stack: browser, CDN…',
        display_text_range: ['0', '44'],
        entities: { user_mentions: [{ screen_name: 'carol', name: 'Carol', id_str: '5', indices: ['3', '9'] }] },
      }),
      owner,
      new NoteIndex(),
    )!;
    assert.equal(p.author.handle, 'amy');
    assert.equal(p.repostOf?.author.handle, 'carol');
    assert.equal(p.repostOf?.author.name, 'Carol');
    assert.equal(p.repostOf?.text, 'Caches are a stack: browser, CDN…');
    assert.equal(p.repostOf?.truncated, true);
  });

  test('a long post is whole from its note, matched by time and text', () => {
    const notes = new NoteIndex();
    const whole = `${'word '.repeat(70)}end #tag`;
    notes.add({
      noteTweet: {
        noteTweetId: '99',
        createdAt: '2018-10-10T20:19:25.300Z',
        core: { text: 'Other text', hashtags: [] },
      },
    });
    notes.add({
      noteTweet: {
        noteTweetId: '98',
        createdAt: '2018-10-10T20:19:25.300Z',
        core: {
          text: whole,
          hashtags: [{ text: 'tag', fromIndex: String(whole.length - 4), toIndex: String(whole.length) }],
        },
      },
    });
    const cut = `${'word '.repeat(55)}… https://t.co/more`;
    const p = parseArchiveTweet(
      tweet({ full_text: cut, display_text_range: ['0', String(cut.length)] }),
      owner,
      notes,
    )!;
    assert.equal(p.text, whole);
    assert.equal(p.segments.at(-1)?.type, 'hashtag');
    assert.equal(notes.size, 1, 'a note is handed out once');
    // Without its note, the post is the start X kept, marked truncated.
    const alone = parseArchiveTweet(
      tweet({ full_text: `${'x'.repeat(280)}… https://t.co/more`, display_text_range: ['0', '300'] }),
      owner,
      new NoteIndex(),
    )!;
    assert.equal(alone.truncated, true);
  });

  test('elements that are not posts, and an account that names nobody', () => {
    assert.equal(tweetOf(null), undefined);
    assert.equal(tweetOf([1]), undefined);
    assert.equal(parseArchiveTweet(tweet({ id_str: 'x' }), owner, new NoteIndex()), undefined);
    assert.equal(parseArchiveTweet(tweet({ created_at: 'never' }), owner, new NoteIndex()), undefined);
    assert.throws(
      () => parseOwner({ account: { username: 'amy' } }, undefined),
      (e: unknown) => e instanceof ArchiveError && e.problem === 'no_account',
    );
  });
});
