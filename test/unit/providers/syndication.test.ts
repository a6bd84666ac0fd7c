import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Post } from '../../../src/domain/models.ts';
import { SyndicationProvider } from '../../../src/providers/syndication/provider.ts';
import { parseTweet } from '../../../src/providers/syndication/parse.ts';
import { syndicationToken } from '../../../src/providers/syndication/token.ts';
import { ProviderError } from '../../../src/providers/types.ts';
import { fixture, fixtureText } from './fixtures.ts';
import { startServer, type LocalServer } from './local-server.ts';

test('token matches the documented vectors', () => {
  assert.equal(syndicationToken('20'), '6dq1a2xwd93');
  assert.equal(syndicationToken('1841206275088290279'), '4gobiuxs3yx');
});

test('real capture: mention, expanded link, trailing emoji kept, link card from bindings', () => {
  const p = parseTweet(fixture('syndication/tweet-result-1703436713362870723.json'));
  assert.equal(p.id, '1703436713362870723');
  assert.equal(p.url, 'https://x.com/rhaksw/status/1703436713362870723');
  assert.equal(p.createdAt, '2023-09-17T15:52:15.000Z');
  assert.ok(p.text.startsWith('Senator @RonWyden is doing an AMA'));
  assert.ok(p.text.endsWith('1/2 🧵'));
  assert.ok(
    p.text.includes('https://reddit.com/r/technology/comments/16jlhj7/we_are_senator_ron_wyden_fight_for_the_future/…'),
  );
  assert.ok(!p.text.includes('https://t.co/'));
  assert.deepEqual(p.segments[1], { type: 'mention', text: '@RonWyden', handle: 'RonWyden' });
  assert.equal(p.author.avatarUrl, 'https://pbs.twimg.com/profile_images/1390117915584720904/oKtYaDO5_200x200.jpg');
  assert.equal(p.card?.domain, 'reddit.com');
  assert.equal(
    p.card?.url,
    'https://reddit.com/r/technology/comments/16jlhj7/we_are_senator_ron_wyden_fight_for_the_future/',
  );
  assert.deepEqual(p.metrics, { likes: 0, replies: 1 });
  assert.equal(p.truncated, undefined);
});

test('video picks the best mp4, gif maps to gif, poll card becomes a poll, quote and truncation flag', () => {
  const p = parseTweet(fixture('syndication/tweet-result-1900000000000000030.json'), {
    now: Date.parse('2026-01-01T01:00:00Z'),
  });
  assert.equal(p.text, '🎉 Results are in & thanks @bob!');
  assert.deepEqual(p.replyTo, { id: '1900000000000000029', handle: 'carol' });
  assert.deepEqual(
    p.media.map((m) => [m.kind, m.url, m.durationSeconds]),
    [
      ['video', 'https://video.twimg.com/ext_tw_video/1900000000000000031/pu/vid/avc1/1280x720/high.mp4', 30],
      ['gif', 'https://video.twimg.com/tweet_video/gif.mp4', undefined],
    ],
  );
  assert.deepEqual(p.poll?.choices, [
    { label: 'LRU', votes: 30, percent: 60 },
    { label: 'LFU', votes: 20, percent: 40 },
  ]);
  assert.equal(p.poll?.final, true);
  assert.equal(p.card, undefined);
  assert.equal((p.quote as Post).text, 'The quoted text, #original');
  assert.equal(p.truncated, true);
  assert.equal(p.author.verified, true);
});

let srv: LocalServer;
let syn: SyndicationProvider;
let answer: { status: number; type: string; body: string } = { status: 200, type: 'application/json', body: '{}' };
before(async () => {
  srv = await startServer((_req, res) => {
    res.writeHead(answer.status, { 'content-type': answer.type });
    res.end(answer.body);
  });
  syn = new SyndicationProvider({ baseUrl: srv.url, timeoutMs: 2000 });
});
after(() => srv.close());

test('getPost calls /tweet-result with id, token and lang', async () => {
  answer = {
    status: 200,
    type: 'application/json; charset=utf-8',
    body: fixtureText('syndication/tweet-result-1703436713362870723.json'),
  };
  const p = await syn.getPost('1703436713362870723', {});
  assert.equal(p.author.handle, 'rhaksw');
  const q = new URL(srv.requests.at(-1)!, 'http://x');
  assert.equal(q.pathname, '/tweet-result');
  assert.equal(q.searchParams.get('id'), '1703436713362870723');
  assert.equal(q.searchParams.get('token'), syndicationToken('1703436713362870723'));
  assert.equal(q.searchParams.get('lang'), 'en');
});

test('getConversation answers with the parent as the only ancestor and says it cannot do more', async () => {
  answer = {
    status: 200,
    type: 'application/json',
    body: fixtureText('syndication/tweet-result-1900000000000000030.json'),
  };
  const b = await syn.getConversation('1900000000000000030', { ranking: 'top', withReplies: true });
  assert.equal(b.post.id, '1900000000000000030');
  assert.deepEqual(
    b.ancestors.map((p) => [p.id, p.text]),
    [['1900000000000000029', 'Poll results when']],
  );
  assert.deepEqual([b.continuations, b.replies, b.repliesAvailable, b.threadAvailable], [[], [], false, false]);
});

test('failure mapping: tombstones, {}, author-less tweet and 404 HTML are not_found; other shapes are errors', async () => {
  const cases: Array<[typeof answer, string]> = [
    [{ status: 200, type: 'application/json', body: fixtureText('syndication/tombstone-empty.json') }, 'not_found'],
    [{ status: 200, type: 'application/json', body: fixtureText('syndication/tombstone-deleted.json') }, 'not_found'],
    [{ status: 200, type: 'application/json', body: fixtureText('syndication/empty-object.json') }, 'not_found'],
    [{ status: 200, type: 'application/json', body: '{"__typename":"Tweet","id_str":"1","text":"x"}' }, 'not_found'],
    [{ status: 404, type: 'text/html', body: '<html>Not found</html>' }, 'not_found'],
    [{ status: 200, type: 'text/html', body: '<html>login</html>' }, 'error'],
    [{ status: 200, type: 'application/json', body: '{"__typename":"Tweet",' }, 'error'],
    [{ status: 200, type: 'application/json', body: '{"error":"bad"}' }, 'error'],
    [{ status: 200, type: 'application/json', body: '' }, 'empty'],
    [{ status: 429, type: 'application/json', body: '{"error":"rate"}' }, 'error'],
    [{ status: 500, type: 'application/json', body: '{}' }, 'error'],
  ];
  for (const [a, want] of cases) {
    answer = a;
    const got = await syn.getPost('1', {}).then(
      () => 'ok',
      (e: unknown) => (e instanceof ProviderError ? e.kind : String(e)),
    );
    assert.equal(got, want, `${a.status} ${a.type} ${a.body.slice(0, 40)}`);
  }
});

test('an Article post yields a preview article, drops its link and is flagged truncated', () => {
  const t = fixture('syndication/tweet-result-1703436713362870723.json');
  t.text = 'https://t.co/art1cle';
  t.display_text_range = [0, 20];
  t.entities = {
    urls: [
      {
        url: 'https://t.co/art1cle',
        expanded_url: 'http://x.com/i/article/99',
        display_url: 'x.com/i/article/99',
        indices: [0, 20],
      },
    ],
  };
  delete t.card;
  t.article = {
    rest_id: '99',
    title: 'Caching, properly',
    preview_text: 'The start of it',
    cover_media: { media_info: { original_img_url: 'https://pbs.twimg.com/media/cover.jpg' } },
  };
  const p = parseTweet(t);
  assert.equal(p.text, 'Caching, properly\n\nThe start of it', 'the readable text, not the bare article link');
  assert.deepEqual(p.article, {
    id: '99',
    title: 'Caching, properly',
    previewText: 'The start of it',
    coverUrl: 'https://pbs.twimg.com/media/cover.jpg',
    blocks: [{ type: 'paragraph', spans: [{ text: 'The start of it' }] }],
  });
  assert.equal(p.truncated, true);
});
