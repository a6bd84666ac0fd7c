// Link previews through the real server: a permalink pasted into a chat app is fetched by its crawler, usually
// with no Accept header; it must get the HTML page with Open Graph and Twitter-card metadata, while every other
// caller keeps the Markdown default.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'parse5';
import { getCorpus, HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { LINK_PREVIEW_CRAWLERS } from '../../src/contract/link-preview.ts';

interface Node {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
}
function* walk(node: Node): Generator<Node> {
  yield node;
  for (const child of node.childNodes ?? []) yield* walk(child);
}

/** Every <meta property|name> of the page, parsed by a real HTML parser (so values come back unescaped). */
function metaOf(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const n of walk(parse(html))) {
    if (n.tagName !== 'meta') continue;
    const key = n.attrs?.find((a) => a.name === 'property' || a.name === 'name')?.value;
    const content = n.attrs?.find((a) => a.name === 'content')?.value;
    if (key && content !== undefined) out.set(key, content);
  }
  return out;
}

const CRAWLER_UAS: Record<string, string> = {
  Slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  Discord: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  Telegram: 'TelegramBot (like TwitterBot)',
  Twitter: 'Twitterbot/1.0',
  Facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  LinkedIn: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  WhatsApp: 'WhatsApp/2.23.20.0 A',
  Mastodon: 'http.rb/5.1.1 (Mastodon/4.2.0; +https://mastodon.social/)',
  Iframely: 'Iframely/1.3.1 (+https://iframely.com/docs/about)',
  Embedly: 'Mozilla/5.0 (compatible; Embedly/0.2; +http://support.embed.ly/)',
};
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const corpus = getCorpus();

describe('link previews', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(async () => {
    await s.close();
  });

  const photoPost = `/${HANDLES.alice}/status/${IDS.threadPhoto}`;

  for (const [name, ua] of Object.entries(CRAWLER_UAS)) {
    test(`${name}'s crawler gets the HTML page with no Accept header`, async () => {
      const res = await s.get(photoPost, { headers: { 'user-agent': ua } });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(res.headers.get('vary') ?? '', /X-Link-Preview/);
      assert.doesNotMatch(res.headers.get('vary') ?? '', /User-Agent/);
      assert.match(res.headers.get('cache-control') ?? '', /^private, max-age=\d+/, 'chosen from the User-Agent');
      assert.ok(metaOf(await res.text()).has('og:title'));
    });
  }

  test('the cache-hit replay keeps crawlers and other callers apart on the same URL and Accept', async () => {
    // The replay keys on the request's URL and Accept; a permalink also varies on whether the caller is a
    // link-preview crawler, so each kind of caller must keep getting its own representation on repeated hits.
    const url = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`;
    const slack = { 'user-agent': CRAWLER_UAS.Slack!, accept: '*/*' };
    const plain = { 'user-agent': 'curl/8.5.0', accept: '*/*' };
    for (let i = 0; i < 3; i++) {
      for (const [headers, type] of [
        [slack, /^text\/html/],
        [plain, /^text\/markdown/],
      ] as const) {
        const res = await s.get(url, { headers });
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', type, `round ${i}, ${headers['user-agent']}`);
        await res.arrayBuffer();
      }
    }
  });

  test('every documented crawler token is recognised (and the list is non-trivial)', () => {
    assert.ok(LINK_PREVIEW_CRAWLERS.length >= 15);
    for (const name of Object.keys(CRAWLER_UAS))
      assert.ok(
        LINK_PREVIEW_CRAWLERS.some((c) => c.name.includes(name) || c.name.includes(name.replace('Twitter', 'X'))),
        name,
      );
  });

  test('a crawler sending Accept: */* also gets HTML; one asking only for JSON gets JSON', async () => {
    const ua = CRAWLER_UAS.Facebook!;
    const star = await s.get(photoPost, { headers: { 'user-agent': ua, accept: '*/*' } });
    assert.match(star.headers.get('content-type') ?? '', /^text\/html/);
    const json = await s.get(photoPost, { headers: { 'user-agent': ua, accept: 'application/json' } });
    assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
    const format = await s.get(`${photoPost}?format=markdown`, { headers: { 'user-agent': ua } });
    assert.match(format.headers.get('content-type') ?? '', /^text\/markdown/, 'format still overrides');
  });

  test('people and programs keep the Markdown default, with Vary naming X-Link-Preview, not User-Agent', async () => {
    const variants: Record<string, string>[] = [
      {},
      { 'user-agent': BROWSER_UA },
      { 'user-agent': 'curl/8.5.0', accept: '*/*' },
    ];
    for (const headers of variants) {
      const res = await s.get(photoPost, { headers });
      assert.match(res.headers.get('content-type') ?? '', /^text\/markdown/);
      assert.deepEqual(
        (res.headers.get('vary') ?? '')
          .split(',')
          .map((v) => v.trim().toLowerCase())
          .filter((v) => v !== 'accept-encoding'),
        ['accept', 'x-link-preview'],
      );
    }
  });

  test('the versioned API is not a pasted link: a crawler gets Markdown there', async () => {
    const res = await s.get(`/api/v1/posts?handle=${HANDLES.alice}&id=${IDS.threadPhoto}`, {
      headers: { 'user-agent': CRAWLER_UAS.Slack! },
    });
    assert.match(res.headers.get('content-type') ?? '', /^text\/markdown/);
    assert.doesNotMatch(res.headers.get('vary') ?? '', /User-Agent|X-Link-Preview/);
  });

  test('a post with a photo: title, author, text, the photo as a large card', async () => {
    const post = corpus.posts.get(IDS.threadPhoto)!;
    const author = corpus.usersByHandle.get(HANDLES.alice)!;
    const res = await s.get(photoPost, { headers: { 'user-agent': CRAWLER_UAS.Discord! } });
    const meta = metaOf(await res.text());
    assert.equal(meta.get('og:type'), 'article');
    assert.equal(meta.get('og:site_name'), 'threadmark');
    assert.equal(meta.get('og:title'), `${author.name} (@${HANDLES.alice}) on X`);
    assert.equal(meta.get('og:url'), `${TEST_BASE}${photoPost}`);
    assert.equal(meta.get('og:description'), post.text.replace(/\s+/g, ' ').trim());
    assert.equal(meta.get('twitter:card'), 'summary_large_image');
    assert.match(meta.get('og:image') ?? '', /^https:\/\/pbs\.twimg\.com\/media\//);
    assert.equal(meta.get('og:image:alt'), post.media[0]!.alt);
    assert.equal(meta.get('twitter:image'), meta.get('og:image'));
    assert.equal(meta.get('twitter:creator'), `@${HANDLES.alice}`);
    assert.match(meta.get('article:published_time') ?? '', /^\d{4}-\d\d-\d\dT/);
  });

  test('a video post carries og:video (mp4) and its still as the image', async () => {
    const res = await s.get(`/${HANDLES.alice}/status/${IDS.threadVideo}`, {
      headers: { 'user-agent': CRAWLER_UAS.Telegram! },
    });
    const meta = metaOf(await res.text());
    assert.match(meta.get('og:video') ?? '', /^https:\/\/video\.twimg\.com\/.*\.mp4/);
    assert.equal(meta.get('og:video:type'), 'video/mp4');
    assert.ok(meta.get('og:image'), 'the video still is the image');
    assert.equal(meta.get('twitter:card'), 'summary_large_image');
  });

  test('a text-only post falls back to the author avatar as a small card', async () => {
    const res = await s.get(`/${HANDLES.alice}/status/${IDS.threadRoot}`, {
      headers: { 'user-agent': CRAWLER_UAS.Slack! },
    });
    const meta = metaOf(await res.text());
    assert.equal(meta.get('twitter:card'), 'summary');
    assert.match(meta.get('og:image') ?? '', /^https:\/\/pbs\.twimg\.com\/profile_images\/.*_400x400\.jpg$/);
  });

  test('a profile: name, bio and counts, avatar, profile:username', async () => {
    const author = corpus.usersByHandle.get(HANDLES.alice)!;
    const res = await s.get(`/${HANDLES.alice}`, { headers: { 'user-agent': CRAWLER_UAS.LinkedIn! } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const meta = metaOf(await res.text());
    assert.equal(meta.get('og:type'), 'profile');
    assert.equal(meta.get('profile:username'), HANDLES.alice);
    assert.equal(meta.get('og:title'), `${author.name} (@${HANDLES.alice}) on X`);
    assert.ok(meta.get('og:description')!.startsWith(author.bio.replace(/\s+/g, ' ').trim().slice(0, 40)));
    assert.match(meta.get('og:description')!, /followers/);
    assert.equal(meta.get('twitter:card'), 'summary');
    assert.match(meta.get('og:image') ?? '', /_400x400\.jpg$/);
  });

  test('followers lists are not link-preview routes', async () => {
    const res = await s.get(`/${HANDLES.alice}/followers`, { headers: { 'user-agent': CRAWLER_UAS.Slack! } });
    assert.match(res.headers.get('content-type') ?? '', /^text\/markdown/);
  });

  test('a missing post answers a crawler with the HTML recovery page (404)', async () => {
    const res = await s.get(`/${HANDLES.missing}`, { headers: { 'user-agent': CRAWLER_UAS.Slack! } });
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
  });

  test('hostile text lands in the metadata as text, escaped, and runs nothing', async () => {
    const hostile = corpus.posts.get(IDS.hostile)!;
    const res = await s.get(`/${HANDLES.hostile}/status/${IDS.hostile}`, {
      headers: { 'user-agent': CRAWLER_UAS.Slack! },
    });
    const html = await res.text();
    const meta = metaOf(html);
    const flat = hostile.text.replace(/\s+/g, ' ').trim();
    assert.ok(
      flat.startsWith(meta.get('og:description')!.replace(/…$/, '')),
      'description is the text (clipped), unescaped by the parser',
    );
    assert.equal(meta.get('og:title'), `${corpus.usersByHandle.get(HANDLES.hostile)!.name} (@${HANDLES.hostile}) on X`);
    const elementsFound = [...walk(parse(html) as unknown as Node)].filter((n) => n.tagName).map((n) => n.tagName);
    assert.ok(!elementsFound.includes('script'), 'no script element');
    assert.doesNotMatch(
      html.slice(0, html.indexOf('</head>')),
      /<script|<img/i,
      'the head has no raw tag from the content',
    );
  });
});
