// since_id through the real server against the simulator: profile, search, feeds, the MCP tools and the CLI.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HANDLES, SEARCH_TERMS } from '../../sim/corpus.ts';
import { problemOf, startStack, type Stack } from '../helpers/stack.ts';
import { runCli } from '../../src/cli/program.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s?.close());

interface ProfileBody {
  markdown: string;
  profile: { handle: string };
  posts: Array<{ id: string }>;
  nextCursor?: string;
  page: number;
  limit: number;
}
interface SearchBody {
  markdown: string;
  items: Array<{ kind: string; post?: { id: string } }>;
  nextCursor?: string;
  page: number;
}

async function json<T>(path: string): Promise<T> {
  const res = await s.get(path, { headers: { accept: 'application/json' } });
  assert.equal(res.status, 200, path);
  return (await res.json()) as T;
}

const desc = (ids: string[]) => [...ids].sort((a, b) => (BigInt(b) > BigInt(a) ? 1 : -1));

describe('since_id on the profile route', () => {
  test('only posts newer than since_id, newest first; the page that reaches it has no nextCursor', async () => {
    const all = await json<ProfileBody>(`/api/v1/profiles/${HANDLES.alice}?limit=20`);
    assert.ok(all.posts.length >= 4, 'enough posts to cut');
    const ids = desc(all.posts.map((p) => p.id));
    const since = ids[3]!;
    const newer = await json<ProfileBody>(`/api/v1/profiles/${HANDLES.alice}?limit=20&since_id=${since}`);
    assert.deepEqual(
      newer.posts.map((p) => p.id),
      ids.slice(0, 3),
    );
    assert.equal(newer.nextCursor, undefined, 'caught up: nothing older is worth paging to');
    assert.equal(newer.profile.handle, HANDLES.alice);
  });

  test('nothing new: an empty page in the usual envelope, in JSON and Markdown', async () => {
    const all = await json<ProfileBody>(`/api/v1/profiles/${HANDLES.alice}`);
    const newest = desc(all.posts.map((p) => p.id))[0]!;
    const empty = await json<ProfileBody>(`/api/v1/profiles/${HANDLES.alice}?since_id=${newest}`);
    assert.deepEqual(empty.posts, []);
    assert.equal(empty.page, 1);
    assert.equal(empty.limit, 20);
    assert.equal(empty.nextCursor, undefined);
    const md = await s.get(`/${HANDLES.alice}?since_id=${newest}`);
    assert.equal(md.status, 200);
    assert.equal(md.headers.get('x-result-count'), '0');
    assert.match(await md.text(), /@alice_dev/);
  });

  test('a since_id older than everything changes nothing', async () => {
    const all = await json<ProfileBody>(`/api/v1/profiles/${HANDLES.alice}?limit=5`);
    const old = await json<ProfileBody>(`/api/v1/profiles/${HANDLES.alice}?limit=5&since_id=1`);
    assert.deepEqual(
      old.posts.map((p) => p.id),
      desc(all.posts.map((p) => p.id)),
    );
    assert.equal(Boolean(old.nextCursor), Boolean(all.nextCursor));
    if (old.nextCursor) assert.match(old.markdown, /since_id=1/, 'Continue → keeps since_id');
  });

  for (const bad of ['abc', '-1', '12.5', '1e9', '', '9'.repeat(26), '0x10']) {
    test(`since_id=${JSON.stringify(bad).slice(0, 20)} is 400 invalid_since_id`, async () => {
      for (const path of [
        `/api/v1/profiles/${HANDLES.alice}`,
        `/${HANDLES.alice}`,
        `/api/v1/search?q=caching`,
        `/${HANDLES.alice}/rss`,
      ]) {
        const res = await s.get(`${path}${path.includes('?') ? '&' : '?'}since_id=${encodeURIComponent(bad)}`);
        assert.equal(res.status, 400, path);
        assert.equal((await problemOf(res)).code, 'invalid_since_id', path);
      }
    });
  }

  test('followers and following take no since_id (accounts have no post ids): validation ignores it as any unknown parameter', async () => {
    const res = await s.get(`/api/v1/profiles/${HANDLES.big}/followers?limit=2&since_id=5`);
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  });
});

describe('since_id on search and feeds', () => {
  test('search: newer posts only, newest first; nothing new is an empty page', async () => {
    const all = await json<SearchBody>(`/api/v1/search?q=${SEARCH_TERMS.caching}`);
    const ids = desc(all.items.flatMap((i) => (i.post ? [i.post.id] : [])));
    assert.ok(ids.length >= 2, 'search finds posts');
    const newer = await json<SearchBody>(`/api/v1/search?q=${SEARCH_TERMS.caching}&since_id=${ids[1]}`);
    assert.deepEqual(
      newer.items.map((i) => i.post?.id),
      [ids[0]],
    );
    assert.equal(newer.nextCursor, undefined);
    const none = await json<SearchBody>(`/search?q=${SEARCH_TERMS.caching}&since_id=${ids[0]}`);
    assert.deepEqual(none.items, []);
  });

  test('search: since_id on the users feed is 400 invalid_since_id', async () => {
    const res = await s.get(`/api/v1/search?q=caching&feed=users&since_id=5`);
    assert.equal(res.status, 400);
    assert.equal((await problemOf(res)).code, 'invalid_since_id');
  });

  test('feeds: only entries newer than since_id', async () => {
    const all = await json<{ items: Array<{ id: string; url: string }> }>(
      `/api/v1/profiles/${HANDLES.alice}/feed?type=json`,
    );
    const idOf = (url: string) => /status\/(\d+)/.exec(url)![1]!;
    const ids = desc(all.items.map((i) => idOf(i.url)));
    assert.ok(ids.length >= 3);
    const newer = await json<{ items: Array<{ url: string }> }>(
      `/api/v1/profiles/${HANDLES.alice}/feed?type=json&since_id=${ids[2]}`,
    );
    assert.deepEqual(
      newer.items.map((i) => idOf(i.url)),
      ids.slice(0, 2),
    );
    const rss = await s.get(`/${HANDLES.alice}/rss?since_id=${ids[0]}`);
    assert.equal(rss.status, 200);
    assert.doesNotMatch(await rss.text(), /<item>/);
  });
});

describe('since_id in the MCP tools and the CLI', () => {
  test('read_profile and search take since_id', async () => {
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      for (const name of ['read_profile', 'search']) {
        assert.ok(tools.find((t) => t.name === name)?.inputSchema.properties?.since_id, name);
      }
      const all = await json<ProfileBody>(`/api/v1/profiles/${HANDLES.alice}`);
      const ids = desc(all.posts.map((p) => p.id));
      const r = (await client.callTool({
        name: 'read_profile',
        arguments: { handle: HANDLES.alice, since_id: ids[1] },
      })) as unknown as {
        structuredContent: ProfileBody;
      };
      assert.deepEqual(
        r.structuredContent.posts.map((p) => p.id),
        [ids[0]],
      );
    } finally {
      await client.close();
    }
  });

  test('threadmark profile --since-id', async () => {
    const all = await json<ProfileBody>(`/api/v1/profiles/${HANDLES.alice}`);
    const ids = desc(all.posts.map((p) => p.id));
    let out = '';
    const io = { stdout: { write: (c: string) => (out += c) }, stderr: { write: () => true }, env: {} };
    const code = await runCli(
      ['profile', HANDLES.alice, '--since-id', ids[2]!, '--format', 'json', '--server', s.url],
      io,
    );
    assert.equal(code, 0);
    assert.deepEqual(
      (JSON.parse(out) as ProfileBody).posts.map((p) => p.id),
      ids.slice(0, 2),
    );
    let err = '';
    const bad = await runCli(['profile', HANDLES.alice, '--since-id', 'x', '--server', s.url], {
      ...io,
      stderr: { write: (c: string) => (err += c) },
    });
    assert.equal(bad, 2);
    assert.match(err, /invalid_since_id/);
  });
});
