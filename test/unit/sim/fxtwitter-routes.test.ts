import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HANDLES, IDS } from '../../../sim/corpus.ts';
import { useSimulator } from './sim-harness.ts';

const { getJson } = useSimulator();

const STATUS_KEYS = [
  'type',
  'id',
  'url',
  'text',
  'raw_text',
  'author',
  'replies',
  'reposts',
  'likes',
  'quotes',
  'bookmarks',
  'views',
  'created_at',
  'created_timestamp',
  'embed_card',
  'possibly_sensitive',
  'is_note_tweet',
  'community_note',
  'lang',
  'replying_to',
  'media',
  'source',
  'provider',
  'reposted_by',
];
const USER_KEYS = [
  'type',
  'id',
  'name',
  'screen_name',
  'url',
  'avatar_url',
  'banner_url',
  'description',
  'raw_description',
  'location',
  'protected',
  'followers',
  'following',
  'statuses',
  'media_count',
  'likes',
  'joined',
  'website',
  'verification',
];

function assertStatus(s: any) {
  for (const k of STATUS_KEYS) assert.ok(k in s, `status missing ${k}`);
  assert.equal(s.type, 'status');
  assert.equal(s.provider, 'twitter');
  assert.match(s.created_at, /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} \+0000 \d{4}$/);
  assert.equal(s.created_timestamp, Math.floor(Date.parse(s.created_at) / 1000));
  assert.equal(s.url, `https://x.com/${s.author.screen_name}/status/${s.id}`);
  for (const k of USER_KEYS) assert.ok(k in s.author, `author missing ${k}`);
}

async function collect(path: string, field: 'results' | 'replies'): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const { status, body } = await getJson(cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path);
    assert.equal(status, 200);
    items.push(...body[field]);
    cursor = field === 'results' ? body.cursor.bottom : (body.cursor?.bottom ?? null);
    pages++;
    assert.ok(pages < 100, 'paging must end');
  } while (cursor);
  return { items, pages };
}

describe('/2/status', () => {
  test('photo post quoting carol', async () => {
    const { status, body, headers } = await getJson(`/fx/2/status/${IDS.threadPhoto}`);
    assert.equal(status, 200);
    assert.equal(headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(Object.keys(body).sort(), ['author', 'code', 'status', 'thread']);
    assert.equal(body.code, 200);
    assert.equal(body.thread, null);
    assertStatus(body.status);
    const s = body.status;
    assert.equal(s.author.screen_name, HANDLES.alice);
    assert.equal(s.author.avatar_url.endsWith('_200x200.jpg'), true);
    assert.equal(s.embed_card, 'summary_large_image');
    assert.equal(s.media.photos[0].altText, 'Diagram of cache layers: browser, CDN, app LRU, Redis');
    assert.deepEqual(s.media.all, s.media.photos);
    assert.equal(s.quote.id, IDS.carolQuoted);
    assert.equal(s.quote.author.screen_name, HANDLES.carol);
    assert.deepEqual(s.replying_to, {
      screen_name: HANDLES.alice,
      status: IDS.threadRoot,
      url: `https://x.com/${HANDLES.alice}/status/${IDS.threadRoot}`,
      profile_url: `https://x.com/${HANDLES.alice}`,
    });
    // raw text keeps the media t.co, which display_text_range excludes and `text` drops.
    const media = s.raw_text.facets.find((f: any) => f.type === 'media');
    assert.equal(s.raw_text.text.slice(media.indices[0], media.indices[1]), media.original);
    assert.ok(s.raw_text.display_text_range[1] < media.indices[0]);
    assert.ok(!s.text.includes('t.co'));
  });

  test('root post facets: hashtag and mention indices point into raw text', async () => {
    const { body } = await getJson(`/fx/2/status/${IDS.threadRoot}`);
    const s = body.status;
    const kinds = s.raw_text.facets.map((f: any) => f.type);
    assert.deepEqual(kinds, ['hashtag', 'mention']);
    for (const f of s.raw_text.facets) {
      const piece = s.raw_text.text.slice(f.indices[0], f.indices[1]);
      assert.equal(piece, f.type === 'hashtag' ? `#${f.original}` : `@${f.original}`);
    }
    assert.equal(s.replying_to, null);
    assert.equal(s.replies, 6 + 1 + 4);
  });

  test('url facets carry t.co original and expanded replacement', async () => {
    const { body } = await getJson(`/fx/2/status/${IDS.thread[4]}`);
    const url = body.status.raw_text.facets.find((f: any) => f.type === 'url');
    assert.match(url.original, /^https:\/\/t\.co\/\w{10}$/);
    assert.equal(url.replacement, 'https://example.com/notes/ttl-jitter');
    assert.equal(body.status.raw_text.text.slice(url.indices[0], url.indices[1]), url.original);
    assert.ok(body.status.text.includes('https://example.com/notes/ttl-jitter'));
  });

  test('poll, video, two photos and gif', async () => {
    const poll = (await getJson(`/fx/2/status/${IDS.threadPoll}`)).body.status.poll;
    assert.equal(poll.total_votes, 1250);
    assert.equal(poll.time_left_en, 'Final results');
    assert.deepEqual(poll.choices[2], { label: 'In-process LRU', count: 610, percentage: 48.8 });
    assert.match(poll.ends_at, /^2026-03-03T09:00:00Z$/);

    const video = (await getJson(`/fx/2/status/${IDS.threadVideo}`)).body.status;
    assert.equal(video.embed_card, 'player');
    const v = video.media.videos[0];
    assert.equal(v.type, 'video');
    assert.equal(v.duration, 33.4);
    assert.equal(v.formats.length, 4);
    assert.ok(v.formats.some((f: any) => f.container === 'm3u8' && f.bitrate === undefined));
    assert.equal(v.url, v.formats.find((f: any) => f.bitrate === 2176000).url);

    const two = (await getJson(`/fx/2/status/${IDS.threadTwoPhotos}`)).body.status;
    assert.equal(two.media.photos.length, 2);
    assert.equal(two.media.photos[1].altText, undefined);
    assert.equal(two.media.mosaic.type, 'mosaic_photo');

    const gif = (await getJson(`/fx/2/status/${IDS.gif}`)).body.status;
    assert.equal(gif.media.videos[0].type, 'gif');
    assert.equal(gif.media.videos[0].formats[0].bitrate, 0);
  });

  test('long note tweet, article, community note, card', async () => {
    const note = (await getJson(`/fx/2/status/${IDS.noteTweet}`)).body.status;
    assert.equal(note.is_note_tweet, true);
    assert.ok(note.text.length > 1000);
    assert.deepEqual(note.raw_text.display_text_range, [0, note.raw_text.text.length]);
    assert.ok(note.raw_text.facets.some((f: any) => f.type === 'bold'));

    const art = (await getJson(`/fx/2/status/${IDS.article}`)).body.status;
    assert.equal(art.text, '');
    assert.equal(art.article.title, 'A field guide to cache invalidation');
    const types = new Set(art.article.content.blocks.map((b: any) => b.type));
    for (const t of [
      'unstyled',
      'header-one',
      'header-two',
      'unordered-list-item',
      'ordered-list-item',
      'blockquote',
      'atomic',
    ])
      assert.ok(types.has(t), t);
    const styles = art.article.content.blocks.flatMap((b: any) => b.inlineStyleRanges.map((r: any) => r.style));
    assert.ok(styles.includes('Bold') && styles.includes('Italic'));
    assert.ok(
      art.article.content.blocks.some(
        (b: any) => b.data.urls?.[0]?.text === 'https://martinfowler.com/bliki/TwoHardThings.html',
      ),
    );
    const entityTypes = art.article.content.entityMap.map((e: any) => e.value.type);
    assert.deepEqual(entityTypes, ['MARKDOWN', 'MEDIA']);
    const mediaId = art.article.content.entityMap[1].value.data.mediaItems[0].mediaId;
    assert.ok(
      art.article.media_entities.some((m: any) => m.media_id === mediaId && m.media_info.__typename === 'ApiImage'),
    );

    const cn = (await getJson(`/fx/2/status/${IDS.communityNote}`)).body.status.community_note;
    assert.equal(cn.facets[0].type, 'url');
    assert.equal(cn.text.slice(cn.facets[0].indices[0], cn.facets[0].indices[1]), cn.facets[0].display);

    const card = (await getJson(`/fx/2/status/${IDS.cardLink}`)).body.status.card;
    assert.equal(card.url, 'https://blog.example.com/posts/cache-stampede');
    assert.equal(card.card_name, 'summary_large_image');
    assert.equal(card.image.width, 800);
  });

  test('hostile text and names are passed through untouched (escaped only in raw text)', async () => {
    const s = (await getJson(`/fx/2/status/${IDS.hostile}`)).body.status;
    assert.ok(s.text.includes('<script>alert(1)</script>'));
    assert.ok(s.text.includes('[click](javascript:alert(1))'));
    assert.ok(s.text.startsWith('# heading injection'));
    assert.ok(s.raw_text.text.includes('&lt;script&gt;'));
    assert.ok(s.author.name.includes('<img'));
    assert.ok(s.author.description.includes('<script>'));
  });

  test('unavailable posts', async () => {
    assert.deepEqual((await getJson(`/fx/2/status/${IDS.unknown}`)).body, {
      code: 404,
      status: null,
      thread: null,
      author: null,
    });
    const del = await getJson(`/fx/2/status/${IDS.deleted}`);
    assert.equal(del.status, 404);
    assert.equal(del.body.status, null);
    const prot = await getJson(`/fx/2/status/${IDS.protected}`);
    assert.equal(prot.status, 401);
    assert.deepEqual(prot.body, { code: 401, status: null, thread: null, author: null });
    const susp = await getJson(`/fx/2/status/${IDS.suspended}`);
    assert.equal(susp.status, 404);
    assert.deepEqual(susp.body.status, {
      type: 'tombstone',
      provider: 'twitter',
      reason: 'suspended',
      message: 'This post is from a suspended account',
      id: IDS.suspended,
      url: `https://x.com/i/status/${IDS.suspended}`,
    });
    const bad = await getJson('/fx/2/status/abc');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 400);
    assert.equal(typeof bad.body.message, 'string');
    const q = (await getJson(`/fx/2/status/${IDS.quoteOfDeleted}`)).body.status.quote;
    assert.equal(q.type, 'tombstone');
    assert.equal(q.reason, 'deleted');
  });
});

describe('/2/thread', () => {
  test('self-thread from any member lists all twelve posts', async () => {
    for (const id of [IDS.threadRoot, IDS.thread[6]!, IDS.threadLast]) {
      const { body } = await getJson(`/fx/2/thread/${id}`);
      assert.equal(body.code, 200);
      assert.equal(body.status.id, id);
      assert.deepEqual(
        body.thread.map((s: any) => s.id),
        IDS.thread,
      );
      body.thread.forEach(assertStatus);
    }
  });

  test('ancestors by other authors are included, oldest first', async () => {
    const { body } = await getJson(`/fx/2/thread/${IDS.bobReplyToCarol}`);
    assert.deepEqual(
      body.thread.map((s: any) => s.id),
      [IDS.daveRoot, IDS.carolReplyToDave, IDS.bobReplyToCarol],
    );
    assert.deepEqual(
      body.thread.map((s: any) => s.author.screen_name),
      [HANDLES.dave, HANDLES.carol, HANDLES.bob],
    );
    assert.equal(body.status.replying_to.screen_name, HANDLES.carol);
  });

  test('a deleted ancestor becomes a tombstone', async () => {
    const { body } = await getJson(`/fx/2/thread/${IDS.replyToDeleted}`);
    assert.equal(body.thread[0].type, 'tombstone');
    assert.equal(body.thread[0].reason, 'deleted');
    assert.equal(body.thread[1].id, IDS.replyToDeleted);
  });
});

describe('/2/conversation', () => {
  test('first page: ancestors + focal, replies, bottom cursor', async () => {
    const { body } = await getJson(`/fx/2/conversation/${IDS.replies.bobToAlice}`);
    assert.deepEqual(Object.keys(body).sort(), ['author', 'code', 'cursor', 'replies', 'status', 'thread']);
    assert.deepEqual(
      body.thread.map((s: any) => s.id),
      [IDS.threadRoot, IDS.replies.bobTop, IDS.replies.aliceToBob, IDS.replies.bobToAlice],
    );
    assert.deepEqual(body.replies, []);
    assert.equal(body.cursor, null);
  });

  test('likes and recency paging reach every reply once, in different orders', async () => {
    const likes = await collect(`/fx/2/conversation/${IDS.threadRoot}`, 'replies');
    const recency = await collect(`/fx/2/conversation/${IDS.threadRoot}?ranking_mode=recency`, 'replies');
    assert.equal(likes.pages, 3);
    const ids = likes.items.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of Object.values(IDS.replies)) assert.ok(ids.includes(id), id);
    assert.deepEqual([...ids].sort(), recency.items.map((r) => r.id).sort());
    assert.notDeepEqual(
      ids,
      recency.items.map((r) => r.id),
    );
    likes.items.forEach(assertStatus);
  });

  test('a cursor page carries only the focal post in thread', async () => {
    const first = (await getJson(`/fx/2/conversation/${IDS.threadRoot}`)).body;
    const second = (
      await getJson(`/fx/2/conversation/${IDS.threadRoot}?cursor=${encodeURIComponent(first.cursor.bottom)}`)
    ).body;
    assert.deepEqual(
      second.thread.map((s: any) => s.id),
      [IDS.threadRoot],
    );
    assert.equal(second.status.id, IDS.threadRoot);
    assert.ok(second.replies.length > 0);
  });

  test('errors', async () => {
    assert.equal((await getJson(`/fx/2/conversation/${IDS.threadRoot}?ranking_mode=best`)).status, 400);
    assert.deepEqual((await getJson(`/fx/2/conversation/${IDS.protected}`)).body, {
      code: 401,
      status: null,
      thread: null,
      replies: null,
      author: null,
      cursor: null,
    });
    assert.equal((await getJson(`/fx/2/conversation/${IDS.unknown}`)).status, 404);
    assert.equal((await getJson(`/fx/2/conversation/${IDS.threadRoot}?cursor=bogus`)).status, 404);
  });
});

describe('/2/profile', () => {
  test('profile envelope', async () => {
    const { status, body } = await getJson(`/fx/2/profile/${HANDLES.alice}`);
    assert.equal(status, 200);
    assert.equal(body.message, 'OK');
    for (const k of USER_KEYS) assert.ok(k in body.user, k);
    assert.equal(body.user.screen_name, HANDLES.alice);
    assert.equal(body.user.website.url, 'https://alice.example.dev');
    assert.equal((await getJson(`/fx/2/profile/id:${body.user.id}`)).body.user.screen_name, HANDLES.alice);
    const big = (await getJson(`/fx/2/profile/${HANDLES.big}`)).body.user;
    assert.equal(big.followers, 450);
    assert.equal(big.following, 300);
    assert.equal((await getJson(`/fx/2/profile/${HANDLES.protected}`)).body.user.protected, true);
  });

  test('missing and suspended accounts', async () => {
    const missing = await getJson(`/fx/2/profile/${HANDLES.missing}`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { code: 404, message: 'User not found' });
    const susp = await getJson(`/fx/2/profile/${HANDLES.suspended}`);
    assert.equal(susp.status, 404);
    assert.equal(susp.body.reason, 'suspended');
    assert.equal((await getJson(`/fx/2/profile/${HANDLES.missing}/statuses`)).status, 404);
    assert.deepEqual((await getJson(`/fx/2/profile/${HANDLES.suspended}/followers`)).body, {
      code: 404,
      results: [],
      cursor: { top: null, bottom: null },
    });
  });

  test('statuses page to the end, newest first, with reposts', async () => {
    const all = await collect(`/fx/2/profile/${HANDLES.alice}/statuses?count=7&with_replies=true`, 'results');
    assert.ok(all.items.length >= 30);
    assert.equal(all.pages, Math.ceil(all.items.length / 7));
    const reposts = all.items.filter((s) => s.reposted_by);
    assert.ok(reposts.length >= 3);
    for (const r of reposts) {
      assert.equal(r.reposted_by.screen_name, HANDLES.alice);
      assert.notEqual(r.author.screen_name, HANDLES.alice);
    }
    const own = all.items.filter((s) => !s.reposted_by).map((s) => s.created_timestamp);
    assert.deepEqual(
      own,
      [...own].sort((a, b) => b - a),
    );
    const plain = await collect(`/fx/2/profile/${HANDLES.alice}/statuses?count=50`, 'results');
    assert.ok(!plain.items.some((s) => s.id === IDS.replies.aliceToBob), 'replies to others need with_replies');
    assert.ok(
      plain.items.some((s) => s.id === IDS.threadLast),
      'self-thread posts stay',
    );
  });

  test('followers and following page to the end', async () => {
    const followers = await collect(`/fx/2/profile/${HANDLES.big}/followers?count=100`, 'results');
    assert.equal(followers.items.length, 450);
    assert.equal(followers.pages, 5);
    assert.equal(new Set(followers.items.map((u) => u.id)).size, 450);
    followers.items.slice(0, 3).forEach((u) => assert.equal(u.type, 'profile'));
    const following = await collect(`/fx/2/profile/${HANDLES.big}/following`, 'results');
    assert.equal(following.items.length, 300);
    assert.equal(following.pages, 15);
  });

  test('protected lists are empty; bad count and cursor', async () => {
    assert.deepEqual((await getJson(`/fx/2/profile/${HANDLES.protected}/statuses`)).body, {
      code: 200,
      results: [],
      cursor: { top: null, bottom: null },
    });
    assert.equal((await getJson(`/fx/2/profile/${HANDLES.alice}/statuses?count=0`)).status, 400);
    assert.equal((await getJson(`/fx/2/profile/${HANDLES.alice}/followers?count=101`)).status, 400);
    assert.equal((await getJson(`/fx/2/profile/${HANDLES.alice}/statuses?cursor=nope`)).status, 500);
  });
});

describe('/2/search', () => {
  test('latest, top and media feeds page to the end', async () => {
    const latest = await collect('/fx/2/search?q=caching&count=20', 'results');
    assert.ok(latest.items.length >= 60);
    const ts = latest.items.map((s) => s.created_timestamp);
    assert.deepEqual(
      ts,
      [...ts].sort((a, b) => b - a),
    );
    const top = await collect('/fx/2/search?q=caching&feed=top&count=100', 'results');
    assert.equal(top.pages, 1);
    const likes = top.items.map((s) => s.likes);
    assert.deepEqual(
      likes,
      [...likes].sort((a, b) => b - a),
    );
    const media = await collect('/fx/2/search?q=caching&feed=media', 'results');
    assert.ok(media.items.length > 0 && media.items.every((s) => (s.media.all ?? []).length > 0));
    const tm = await collect('/fx/2/search?q=threadmark', 'results');
    assert.ok(tm.items.length >= 25);
  });

  test('no match and bad queries', async () => {
    const none = (await getJson('/fx/2/search?q=zzznomatchzzz')).body;
    assert.equal(none.code, 200);
    assert.deepEqual(none.results, []);
    assert.equal(none.cursor.bottom, null);
    assert.equal((await getJson('/fx/2/search')).status, 400);
    assert.equal((await getJson('/fx/2/search?q=__%20')).status, 400);
    assert.equal((await getJson('/fx/2/search?q=caching&feed=people')).status, 400);
  });
});

test('unknown fx routes answer 404', async () => {
  assert.equal((await getJson('/fx/2/nothing')).status, 404);
  assert.equal((await getJson('/fx/status/20')).status, 404);
});
