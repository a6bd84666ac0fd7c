// X Lists through the real server against the simulator's GraphQL: the list's latest posts and its members on
// both surfaces and in every representation, cursor and page=N paging, the feeds, each bad input, 404s, the 503
// without sessions, account-pool charging (anonymous and keyed) and the MCP tools.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CACHING_LIST_MEMBERS, LIST_IDS } from '../../sim/corpus-lists.ts';
import { HANDLES } from '../../sim/corpus.ts';
import { xAccounts } from '../../sim/routes/x-accounts.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';

const ADMIN = 'admin-token-for-list-tests';
const dir = mkdtempSync(join(tmpdir(), 'threadmark-lists-'));
const SESSIONS = join(dir, 'sessions.jsonl');
writeFileSync(
  SESSIONS,
  [1, 2]
    .map((i) => JSON.stringify({ username: `l${i}`, auth_token: `lists_tok_${i}`, ct0: `lists_ct0_${i}` }))
    .join('\n') + '\n',
);
after(() => rmSync(dir, { recursive: true, force: true }));

let ipSeq = 0;
/** Each caller its own address: list reads are charged to the account pool per address (10 per 900 s). */
const caller = (extra: Record<string, string> = {}) => ({
  headers: { 'x-forwarded-for': `10.44.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`, ...extra },
});

/** `"name";r=R;t=T` member of the RateLimit field. */
function remaining(res: Response, policy: string): number | undefined {
  const m = new RegExp(`(?:^|, )"${policy}";r=(\\d+);t=\\d+`).exec(res.headers.get('ratelimit') ?? '');
  return m ? Number(m[1]) : undefined;
}

interface ListJson {
  markdown: string;
  list: { id: string; name: string; owner: { handle: string }; members?: number; description?: string };
  posts?: Array<{ id: string; createdAt: string; author: { handle: string } }>;
  items?: Array<{ handle: string }>;
  nextCursor?: string;
  page: number;
  limit: number;
  source: string;
}

const CACHING = LIST_IDS.caching;

interface JsonFeedDoc {
  title: string;
  items: Array<{ url: string }>;
  feed_url: string;
}

describe('X Lists with sessions', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({
      THREADMARK_PROVIDERS: 'fxtwitter,syndication,x',
      THREADMARK_X_SESSIONS: SESSIONS,
      THREADMARK_TRUST_PROXY: 'true',
      THREADMARK_ADMIN_TOKEN: ADMIN,
    });
  });
  after(() => s.close());

  async function json(path: string, init = caller()): Promise<{ res: Response; body: ListJson }> {
    const res = await s.get(path + (path.includes('?') ? '&' : '?') + 'format=json', init);
    const text = await res.text();
    assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
    return { res, body: JSON.parse(text) as ListJson };
  }

  test('latest posts: the list, its members’ posts newest first, provenance and paging envelope', async () => {
    const { res, body } = await json(`/api/v1/lists/${CACHING}?limit=5`);
    assert.equal(res.headers.get('x-source'), 'x');
    assert.equal(res.headers.get('x-browse-resource'), 'list');
    assert.equal(res.headers.get('x-result-count'), '5');
    assert.deepEqual(
      { id: body.list.id, name: body.list.name, owner: body.list.owner.handle, members: body.list.members },
      { id: CACHING, name: 'Caching people', owner: HANDLES.alice, members: CACHING_LIST_MEMBERS },
    );
    assert.equal(body.posts!.length, 5);
    const times = body.posts!.map((p) => Date.parse(p.createdAt));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
      'newest first',
    );
    assert.equal(body.page, 1);
    assert.equal(body.limit, 5);
    assert.ok(body.nextCursor);
    assert.equal(body.source, 'x');
  });

  test('Markdown names the list and ends with Continue → to the same route; HTML wraps it with a feed link', async () => {
    const res = await s.get(`/i/lists/${CACHING}?limit=2`, caller());
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/markdown/);
    const md = await res.text();
    assert.match(md, /^# Caching people\n/);
    assert.match(md, /List by \[@alice_dev\]\(http:\/\/threadmark\.test\/alice_dev\) · 45 members/);
    assert.match(md, /Everyone who has opinions about cache invalidation/);
    const last = md.trimEnd().split('\n').at(-1)!;
    assert.match(
      last,
      new RegExp(`^\\[Continue →\\]\\(${TEST_BASE}/i/lists/${CACHING}\\?limit=2&cursor=[A-Za-z0-9_-]+\\)$`),
    );

    const html = await s.get(`/i/lists/${CACHING}?limit=2`, caller({ accept: 'text/html' }));
    assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
    const page = await html.text();
    assert.match(page, /<h1[^>]*>Caching people<\/h1>/);
    assert.ok(page.includes(`href="${TEST_BASE}/i/lists/${CACHING}/rss"`), 'feed discovery link');
  });

  test('paging with cursors reaches every post once; page=N lands where the cursors do; limit and page clamp', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { body } = await json(
        `/api/v1/lists/${CACHING}?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      pages++;
      assert.equal(body.page, pages);
      seen.push(...body.posts!.map((p) => p.id));
      cursor = body.nextCursor;
    } while (cursor && pages < 12);
    assert.equal(cursor, undefined, 'the list ends');
    assert.ok(pages >= 3, `${pages} pages`);
    assert.equal(new Set(seen).size, seen.length, 'no post twice');

    const third = await json(`/api/v1/lists/${CACHING}?page=3&limit=20`);
    assert.equal(third.body.page, 3);
    assert.deepEqual(
      third.body.posts!.map((p) => p.id),
      seen.slice(40, 60),
    );
    const clamped = await json(`/api/v1/lists/${CACHING}?limit=500`);
    assert.equal(clamped.body.limit, 20);
    assert.equal(clamped.body.posts!.length, 20);
    const far = await json(`/api/v1/lists/${CACHING}?page=99&limit=20`);
    assert.equal(far.body.page, 10);
    assert.deepEqual(far.body.posts, [], 'the list ends before page 10');
  });

  test('members: every account once across the pages, then the end', async () => {
    const handles: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { res, body } = await json(
        `/i/lists/${CACHING}/members${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      assert.equal(res.headers.get('x-browse-resource'), 'list-members');
      handles.push(...body.items!.map((a) => a.handle));
      cursor = body.nextCursor;
      pages++;
    } while (cursor && pages < 5);
    assert.equal(handles.length, CACHING_LIST_MEMBERS);
    assert.equal(new Set(handles).size, CACHING_LIST_MEMBERS);
    assert.deepEqual(handles.slice(0, 2), [HANDLES.big, HANDLES.dave]);
    assert.equal(pages, 3);

    const md = await (await s.get(`/api/v1/lists/${CACHING}/members?limit=2`, caller())).text();
    assert.match(md, /^# Members of Caching people\n/);
    assert.match(md, /- \*\*Big Account\*\* \(\[@bigaccount\]/);
    assert.match(
      md,
      /\[Continue →\]\(http:\/\/threadmark\.test\/api\/v1\/lists\/1900000000000090001\/members\?limit=2&cursor=/,
    );
  });

  test('a cursor is tied to its route and list', async () => {
    const { body } = await json(`/api/v1/lists/${CACHING}?limit=2`);
    for (const path of [`/api/v1/lists/${CACHING}/members`, `/api/v1/lists/${LIST_IDS.pair}`, `/${HANDLES.alice}`]) {
      const res = await s.get(`${path}?cursor=${encodeURIComponent(body.nextCursor!)}`, caller());
      assert.equal(res.status, 400, path);
      assert.equal((await problemOf(res)).code, 'invalid_cursor');
    }
  });

  test('bad input: a non-numeric id is 400 invalid_list_id; an impossible id 404 without an upstream call', async () => {
    for (const id of ['abc', '12a', '-1', '1.5']) {
      for (const path of [`/i/lists/${id}`, `/api/v1/lists/${id}/members`, `/i/lists/${id}/rss`]) {
        const res = await s.get(path, caller());
        assert.equal(res.status, 400, path);
        assert.equal((await problemOf(res)).code, 'invalid_list_id', path);
      }
    }
    const before = s.sim.calls({ target: 'x' });
    for (const id of ['9223372036854775808', '12345678901234567890123']) {
      const res = await s.get(`/api/v1/lists/${id}`, caller());
      assert.equal(res.status, 404);
      assert.equal((await problemOf(res)).code, 'not_found');
    }
    assert.equal(s.sim.calls({ target: 'x' }), before, 'no upstream call for an id that cannot exist');
    for (const [q, code] of [
      ['limit=0', 'invalid_page'],
      ['page=0', 'invalid_page'],
      ['format=obsidian', 'invalid_format'],
      ['full=maybe', 'invalid_flag'],
      ['cursor=not-ours', 'invalid_cursor'],
    ]) {
      const res = await s.get(`/api/v1/lists/${CACHING}?${q}`, caller());
      assert.equal(res.status, 400, q);
      assert.equal((await problemOf(res)).code, code, q);
    }
  });

  test('a private list and a list no one has are 404 not_found, on the pages and the feeds', async () => {
    for (const id of [LIST_IDS.private, LIST_IDS.unknown]) {
      for (const path of [`/api/v1/lists/${id}`, `/i/lists/${id}/members`, `/i/lists/${id}/rss`]) {
        const res = await s.get(path, caller());
        assert.equal(res.status, 404, path);
        assert.equal((await problemOf(res)).code, 'not_found', path);
      }
    }
  });

  test('feeds: RSS on the permalink, RSS / Atom / JSON Feed on the versioned route, 304 on a repeat', async () => {
    const rss = await s.get(`/i/lists/${CACHING}/rss`, caller());
    assert.equal(rss.status, 200);
    assert.match(rss.headers.get('content-type') ?? '', /^application\/rss\+xml/);
    const xml = await rss.text();
    assert.match(xml, /<title>Caching people \(X List by @alice_dev\)<\/title>/);
    assert.ok(xml.includes(`<link>${TEST_BASE}/i/lists/${CACHING}</link>`));
    assert.equal((xml.match(/<item>/g) ?? []).length, 20);

    const atom = await s.get(`/api/v1/lists/${CACHING}/feed?type=atom`, caller());
    assert.match(atom.headers.get('content-type') ?? '', /^application\/atom\+xml/);
    assert.match(await atom.text(), /<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom"/);

    const feed = await s.get(`/api/v1/lists/${CACHING}/feed?type=json`, caller());
    assert.match(feed.headers.get('content-type') ?? '', /^application\/feed\+json/);
    const doc = (await feed.json()) as JsonFeedDoc;
    assert.equal(doc.title, 'Caching people (X List by @alice_dev)');
    assert.equal(doc.items.length, 20);
    assert.equal(doc.feed_url, `${TEST_BASE}/api/v1/lists/${CACHING}/feed?type=json`);

    const again = await s.get(`/i/lists/${CACHING}/rss`, caller({ 'if-none-match': rss.headers.get('etag')! }));
    assert.equal(again.status, 304);

    // since_id: a poller that keeps the newest id it has seen; nothing newer is an empty feed.
    const count = async (sinceId: string) =>
      (
        (await (
          await s.get(`/api/v1/lists/${CACHING}/feed?type=json&since_id=${sinceId}`, caller())
        ).json()) as JsonFeedDoc
      ).items.length;
    assert.equal(await count('1'), 20);
    assert.equal(await count('9223372036854775807'), 0);

    const bad = await s.get(`/api/v1/lists/${CACHING}/feed?type=yaml`, caller());
    assert.equal((await problemOf(bad)).code, 'invalid_feed_option');
  });

  test('charging: each live upstream page costs account-ip, cached pages are free; the 11th live read is 429', async () => {
    const c = caller();
    // A list of its own so no other test has warmed the cache: ListByRestId + the first page are two reads.
    const first = await s.get(`/api/v1/lists/${LIST_IDS.pair}?nocache=false`, c);
    assert.equal(first.status, 200);
    assert.match(first.headers.get('ratelimit-policy') ?? '', /"account-ip";q=10;w=900/);
    assert.equal(remaining(first, 'account-ip'), 8);
    const cached = await s.get(`/api/v1/lists/${LIST_IDS.pair}?nocache=false`, c);
    assert.equal(cached.headers.get('x-cache'), 'hit');
    assert.equal(remaining(cached, 'account-ip') ?? 8, 8, 'a cached read charges nothing');
    // page=3 of members, bypassing the cache: the list plus three upstream pages.
    const walk = await s.get(`/api/v1/lists/${CACHING}/members?limit=5&page=3&nocache=true`, c);
    assert.equal(walk.status, 200);
    assert.equal(remaining(walk, 'account-ip'), 4);
    assert.equal(remaining(walk, 'search-ip'), 1, 'nocache: one live-lookup point per live read too');
    // Each nocache read of one page is two live reads: the list and the page.
    for (const left of [2, 0]) {
      // The minute-long search-ip window would end first; its expiry is what this reset stands for.
      await s.app.services.stores.limiter.reset('search-ip', c.headers['x-forwarded-for']);
      const r = await s.get(`/api/v1/lists/${CACHING}/members?limit=1&nocache=true`, c);
      assert.equal(r.status, 200, await r.clone().text());
      assert.equal(remaining(r, 'account-ip'), left);
    }
    await s.app.services.stores.limiter.reset('search-ip', c.headers['x-forwarded-for']);
    const refused = await s.get(`/api/v1/lists/${CACHING}?nocache=true`, c);
    assert.equal(refused.status, 429);
    assert.match((await refused.clone().json()).detail, /account-ip/);
    assert.equal((await problemOf(refused)).code, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
  });

  test('key holders: private, no-store; charged to account-key and live-key, not the public pool', async () => {
    const created = await fetch(`${s.url}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'lists', accountQuota: 4 }),
    });
    const { key } = (await created.json()) as { key: string };
    const auth = caller({ authorization: `Bearer ${key}` });
    const res = await s.get(`/api/v1/lists/${LIST_IDS.pair}/members`, auth);
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get('cache-control'), 'private, no-store');
    assert.equal(res.headers.get('x-api-key-status'), 'valid');
    assert.match(res.headers.get('ratelimit-policy') ?? '', /"account-key";q=4;w=900/);
    assert.equal(remaining(res, 'account-key'), 2);
    assert.ok(remaining(res, 'live-key') !== undefined);
    assert.equal(remaining(res, 'account-ip'), undefined);
    const again = await s.get(`/api/v1/lists/${LIST_IDS.pair}/members`, auth);
    assert.equal(again.status, 200);
    const refused = await s.get(`/api/v1/lists/${LIST_IDS.pair}/members`, auth);
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get('ratelimit-policy') ?? '', /"account-key";q=4;w=900/);
  });

  test('MCP: list_posts and list_members are tools with output schemas, and a call returns the list', async () => {
    const client = new Client({ name: 'lists-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: caller() }));
    try {
      const { tools } = await client.listTools();
      for (const name of ['list_posts', 'list_members']) {
        const t = tools.find((x) => x.name === name);
        assert.ok(t, name);
        assert.deepEqual(t.inputSchema.required, ['id']);
        assert.equal(t.outputSchema?.type, 'object');
        assert.ok(t.outputSchema?.properties?.list, name);
      }
      const r = (await client.callTool({ name: 'list_members', arguments: { id: LIST_IDS.pair } })) as {
        isError?: boolean;
        content: Array<{ text?: string }>;
        structuredContent?: Record<string, unknown>;
      };
      assert.ok(!r.isError, r.content[0]?.text);
      const tool = tools.find((x) => x.name === 'list_members')!;
      const verdict = new AjvJsonSchemaValidator().getValidator(tool.outputSchema!)(r.structuredContent);
      assert.ok(verdict.valid, verdict.errorMessage);
      assert.match(r.content[0]!.text!, /^# Members of Bob & Carol/);
      const items = r.structuredContent!.items as Array<{ handle: string }>;
      assert.deepEqual(
        items.map((a) => a.handle),
        [HANDLES.carol, HANDLES.bob],
      );
      const bad = (await client.callTool({ name: 'list_posts', arguments: { id: 'abc' } })) as {
        isError?: boolean;
        content: Array<{ text?: string }>;
      };
      assert.ok(bad.isError);
      assert.match(bad.content[0]!.text!, /invalid_list_id/);
    } finally {
      await client.close();
    }
  });

  // Last in this suite: it uses up both sessions' windows.
  test('every session parked: 503 list_unavailable with Retry-After = seconds until the first one frees up', async () => {
    xAccounts.setLimits({ limit: 1, windowS: 600 });
    try {
      for (let i = 0; i < 2; i++) {
        const r = await s.get(`/api/v1/lists/${CACHING}/members?limit=1&nocache=true`, caller());
        assert.equal(r.status, 200, await r.clone().text());
      }
      const calls = s.sim.calls({ target: 'x' });
      // A page read before is still served, from its stale copy, and says so.
      const stale = await s.get(`/api/v1/lists/${CACHING}/members?limit=1&nocache=true`, caller());
      assert.equal(stale.status, 200);
      assert.equal(stale.headers.get('x-cache'), 'stale');
      assert.match(stale.headers.get('x-warnings') ?? '', /list_unavailable/);
      // A page no one has read has nothing to fall back on.
      const res = await s.get(`/api/v1/lists/${CACHING}/members?limit=7&nocache=true`, caller());
      const problem = await problemOf(res);
      assert.equal(res.status, 503, JSON.stringify(problem));
      assert.equal(problem.code, 'list_unavailable');
      const wait = Number(res.headers.get('retry-after'));
      assert.ok(wait > 500 && wait <= 600, String(wait));
      assert.match(String(problem.detail), /parked/);
      assert.equal(s.sim.calls({ target: 'x' }), calls, 'no request goes to X while every session is parked');
    } finally {
      xAccounts.reset();
    }
  });
});

describe('X Lists without sessions', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_PROVIDERS: 'fxtwitter,syndication,x', THREADMARK_TRUST_PROXY: 'true' });
  });
  after(() => s.close());

  test('503 list_unavailable with Retry-After on every list route and feed; nothing charged, nothing asked', async () => {
    for (const path of [
      `/i/lists/${CACHING}`,
      `/api/v1/lists/${CACHING}`,
      `/i/lists/${CACHING}/members`,
      `/api/v1/lists/${CACHING}/members?format=json`,
      `/i/lists/${CACHING}/rss`,
      `/api/v1/lists/${CACHING}/feed?type=atom`,
    ]) {
      const res = await s.get(path, caller());
      const problem = await problemOf(res);
      assert.equal(res.status, 503, path);
      assert.equal(problem.code, 'list_unavailable', path);
      assert.equal(problem.type, `${TEST_BASE}/docs/reliability#list-unavailable`);
      assert.ok(Number(res.headers.get('retry-after')) > 0, path);
      assert.equal(remaining(res, 'account-ip'), undefined, `${path}: nothing charged`);
    }
    assert.equal(s.sim.calls({ target: 'x' }), 0);
  });

  test('documented: /docs/reliability has both codes; /docs, OpenAPI and llms.txt have the routes', async () => {
    const page = await (await s.get('/docs/reliability')).text();
    assert.ok(page.includes('id="list-unavailable"'));
    assert.ok(page.includes('id="invalid-list-id"'));
    const docs = await (await s.get('/docs')).text();
    assert.ok(docs.includes('id="lists"'));
    assert.ok(docs.includes('id="route-readList"'));
    const openapi = (await (await s.get('/openapi.json')).json()) as { paths: Record<string, { get: unknown }> };
    for (const p of [
      '/api/v1/lists/{id}',
      '/api/v1/lists/{id}/members',
      '/api/v1/lists/{id}/feed',
      '/i/lists/{id}/rss',
    ])
      assert.ok(openapi.paths[p]?.get, p);
    assert.ok(JSON.stringify(openapi.paths['/api/v1/lists/{id}']).includes('list_unavailable'));
    const llms = await (await s.get('/llms.txt')).text();
    assert.ok(llms.includes('GET /api/v1/lists/{id}/members'));
    assert.ok(llms.includes('list_unavailable'));
  });
});
