// Date windows through the real server and simulator: search and profile (by handle and by account id) read
// since ≤ time < until straight away via X search operators; bad windows are 400 invalid_date.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getCorpus, HANDLES, IDS, SEARCH_TERMS, T0 } from '../../sim/corpus.ts';
import { problemOf, startStack, type Stack } from '../helpers/stack.ts';

const corpus = getCorpus();
const alice = corpus.usersByHandle.get(HANDLES.alice)!;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

interface Item {
  kind: string;
  post: { id: string; createdAt: string };
}
interface SearchJson {
  markdown: string;
  window?: { since?: string; until?: string };
  items: Item[];
  nextCursor?: string;
}
interface ProfileJson {
  markdown: string;
  window?: { since?: string; until?: string };
  posts: { id: string; createdAt: string; replyTo?: unknown; repostOf?: unknown }[];
  nextCursor?: string;
}

/** alice's own posts (her self-thread included, no replies to others) in [since, until), newest first. */
function aliceOriginals(sinceMs: number, untilMs: number): string[] {
  const own = (replyToId?: string) => !replyToId || corpus.posts.get(replyToId)?.authorId === alice.id;
  return [...corpus.posts.values()]
    .filter(
      (p) =>
        p.authorId === alice.id && own(p.replyToId) && !p.deleted && p.createdAt >= sinceMs && p.createdAt < untilMs,
    )
    .filter((p) => !p.editVersions || p.editVersions.at(-1) === p.id)
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((p) => p.id);
}

let ipSeq = 0;
/** Each request from its own address: windowed reads are live search lookups, charged per address. */
const fresh = (): RequestInit => ({
  headers: { 'x-forwarded-for': `10.40.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` },
});

describe('date windows', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_TRUST_PROXY: 'true' });
  });
  after(async () => {
    await s.close();
  });

  test('search reads only the window and says so in the heading and JSON', async () => {
    const res = await s.get(
      `/api/v1/search?q=${SEARCH_TERMS.caching}&since=2026-02-25&until=2026-03-01&format=json`,
      fresh(),
    );
    assert.equal(res.status, 200);
    const json = (await res.json()) as SearchJson;
    assert.deepEqual(json.window, { since: '2026-02-25T00:00:00.000Z', until: '2026-03-01T00:00:00.000Z' });
    assert.ok(json.items.length > 0);
    for (const i of json.items) {
      const t = Date.parse(i.post.createdAt);
      assert.ok(t >= Date.UTC(2026, 1, 25) && t < Date.UTC(2026, 2, 1), i.post.createdAt);
    }
    assert.match(
      json.markdown,
      /^# Search: “caching” · latest · from 2026-02-25 00:00 UTC to before 2026-03-01 00:00 UTC$/m,
    );
  });

  test('profile until= jumps straight to that time: the first post is the newest one before it', async () => {
    const until = T0 - 3 * DAY;
    const expected = aliceOriginals(0, until);
    assert.ok(expected.length > 3, 'the corpus has older posts by alice');
    const res = await s.get(`/api/v1/profiles/${HANDLES.alice}?until=${iso(until)}&format=json`, fresh());
    assert.equal(res.status, 200);
    const json = (await res.json()) as ProfileJson;
    assert.equal(json.posts[0]!.id, expected[0]);
    assert.ok(json.posts.every((p) => Date.parse(p.createdAt) < until && !p.replyTo && !p.repostOf));
    assert.match(
      json.markdown,
      new RegExp(`^## Posts · before ${iso(until).replace('.000Z', '').replace('T', ' ').slice(0, 16)} UTC$`, 'm'),
    );
    // The timeline was not paged: the posts came from one search call.
    assert.equal(s.sim.calls({ target: 'fxtwitter', path: `/2/profile/${HANDLES.alice}/statuses` }), 0);
  });

  test('window edges: since is inclusive, until exclusive', async () => {
    const note = corpus.posts.get(IDS.noteTweet)!;
    const at = iso(note.createdAt);
    const incl = (await (
      await s.get(`/${HANDLES.alice}?since=${at}&until=${iso(note.createdAt + 1000)}&format=json`, fresh())
    ).json()) as ProfileJson;
    assert.deepEqual(
      incl.posts.map((p) => p.id),
      [IDS.noteTweet],
    );
    const excl = (await (
      await s.get(`/${HANDLES.alice}?since=${iso(note.createdAt - DAY)}&until=${at}&format=json`, fresh())
    ).json()) as ProfileJson;
    assert.ok(!excl.posts.some((p) => p.id === IDS.noteTweet));
    assert.deepEqual(
      excl.posts.map((p) => p.id),
      aliceOriginals(note.createdAt - DAY, note.createdAt).slice(0, 20),
    );
  });

  test('an offset is honoured: 10:00+01:00 is 09:00 UTC', async () => {
    const a = (await (
      await s.get(`/${HANDLES.alice}?since=2026-03-02T10:00:00%2B01:00&until=2026-03-02T10:00:00Z&format=json`, fresh())
    ).json()) as ProfileJson;
    assert.equal(a.window?.since, '2026-03-02T09:00:00.000Z');
    assert.deepEqual(
      a.posts.map((p) => p.id),
      aliceOriginals(T0, Date.UTC(2026, 2, 2, 10)).slice(0, 20),
    );
  });

  test('paging inside a window keeps the window; its cursor is refused for another window', async () => {
    const base = `/api/v1/profiles/${HANDLES.alice}?since=2026-02-01&until=2026-03-02T09:05:00Z&limit=5&format=json`;
    const first = (await (await s.get(base, fresh())).json()) as ProfileJson;
    assert.ok(first.nextCursor);
    assert.match(first.markdown, /since=2026-02-01&until=2026-03-02T09%3A05%3A00Z/, 'Continue → keeps the window');
    const second = (await (
      await s.get(`${base}&cursor=${encodeURIComponent(first.nextCursor)}`, fresh())
    ).json()) as ProfileJson;
    const all = [...first.posts, ...second.posts];
    assert.ok(
      all.every(
        (p) => Date.parse(p.createdAt) >= Date.UTC(2026, 1, 1) && Date.parse(p.createdAt) < Date.UTC(2026, 2, 2, 9, 5),
      ),
    );
    assert.equal(new Set(all.map((p) => p.id)).size, all.length);
    const other = await s.get(
      `/api/v1/profiles/${HANDLES.alice}?since=2026-02-02&limit=5&cursor=${encodeURIComponent(first.nextCursor)}`,
      fresh(),
    );
    assert.equal(other.status, 400);
    assert.equal((await problemOf(other)).code, 'invalid_cursor');
  });

  test('by account id too', async () => {
    const res = await s.get(`/api/v1/users/${alice.id}?since=${iso(T0)}&until=${iso(T0 + DAY)}&format=json`, fresh());
    assert.equal(res.status, 200);
    const json = (await res.json()) as ProfileJson;
    assert.deepEqual(
      json.posts.map((p) => p.id),
      aliceOriginals(T0, T0 + DAY).slice(0, 20),
    );
  });

  test('bad windows are 400 invalid_date on every route that takes them', async () => {
    const paths = [
      `/api/v1/profiles/${HANDLES.alice}`,
      `/${HANDLES.alice}`,
      `/api/v1/users/${alice.id}`,
      `/api/v1/search?q=caching&`,
      '/search?q=caching&',
    ];
    const windows = [
      'since=yesterday',
      'until=2026-02-30',
      'since=2026-03-03&until=2026-03-02',
      'since=2026-03-02&until=2026-03-02',
      `since=${'9'.repeat(60)}`,
      'since=2026-03-02&since=2026-03-03',
    ];
    for (const p of paths) {
      for (const w of windows) {
        const res = await s.get(`${p}${p.includes('?') ? '' : '?'}${w}`);
        assert.equal(res.status, 400, `${p} ${w}`);
        const problem = await problemOf(res);
        assert.equal(problem.code, 'invalid_date', `${p} ${w}`);
        assert.match(problem.type, /#invalid-date$/);
      }
    }
  });

  test('a windowed profile read is a live search lookup: charged to search-ip, then 429', async () => {
    const headers = { 'x-forwarded-for': '10.41.0.1' };
    const statuses: number[] = [];
    for (let d = 1; d <= 6; d++) {
      statuses.push(
        (await s.get(`/${HANDLES.alice}?until=2026-02-${String(d + 10).padStart(2, '0')}`, { headers })).status,
      );
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    // A plain profile read from the same address is not a search.
    assert.equal((await s.get(`/${HANDLES.alice}`, { headers })).status, 200);
  });
});
