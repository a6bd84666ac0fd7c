import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HANDLES, IDS } from '../../../sim/corpus.ts';
import { syndicationToken } from '../../../sim/wire/syndication.ts';
import { useSimulator } from './sim-harness.ts';

const { getJson, sim } = useSimulator();
const tweet = (id: string) => getJson(`/syndication/tweet-result?id=${id}&token=${syndicationToken(id)}&lang=en`);

test('tweet-result for a photo post that quotes and replies', async () => {
  const { status, body, headers } = await tweet(IDS.threadPhoto);
  assert.equal(status, 200);
  assert.match(headers.get('content-type')!, /application\/json/);
  assert.equal(body.__typename, 'Tweet');
  assert.equal(body.id_str, IDS.threadPhoto);
  assert.match(body.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
  assert.equal(body.news_action_type, 'conversation');
  assert.equal(body.user.screen_name, HANDLES.alice);
  assert.equal(body.in_reply_to_status_id_str, IDS.threadRoot);
  assert.equal(body.parent.id_str, IDS.threadRoot);
  assert.equal(typeof body.parent.favorite_count, 'number');
  assert.equal(body.quoted_tweet.id_str, IDS.carolQuoted);
  assert.equal(body.quoted_tweet.self_thread.id_str, IDS.carolQuoted);
  const md = body.mediaDetails[0];
  assert.equal(md.type, 'photo');
  assert.equal(md.ext_alt_text, 'Diagram of cache layers: browser, CDN, app LRU, Redis');
  assert.deepEqual(md.original_info, { height: 900, width: 1600 });
  assert.equal(body.text.slice(md.indices[0], md.indices[1]), md.url);
  assert.equal(body.photos[0].url, md.media_url_https);
  assert.ok(body.display_text_range[1] < md.indices[0]);
  assert.equal(body.edit_control.edit_tweet_ids[0], IDS.threadPhoto);
});

test('entities, replies with @-prefix, video, gif', async () => {
  const root = (await tweet(IDS.threadRoot)).body;
  assert.deepEqual(
    root.entities.hashtags.map((h: any) => h.text),
    ['caching'],
  );
  assert.deepEqual(
    root.entities.user_mentions.map((m: any) => m.screen_name),
    [HANDLES.bob],
  );
  assert.equal(root.conversation_count, 11);

  const r = (await tweet(IDS.replies.bobTop)).body;
  assert.ok(r.text.startsWith(`@${HANDLES.alice} `));
  assert.equal(r.display_text_range[0], HANDLES.alice.length + 2);
  assert.equal(r.in_reply_to_screen_name, HANDLES.alice);

  const v = (await tweet(IDS.threadVideo)).body;
  assert.equal(v.mediaDetails[0].type, 'video');
  assert.equal(v.mediaDetails[0].video_info.duration_millis, 33400);
  assert.ok(
    v.mediaDetails[0].video_info.variants.some(
      (x: any) => x.content_type === 'application/x-mpegURL' && x.bitrate === undefined,
    ),
  );
  assert.equal(v.video.durationMs, 33400);
  assert.ok(v.video.variants.every((x: any) => typeof x.src === 'string'));

  const g = (await tweet(IDS.gif)).body;
  assert.equal(g.mediaDetails[0].type, 'animated_gif');
  assert.deepEqual(
    g.mediaDetails[0].video_info.variants.map((x: any) => x.bitrate),
    [0],
  );
});

test('long posts are truncated with a note_tweet id', async () => {
  const { body } = await tweet(IDS.noteTweet);
  assert.ok(body.text.endsWith('…'));
  assert.ok(body.text.length <= 280);
  assert.equal(Buffer.from(body.note_tweet.id, 'base64').toString(), `NoteTweet:${IDS.noteTweet}`);
});

test('poll and link cards', async () => {
  const poll = (await tweet(IDS.threadPoll)).body.card;
  assert.equal(poll.name, 'poll4choice_text_only');
  assert.equal(poll.binding_values.choice3_label.string_value, 'In-process LRU');
  assert.equal(poll.binding_values.choice3_count.string_value, '610');
  assert.equal(poll.binding_values.counts_are_final.boolean_value, true);
  const card = (await tweet(IDS.cardLink)).body.card;
  assert.equal(card.name, 'summary_large_image');
  assert.equal(card.binding_values.title.string_value, 'Taming cache stampedes');
});

test('tombstones, suspended author, unknown id', async () => {
  const del = await tweet(IDS.deleted);
  assert.equal(del.status, 200);
  assert.equal(del.body.__typename, 'TweetTombstone');
  assert.match(del.body.tombstone.text.text, /deleted/);
  assert.equal((await tweet(IDS.protected)).body.__typename, 'TweetTombstone');
  const susp = await tweet(IDS.suspended);
  assert.equal(susp.body.__typename, 'Tweet');
  assert.equal(susp.body.user, undefined);
  const q = (await tweet(IDS.quoteOfDeleted)).body;
  assert.equal(q.quoted_tweet, undefined);
  const unknown = await fetch(
    `${sim().url}/syndication/tweet-result?id=${IDS.unknown}&token=${syndicationToken(IDS.unknown)}`,
  );
  assert.equal(unknown.status, 404);
  assert.match(unknown.headers.get('content-type')!, /text\/html/);
});

test('the token must match the id', async () => {
  assert.equal((await getJson(`/syndication/tweet-result?id=${IDS.threadRoot}`)).status, 400);
  assert.equal(
    (await getJson(`/syndication/tweet-result?id=${IDS.threadRoot}&token=${syndicationToken('20')}`)).status,
    400,
  );
  assert.equal((await getJson('/syndication/tweet-result?id=abc&token=x')).status, 400);
  assert.equal((await getJson('/syndication/other')).status, 404);
});
