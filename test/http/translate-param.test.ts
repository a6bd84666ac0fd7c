// One meaning per parameter: `translate=<tag>` translates on every read that lists posts, `lang=` filters; on the post
// reads `lang` keeps translating as a deprecated alias of `translate`, with Deprecation, Sunset and Link headers.
// Lists are translated inline where the upstream attaches translations to its pages (X asked in the language: no
// call per post), post by post otherwise (FxTwitter), the original text kept beside each translation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRANSLATED_HANDLES as TH, TRANSLATED_IDS as TI } from '../../sim/corpus-translations.ts';
import { LIST_IDS } from '../../sim/corpus-lists.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { writeSessions } from '../helpers/x-sessions.ts';
import { mcpCall } from '../helpers/mcp.ts';

interface JsonPost {
  id: string;
  text: string;
  translation?: { text: string; from: string; to: string; service: string; provider: string };
}
interface ListJson {
  markdown: string;
  posts?: JsonPost[];
  items?: Array<{ kind?: string; post?: JsonPost; id?: string; text?: string; translation?: JsonPost['translation'] }>;
  nextCursor?: string;
  warnings: string[];
}

const JA_ROOT = "Today I'll talk about caching. First, add jitter to your TTLs.";
const JA_SECOND = 'Next, coalesce concurrent misses and fetch only once.';
const DEPRECATION = '@1796083200';
const SUNSET = 'Wed, 01 Dec 2027 00:00:00 GMT';

describe('translate= and the deprecated lang= of the post reads', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(() => s.close());
  const post = `/${TH.kenji}/status/${TI.jaRoot}`;

  test('translate= translates a post, with no deprecation signal', async () => {
    const res = await s.get(`${post}?thread=off&translate=en&format=json`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { post: JsonPost };
    assert.equal(body.post.translation?.text, JA_ROOT);
    assert.equal(res.headers.get('deprecation'), null);
    assert.equal(res.headers.get('sunset'), null);
  });

  test('lang= still translates, and every answer naming it says it is deprecated', async () => {
    for (const path of [`${post}?thread=off&lang=en&format=json`, `/api/v1/posts?url=https://x.com${post}&lang=en`]) {
      for (let i = 0; i < 2; i++) {
        const res = await s.get(path);
        assert.equal(res.status, 200, path);
        assert.equal(res.headers.get('deprecation'), DEPRECATION, `${path} (#${i + 1})`);
        assert.equal(res.headers.get('sunset'), SUNSET);
        const link = res.headers.get('link') ?? '';
        assert.match(link, /<[^>]+\/docs\/versioning>; rel="deprecation"; type="text\/html"/);
        assert.match(link, /<[^>]+\/docs\/versioning>; rel="sunset"; type="text\/html"/);
        const successor = /<([^>]+)>; rel="successor-version"/.exec(link)?.[1] ?? '';
        assert.ok(successor.startsWith(TEST_BASE), link);
        const u = new URL(successor);
        assert.equal(u.searchParams.get('translate'), 'en');
        assert.equal(u.searchParams.get('lang'), null);
        if (path.includes('format=json')) {
          assert.equal(((await res.json()) as { post: JsonPost }).post.translation?.text, JA_ROOT);
        } else assert.match(await res.text(), /Translated from Japanese/);
      }
    }
  });

  test('on HEAD, on a bad tag (400 invalid_lang) and on the legacy alias too', async () => {
    const head = await s.get(`${post}?lang=en`, { method: 'HEAD' });
    assert.equal(head.headers.get('deprecation'), DEPRECATION);
    const bad = await s.get(`${post}?lang=x`);
    assert.equal(bad.status, 400);
    assert.equal((await problemOf(bad)).code, 'invalid_lang');
    assert.equal(bad.headers.get('deprecation'), DEPRECATION);
    const post405 = await s.get(`${post}?lang=en`, { method: 'POST' });
    assert.equal(post405.status, 405);
    assert.equal(post405.headers.get('deprecation'), DEPRECATION);
    const badTranslate = await s.get(`${post}?translate=x`);
    assert.equal(badTranslate.status, 400);
    assert.equal((await problemOf(badTranslate)).code, 'invalid_lang');
    assert.equal(badTranslate.headers.get('deprecation'), null);
    // The deprecated route keeps its own dates; the parameter adds its successor link.
    const legacy = await s.get(`/api/convert?url=https://x.com${post}&lang=en`);
    assert.equal(legacy.status, 200);
    assert.equal(legacy.headers.get('deprecation'), '@1789430400');
    assert.match(legacy.headers.get('link') ?? '', /translate=en>; rel="successor-version"/);
  });

  test('MCP: read_post takes translate and, as its route, the deprecated lang; read_profile takes translate', async () => {
    const args = { handle: TH.kenji, id: TI.jaRoot, thread: 'off' };
    assert.match(await mcpCall(s.url, 'read_post', { ...args, translate: 'en' }), /Translated from Japanese/);
    assert.match(await mcpCall(s.url, 'read_post', { ...args, lang: 'en' }), /Translated from Japanese/);
    assert.match(
      await mcpCall(s.url, 'read_profile', { handle: TH.kenji, translate: 'en' }),
      /Translated from Japanese/,
    );
  });

  test('the policy names the parameter: /docs/versioning, OpenAPI and /api', async () => {
    const page = await (await s.get('/docs/versioning')).text();
    assert.match(page, /id="deprecated-parameters"/);
    assert.match(
      page,
      /<code>GET \/api\/v1\/posts<\/code><\/td><td><code>lang<\/code><\/td><td><code>translate<\/code>/,
    );
    const openapi = (await (await s.get('/openapi.json')).json()) as {
      paths: Record<string, { get: { parameters: { name: string; deprecated?: boolean }[] } }>;
      'x-api-lifecycle': { deprecated_parameters: { path: string; parameter: string; successor_parameter: string }[] };
    };
    const params = openapi.paths['/api/v1/posts']!.get.parameters;
    assert.equal(params.find((p) => p.name === 'lang')?.deprecated, true);
    assert.equal(params.find((p) => p.name === 'translate')?.deprecated, undefined);
    assert.ok(
      openapi['x-api-lifecycle'].deprecated_parameters.some(
        (d) => d.path === '/{handle}/status/{id}' && d.parameter === 'lang' && d.successor_parameter === 'translate',
      ),
    );
    const api = (await (await s.get('/api')).json()) as {
      versioning: { deprecated_parameters: { path: string; parameter: string; sunset: string }[] };
    };
    assert.ok(
      api.versioning.deprecated_parameters.some(
        (d) => d.path === '/api/v1/posts' && d.parameter === 'lang' && d.sunset === '2027-12-01',
      ),
    );
    const profile = openapi.paths['/api/v1/profiles/{handle}']!.get.parameters;
    assert.ok(profile.some((p) => p.name === 'translate'));
    assert.equal(profile.find((p) => p.name === 'lang')?.deprecated, undefined, 'lang filters here');
  });
});

describe('translate= on the reads that list posts, through FxTwitter (post by post)', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(() => s.close());

  test('a profile: each post translated beside its original; lang= filters instead', async () => {
    const res = await s.get(`/api/v1/profiles/${TH.kenji}?format=json&translate=en`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as ListJson;
    const byId = new Map(body.posts!.map((p) => [p.id, p]));
    assert.equal(byId.get(TI.jaRoot)?.translation?.text, JA_ROOT);
    assert.equal(byId.get(TI.jaRoot)?.translation?.provider, 'fxtwitter');
    assert.match(byId.get(TI.jaRoot)!.text, /今日は/, 'the original stays');
    assert.match(body.markdown, /Translated from Japanese \(ja → en\) by Grok via fxtwitter/);
    const filtered = (await (await s.get(`/api/v1/profiles/${TH.kenji}?format=json&lang=en`)).json()) as ListJson;
    assert.deepEqual(filtered.posts, [], 'lang= keeps only posts written in English');
  });

  test('search, and the Continue → link keeps translate', async () => {
    const res = await s.get(`/api/v1/search?q=from:${TH.kenji}&format=json&translate=en&limit=1`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as ListJson;
    const posts = body.items!.flatMap((i) => (i.post ? [i.post] : i.id ? [i as JsonPost] : []));
    assert.ok(posts.length > 0);
    assert.ok(
      posts.every((p) => p.translation?.to === 'en'),
      JSON.stringify(posts),
    );
    if (body.nextCursor) assert.match(body.markdown, /Continue →\]\([^)]*translate=en/);
  });

  test("a profile's feed and its export translate too", async () => {
    const rss = await (await s.get(`/${TH.kenji}/rss?translate=en`)).text();
    assert.match(rss, /Translated from Japanese \(ja → en\)/);
    assert.match(rss, /今日は/, 'the original stays');
    assert.match(rss, /rss\?translate=en/, 'the self link names the language');
    const json = (await (await s.get(`/api/v1/profiles/${TH.kenji}/feed?type=json&translate=en`)).json()) as {
      items: { content_html: string }[];
    };
    assert.ok(json.items.some((i) => i.content_html.includes(JA_SECOND)));
    const exported = (await (await s.get(`/api/v1/profiles/${TH.kenji}/posts?format=json&translate=en`)).json()) as {
      posts: JsonPost[];
    };
    assert.equal(exported.posts.find((p) => p.id === TI.jaRoot)?.translation?.text, JA_ROOT);
  });

  test('a bad translate= is 400 invalid_lang before anything is read', async () => {
    const res = await s.get(`/api/v1/profiles/${TH.kenji}?translate=${'x'.repeat(40)}`);
    assert.equal(res.status, 400);
    assert.equal((await problemOf(res)).code, 'invalid_lang');
  });
});

describe('translate= through X: translations attached to the page (no call per post)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-translate-'));
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_PROVIDERS: 'x', THREADMARK_X_SESSIONS: writeSessions(dir, 'xlate') });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // First: every translation cache is still cold.
  test('an X List: translate= translates its posts from the one page read, lang= keeps the English ones', async () => {
    const detail = s.sim.calls({ target: 'x', path: 'TweetDetail' });
    const pages = s.sim.calls({ target: 'x', path: 'ListLatestTweetsTimeline' });
    const res = await s.get(`/i/lists/${LIST_IDS.languages}?format=json&translate=en`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as ListJson;
    const byId = new Map(body.posts!.map((p) => [p.id, p]));
    assert.equal(byId.get(TI.jaRoot)?.translation?.text, JA_ROOT);
    assert.equal(byId.get(TI.frReply)?.translation?.text, 'Thanks, very useful for our team!');
    assert.equal(byId.get(TI.frReply)?.translation?.provider, 'x');
    assert.equal(byId.get(TI.enReply)?.translation, undefined, 'a post already in English is left alone');
    assert.equal(s.sim.calls({ target: 'x', path: 'TweetDetail' }), detail, 'no per-post translation call');
    assert.equal(s.sim.calls({ target: 'x', path: 'ListLatestTweetsTimeline' }), pages + 1, 'one page read');
    const english = (await (await s.get(`/i/lists/${LIST_IDS.languages}?format=json&lang=en`)).json()) as ListJson;
    const ids = english.posts!.map((p) => p.id);
    assert.ok(ids.includes(TI.enReply) && !ids.includes(TI.jaRoot) && !ids.includes(TI.frReply), ids.join(','));
    assert.ok(english.posts!.every((p) => p.translation === undefined));
  });

  test('a profile asked in English: one timeline read, Grok via x on each post', async () => {
    const detail = s.sim.calls({ target: 'x', path: 'TweetDetail' });
    const res = await s.get(`/api/v1/profiles/${TH.kenji}?format=json&translate=en`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as ListJson;
    const byId = new Map(body.posts!.map((p) => [p.id, p]));
    assert.deepEqual(byId.get(TI.jaSecond)?.translation, {
      text: JA_SECOND,
      from: 'ja',
      to: 'en',
      service: 'Grok',
      provider: 'x',
    });
    assert.equal(byId.get(TI.jaRoot)?.translation?.text, JA_ROOT);
    assert.equal(s.sim.calls({ target: 'x', path: 'TweetDetail' }), detail, 'no per-post translation call');
    const plain = (await (await s.get(`/api/v1/profiles/${TH.kenji}?format=json`)).json()) as ListJson;
    assert.ok(
      plain.posts!.every((p) => p.translation === undefined),
      'without translate= no translation',
    );
  });

  test('search asked in French through X (a language no read asked for before)', async () => {
    const detail = s.sim.calls({ target: 'x', path: 'TweetDetail' });
    const body = (await (await s.get(`/api/v1/search?q=from:${TH.kenji}&format=json&translate=fr`)).json()) as ListJson;
    const posts = body.items!.flatMap((i) => (i.post ? [i.post] : i.id ? [i as JsonPost] : []));
    assert.ok(
      posts.length > 0 && posts.every((p) => p.translation?.provider === 'x' && p.translation.to === 'fr'),
      JSON.stringify(body.items),
    );
    assert.equal(s.sim.calls({ target: 'x', path: 'TweetDetail' }), detail);
  });
});
