// Exports through the real server and simulator: NDJSON streamed as pages arrive and the JSON document, every
// way an export stops (max_posts, window, end of timeline, upstream failure, time limit), resuming from the end
// line's cursor, the export-ip / export-key quotas at their boundary, every bad input, and a client that leaves.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getCorpus, HANDLES, PROLIFIC_POSTS, prolificPostId, T0 } from '../../sim/corpus.ts';
import { encodeCursor } from '../../sim/cursor.ts';
import { problemOf, startStack, type Stack } from '../helpers/stack.ts';

const corpus = getCorpus();
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const EXPORT = (handle: string) => `/api/v1/profiles/${handle}/posts`;

interface Line {
  type?: string;
  id?: string;
  createdAt?: string;
  reason?: string;
  posts?: number;
  cursor?: string;
  problem?: { code: string; status: number };
  warnings?: string[];
  replyTo?: { handle: string };
  repostOf?: unknown;
}

/** Reads an NDJSON body line by line, noting when each line arrived. */
async function readLines(res: Response): Promise<{ lines: Line[]; at: number[] }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const lines: Line[] = [];
  const at: number[] = [];
  let rest = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    rest += decoder.decode(value, { stream: true });
    const parts = rest.split('\n');
    rest = parts.pop()!;
    for (const p of parts) {
      lines.push(JSON.parse(p) as Line);
      at.push(Date.now());
    }
  }
  assert.equal(rest, '', 'the body ends with a newline');
  return { lines, at };
}

const split = (lines: Line[]) => ({ posts: lines.slice(0, -1), end: lines.at(-1)! });

/** alice's own posts (her self-thread included; no replies to others, no reposts), newest first, as the
 * simulator's timeline holds them. */
function aliceOriginals(): string[] {
  const alice = corpus.usersByHandle.get(HANDLES.alice)!;
  const own = (replyToId?: string) => !replyToId || corpus.posts.get(replyToId)!.authorId === alice.id;
  return corpus.timelines
    .get(alice.id)!
    .filter((e) => !e.repostedBy && own(corpus.posts.get(e.postId)!.replyToId))
    .map((e) => e.postId);
}

let ipSeq = 0;
/** Each test from its own address: every export costs an export-ip point. */
const fresh = (headers: Record<string, string> = {}): RequestInit => ({
  headers: { 'x-forwarded-for': `10.18.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`, ...headers },
});

describe('exports', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_TRUST_PROXY: 'true' });
  });
  after(async () => {
    await s.close();
  });

  test('NDJSON: every original post, newest first, one per line, then the end line; no-store, export-ip charged', async () => {
    const res = await s.get(EXPORT(HANDLES.alice), fresh());
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/x-ndjson; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.headers.get('ratelimit-policy')!, /"export-ip";q=5;w=900/);
    assert.match(res.headers.get('ratelimit')!, /"export-ip";r=4;t=\d+/);
    // As every 200 of a read: what it varies on, and where its (first page of) posts came from.
    assert.equal(res.headers.get('vary'), 'Authorization');
    assert.equal(res.headers.get('x-source'), 'fxtwitter');
    assert.match(res.headers.get('x-cache')!, /^(hit|miss)$/);
    const { posts, end } = split((await readLines(res)).lines);
    assert.deepEqual(
      posts.map((p) => p.id),
      aliceOriginals(),
    );
    assert.ok(posts.every((p) => (!p.replyTo || p.replyTo.handle === HANDLES.alice) && !p.repostOf && !p.type));
    assert.deepEqual(end, { type: 'end', reason: 'end_of_timeline', posts: posts.length });
  });

  test('a post line is the same object as in the profile JSON', async () => {
    const profile = (await (await s.get(`/api/v1/profiles/${HANDLES.alice}?format=json`, fresh())).json()) as {
      posts: Line[];
    };
    const { lines } = await readLines(await s.get(`${EXPORT(HANDLES.alice)}?max_posts=3`, fresh()));
    assert.deepEqual(lines.slice(0, 3), profile.posts.slice(0, 3));
  });

  test('with_replies and with_reposts add them, labelled by replyTo / repostOf', async () => {
    const res = await s.get(`${EXPORT(HANDLES.alice)}?with_replies=true&with_reposts=1`, fresh());
    const { posts, end } = split((await readLines(res)).lines);
    assert.ok(posts.some((p) => p.replyTo));
    assert.ok(posts.some((p) => p.repostOf));
    assert.equal(end.reason, 'end_of_timeline');
    assert.ok(posts.length > aliceOriginals().length);
  });

  test('a repeated export reuses the cached pages: no further upstream call', async () => {
    const path = `${EXPORT(HANDLES.alice)}?format=json`;
    await (await s.get(path, fresh())).json();
    const before = s.sim.calls({ target: 'fxtwitter' });
    const again = (await (await s.get(path, fresh())).json()) as { posts: Line[]; end: Line };
    assert.equal(s.sim.calls({ target: 'fxtwitter' }), before);
    assert.equal(again.end.reason, 'end_of_timeline');
  });

  test('max_posts=1 writes one post; its cursor resumes with the next one', async () => {
    const all = aliceOriginals();
    const one = split((await readLines(await s.get(`${EXPORT(HANDLES.alice)}?max_posts=1`, fresh()))).lines);
    assert.deepEqual(
      one.posts.map((p) => p.id),
      [all[0]],
    );
    assert.equal(one.end.reason, 'max_posts');
    assert.equal(one.end.posts, 1);
    const next = split(
      (
        await readLines(
          await s.get(`${EXPORT(HANDLES.alice)}?max_posts=2&cursor=${encodeURIComponent(one.end.cursor!)}`, fresh()),
        )
      ).lines,
    );
    assert.deepEqual(
      next.posts.map((p) => p.id),
      all.slice(1, 3),
    );
  });

  test('max_posts=5000 stops at exactly 5000 of a longer timeline; the resumed export reads the rest to the end', async () => {
    const first = split((await readLines(await s.get(`${EXPORT(HANDLES.prolific)}?max_posts=5000`, fresh()))).lines);
    assert.equal(first.posts.length, 5000);
    assert.equal(first.posts[0]!.id, prolificPostId(0));
    assert.equal(first.posts[4999]!.id, prolificPostId(4999));
    assert.deepEqual(
      { ...first.end, cursor: undefined },
      { type: 'end', reason: 'max_posts', posts: 5000, cursor: undefined },
    );
    const rest = split(
      (
        await readLines(
          await s.get(`${EXPORT(HANDLES.prolific)}?cursor=${encodeURIComponent(first.end.cursor!)}`, fresh()),
        )
      ).lines,
    );
    assert.deepEqual(
      rest.posts.map((p) => p.id),
      Array.from({ length: PROLIFIC_POSTS - 5000 }, (_, i) => prolificPostId(5000 + i)),
    );
    assert.deepEqual(rest.end, { type: 'end', reason: 'end_of_timeline', posts: PROLIFIC_POSTS - 5000 });
  });

  test('the default is 1000 posts', async () => {
    const { posts, end } = split((await readLines(await s.get(EXPORT(HANDLES.prolific), fresh()))).lines);
    assert.equal(posts.length, 1000);
    assert.equal(end.reason, 'max_posts');
  });

  test('window edges: since is inclusive, until exclusive; the export stops at the window', async () => {
    // prolific_pat posts on the hour: T0-1h is the newest, T0-(n+1)h the n-th.
    const since = T0 - 10 * HOUR;
    const until = T0 - 5 * HOUR;
    const res = await s.get(`${EXPORT(HANDLES.prolific)}?since=${iso(since)}&until=${iso(until)}`, fresh());
    const { posts, end } = split((await readLines(res)).lines);
    assert.deepEqual(
      posts.map((p) => p.createdAt),
      [6, 7, 8, 9, 10].map((h) => iso(T0 - h * HOUR)),
    );
    assert.deepEqual(end, { type: 'end', reason: 'window', posts: 5 });
    // until alone jumps straight there: the first post is the newest before it.
    const jumped = split(
      (await readLines(await s.get(`${EXPORT(HANDLES.prolific)}?until=${iso(until)}&max_posts=2`, fresh()))).lines,
    );
    assert.deepEqual(
      jumped.posts.map((p) => p.id),
      [prolificPostId(5), prolificPostId(6)],
    );
    // A cursor belongs to its window.
    const other = await s.get(
      `${EXPORT(HANDLES.prolific)}?until=${iso(until - HOUR)}&cursor=${encodeURIComponent(jumped.end.cursor!)}`,
      fresh(),
    );
    assert.equal(other.status, 400);
    assert.equal((await problemOf(other)).code, 'invalid_export_cursor');
  });

  test('format=json: one document with the posts and the same end information', async () => {
    const res = await s.get(`${EXPORT(HANDLES.alice)}?format=json&max_posts=2`, fresh());
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^application\/json/);
    assert.match(res.headers.get('vary')!, /^Authorization\b/);
    assert.equal(res.headers.get('x-source'), 'fxtwitter');
    const body = (await res.json()) as { handle: string; includes: unknown; posts: Line[]; end: Line };
    assert.equal(body.handle, HANDLES.alice);
    assert.deepEqual(body.includes, { replies: false, reposts: false });
    assert.deepEqual(
      body.posts.map((p) => p.id),
      aliceOriginals().slice(0, 2),
    );
    assert.equal(body.end.type, 'end');
    assert.equal(body.end.reason, 'max_posts');
    assert.ok(body.end.cursor);
  });

  test('bad input: each gets its catalog problem before anything is read or charged', async () => {
    const cases: Array<[string, string]> = [
      ['max_posts=0', 'invalid_max_posts'],
      ['max_posts=5001', 'invalid_max_posts'],
      ['max_posts=-1', 'invalid_max_posts'],
      ['max_posts=1.5', 'invalid_max_posts'],
      ['max_posts=ten', 'invalid_max_posts'],
      ['max_posts=1&max_posts=2', 'invalid_max_posts'],
      ['since=2026-03-03&until=2026-03-01', 'invalid_date'],
      ['since=yesterday', 'invalid_date'],
      ['format=markdown', 'invalid_format'],
      ['with_replies=maybe', 'invalid_flag'],
      ['cursor=not-a-cursor', 'invalid_export_cursor'],
      [`cursor=${'A'.repeat(5000)}`, 'invalid_export_cursor'],
    ];
    const ip = fresh();
    const calls = s.sim.calls();
    for (const [qs, code] of cases) {
      const res = await s.get(`${EXPORT(HANDLES.alice)}?${qs}`, ip);
      assert.equal(res.status, 400, qs);
      const p = await problemOf(res);
      assert.equal(p.code, code, qs);
      assert.equal(p.type, `http://threadmark.test/docs/reliability#${code.replace(/_/g, '-')}`);
    }
    assert.equal(s.sim.calls(), calls, 'nothing was read upstream');
    // None of them cost an export: the same address can still export five times.
    const ok = await s.get(`${EXPORT(HANDLES.alice)}?max_posts=1`, ip);
    assert.match(ok.headers.get('ratelimit')!, /"export-ip";r=4;/);
    await ok.text();
  });

  test("a profile route's cursor, or one from another handle or options, is invalid_export_cursor", async () => {
    const page = (await (await s.get(`/api/v1/profiles/${HANDLES.alice}?limit=1&format=json`, fresh())).json()) as {
      nextCursor: string;
    };
    const mine = split((await readLines(await s.get(`${EXPORT(HANDLES.alice)}?max_posts=1`, fresh()))).lines).end;
    for (const path of [
      `${EXPORT(HANDLES.alice)}?cursor=${encodeURIComponent(page.nextCursor)}`,
      `${EXPORT(HANDLES.bob)}?cursor=${encodeURIComponent(mine.cursor!)}`,
      `${EXPORT(HANDLES.alice)}?with_replies=true&cursor=${encodeURIComponent(mine.cursor!)}`,
    ]) {
      const res = await s.get(path, fresh());
      assert.equal(res.status, 400, path);
      assert.equal((await problemOf(res)).code, 'invalid_export_cursor', path);
    }
  });

  test('a bad handle, a missing or protected account: problem documents, no stream', async () => {
    const bad = await s.get(EXPORT('not-a-handle!'), fresh());
    assert.equal(bad.status, 400);
    assert.equal((await problemOf(bad)).code, 'invalid_handle');
    for (const handle of [HANDLES.missing, HANDLES.protected]) {
      const res = await s.get(EXPORT(handle), fresh());
      assert.equal(res.status, 404, handle);
      assert.match(res.headers.get('content-type')!, /^application\/problem\+json/);
      assert.equal((await problemOf(res)).code, 'not_found');
    }
  });

  test('export-ip: five exports per address in 15 minutes; the sixth is 429 with Retry-After and the headers', async () => {
    const ip = fresh();
    for (let i = 1; i <= 5; i++) {
      const res = await s.get(`${EXPORT(HANDLES.alice)}?max_posts=1`, ip);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('ratelimit')!, new RegExp(`"export-ip";r=${5 - i};`));
      await res.text();
    }
    const calls = s.sim.calls();
    const refused = await s.get(`${EXPORT(HANDLES.alice)}?max_posts=1`, ip);
    assert.equal(refused.status, 429);
    assert.equal((await problemOf(refused)).code, 'rate_limited');
    const retry = Number(refused.headers.get('retry-after'));
    assert.ok(retry > 0 && retry <= 900, `Retry-After ${retry}`);
    assert.match(refused.headers.get('ratelimit-policy')!, /"export-ip";q=5;w=900/);
    assert.match(refused.headers.get('ratelimit')!, /"export-ip";r=0;t=\d+/);
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    assert.equal(s.sim.calls(), calls, 'a refused export reads nothing');
    // Other addresses and other routes are not affected.
    assert.equal((await s.get(`${EXPORT(HANDLES.alice)}?max_posts=1`, fresh())).status, 200);
    assert.equal((await s.get(`/api/v1/profiles/${HANDLES.alice}`, ip)).status, 200);
  });

  test('export-key: a key holder has 30 exports per 15 minutes, private and charged to live-key per read', async () => {
    const { key } = await s.app.services.stores.keys.create({ name: 'exporter' });
    const auth = { authorization: `Bearer ${key}` };
    const first = await s.get(`${EXPORT(HANDLES.alice)}?max_posts=1`, fresh(auth));
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'private, no-store');
    assert.equal(first.headers.get('x-api-key-status'), 'valid');
    assert.match(first.headers.get('ratelimit-policy')!, /"export-key";q=30;w=900/);
    assert.match(first.headers.get('ratelimit-policy')!, /"live-key";q=120;w=60/);
    assert.match(first.headers.get('ratelimit')!, /"export-key";r=29;/);
    await first.text();
    for (let i = 2; i <= 30; i++) {
      const res = await s.get(`${EXPORT(HANDLES.alice)}?max_posts=1`, fresh(auth));
      assert.equal(res.status, 200, `export ${i}`);
      await res.text();
    }
    const refused = await s.get(`${EXPORT(HANDLES.alice)}?max_posts=1`, fresh(auth));
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.match(refused.headers.get('ratelimit')!, /"export-key";r=0;/);
    // An unknown key is refused as everywhere.
    const unknown = await s.get(EXPORT(HANDLES.alice), fresh({ authorization: 'Bearer tm_nope' }));
    assert.equal(unknown.status, 401);
    assert.equal((await problemOf(unknown)).code, 'invalid_key');
  });

  test('HEAD: the status and headers a GET would start with, reading nothing upstream and charging no export', async () => {
    const ip = fresh();
    const head = (qs = '', init: RequestInit = ip) =>
      s.get(`${EXPORT(HANDLES.prolific)}${qs}`, { ...init, method: 'HEAD' });
    const calls = s.sim.calls();
    const res = await head();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/x-ndjson; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('x-api-key-status'), 'anonymous');
    assert.match(res.headers.get('ratelimit-policy')!, /"export-ip";q=5;w=900/);
    assert.match(res.headers.get('ratelimit')!, /"export-ip";r=5;t=\d+/);
    assert.equal(res.headers.get('ratelimit-remaining'), '5');
    assert.equal(res.headers.get('vary'), 'Authorization');
    // Nothing a HEAD cannot know: no entity tag or length of a body it did not produce (the GET streams).
    assert.equal(res.headers.get('etag'), null);
    assert.equal(res.headers.get('content-length'), null);
    assert.match((await head('?format=json')).headers.get('content-type')!, /^application\/json/);
    // Bad input still gets its problem status.
    const bad = await head('?max_posts=0');
    assert.equal(bad.status, 400);
    assert.match(bad.headers.get('content-type')!, /^application\/problem\+json/);
    assert.match(bad.headers.get('link')!, /invalid-max-posts/);
    assert.equal((await head('?cursor=not-a-cursor')).status, 400);
    assert.equal(s.sim.calls(), calls, 'a HEAD reads nothing upstream');
    // Nothing was charged: the first GET from this address still takes the first of five points ...
    for (let i = 1; i <= 5; i++) {
      const got = await s.get(`${EXPORT(HANDLES.alice)}?max_posts=1`, ip);
      assert.match(got.headers.get('ratelimit')!, new RegExp(`"export-ip";r=${5 - i};`));
      await got.text();
    }
    // ... and once they are used up, HEAD answers the 429 a GET would, still without charging.
    const refused = await head();
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.match(refused.headers.get('ratelimit')!, /"export-ip";r=0;/);
    // A key holder's HEAD shows export-key, untouched, and the private cache rule.
    const { key } = await s.app.services.stores.keys.create({ name: 'export-head' });
    const keyed = await head('', fresh({ authorization: `Bearer ${key}` }));
    assert.equal(keyed.status, 200);
    assert.equal(keyed.headers.get('cache-control'), 'private, no-store');
    assert.equal(keyed.headers.get('x-api-key-status'), 'valid');
    assert.match(keyed.headers.get('ratelimit')!, /"export-key";r=30;/);
    // A keyed GET also spends live-key per page: its HEAD shows that allowance too.
    assert.match(keyed.headers.get('ratelimit')!, /"live-key";r=120;/);
  });

  test('the route is in OpenAPI, /docs, /docs/reliability and llms.txt', async () => {
    const openapi = (await (await s.get('/openapi.json')).json()) as {
      paths: Record<string, { get: { responses: Record<string, { content?: Record<string, { schema: unknown }> }> } }>;
    };
    const op = openapi.paths['/api/v1/profiles/{handle}/posts']!.get;
    const ndjson = JSON.stringify(op.responses['200']!.content!['application/x-ndjson']!.schema);
    for (const reason of ['max_posts', 'window', 'end_of_timeline', 'upstream_error'])
      assert.ok(ndjson.includes(reason));
    assert.ok(JSON.stringify(op.responses['200']!.content!['application/json']!.schema).includes('"end"'));
    assert.ok(JSON.stringify(op.responses['400']).includes('invalid_max_posts'));
    const docs = await (await s.get('/docs')).text();
    assert.match(docs, /id="route-exportProfilePosts"/);
    assert.match(docs, /id="exports"/);
    const reliability = await (await s.get('/docs/reliability')).text();
    assert.match(reliability, /id="invalid-max-posts"/);
    assert.match(reliability, /id="invalid-export-cursor"/);
    const llms = await (await s.get('/llms.txt')).text();
    assert.match(llms, /GET \/api\/v1\/profiles\/\{handle\}\/posts/);
    assert.match(llms, /"type":"end"/);
  });
});

describe('exports against a failing or slow upstream (no cache, 3 s time limit)', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_CACHE_TTL_S: '0', THREADMARK_EXPORT_TIME_LIMIT_S: '3' });
  });
  after(async () => {
    await s.close();
  });

  const prolific = corpus.usersByHandle.get(HANDLES.prolific)!;
  const pageAt = (offset: number) => encodeCursor(`statuses:${prolific.id}:true`, offset);

  test('streamed as pages arrive; a mid-export failure ends with upstream_error, keeps every line, and resumes', async () => {
    // The second page never answers: the first hundred posts are out long before its timeout ends the export.
    s.sim.addFault({ target: 'fxtwitter', kind: 'timeout', match: `cursor=${pageAt(100)}`, times: 1 });
    const res = await s.get(`${EXPORT(HANDLES.prolific)}?max_posts=250`);
    assert.equal(res.status, 200);
    const { lines, at } = await readLines(res);
    const { posts, end } = split(lines);
    assert.equal(posts.length, 100);
    assert.ok(at.at(-1)! - at[99]! >= 1000, `the end line came ${at.at(-1)! - at[99]!} ms after the 100th post`);
    assert.equal(end.reason, 'upstream_error');
    assert.equal(end.posts, 100);
    assert.equal(end.problem?.status, 502);
    assert.match(end.problem.code, /^(fxtwitter_network|all_providers_failed|upstream_error)$/);
    assert.ok(end.cursor);
    s.sim.clearFaults();
    const resumed = split(
      (
        await readLines(
          await s.get(`${EXPORT(HANDLES.prolific)}?max_posts=150&cursor=${encodeURIComponent(end.cursor)}`),
        )
      ).lines,
    );
    assert.deepEqual(
      [...posts, ...resumed.posts].map((p) => p.id),
      Array.from({ length: 250 }, (_, i) => prolificPostId(i)),
      'nothing lost, nothing repeated',
    );
  });

  test('format=json: a failure after the first page answers 200 with the posts read and the end reason', async () => {
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 500, match: `cursor=${pageAt(100)}` });
    try {
      const res = await s.get(`${EXPORT(HANDLES.prolific)}?format=json`);
      assert.equal(res.status, 200);
      const body = (await res.json()) as { posts: Line[]; end: Line };
      assert.equal(body.posts.length, 100);
      assert.equal(body.end.reason, 'upstream_error');
      assert.equal(body.end.problem?.status, 502);
      assert.ok(body.end.cursor);
      // A failure before the first post is an ordinary problem answer.
      s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 500, match: '/statuses' });
      const early = await s.get(EXPORT(HANDLES.prolific));
      assert.equal(early.status, 502);
      assert.equal((await early.json()).code?.length > 0, true);
    } finally {
      s.sim.clearFaults();
    }
  });

  test('the time limit ends a slow export with time_limit and a cursor', async () => {
    s.sim.addFault({ target: 'fxtwitter', kind: 'latency', delayMs: 800, match: 'count=100&cursor=' });
    try {
      const { lines } = await readLines(await s.get(EXPORT(HANDLES.prolific)));
      const { posts, end } = split(lines);
      assert.equal(end.reason, 'time_limit');
      assert.ok(end.cursor);
      assert.ok(posts.length >= 300 && posts.length < 1000, `${posts.length} posts in 3 s`);
      assert.equal(posts.length % 100, 0);
    } finally {
      s.sim.clearFaults();
    }
  });

  test('a client that disconnects stops the walk', async () => {
    s.sim.addFault({ target: 'fxtwitter', kind: 'latency', delayMs: 250, match: 'count=100&cursor=' });
    try {
      const pages = () => s.sim.calls({ target: 'fxtwitter', path: `/2/profile/${HANDLES.prolific}/statuses` });
      const start = pages();
      const abort = new AbortController();
      const res = await s.get(EXPORT(HANDLES.prolific), { signal: abort.signal });
      const reader = res.body!.getReader();
      await reader.read();
      abort.abort();
      await new Promise((r) => setTimeout(r, 800));
      const settled = pages();
      await new Promise((r) => setTimeout(r, 1200));
      assert.equal(pages(), settled, 'no page is read after the client left');
      assert.ok(settled - start <= 4, `${settled - start} pages read of the 10 a whole export needs`);
    } finally {
      s.sim.clearFaults();
    }
  });
});
