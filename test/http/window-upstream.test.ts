// A read with since/until keeps to the window it names, whatever the upstream sends: against an upstream whose
// search ignores the window operators (the simulator's ignore_window fault), the profile, the search, their feeds
// and the export still answer only posts inside the window, the same ones an upstream that honours them gives.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLES, SEARCH_TERMS } from '../../sim/corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const SINCE = Date.UTC(2026, 1, 25);
const UNTIL = Date.UTC(2026, 2, 1);
const WINDOW = 'since=2026-02-25&until=2026-03-01';

interface Posted {
  id: string;
  createdAt: string;
}

const inWindow = (p: Posted) => Date.parse(p.createdAt) >= SINCE && Date.parse(p.createdAt) < UNTIL;

let ipSeq = 0;
/** Each request from its own address: windowed reads are live search lookups, charged per address. */
const fresh = (): RequestInit => ({
  headers: { 'x-forwarded-for': `10.41.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` },
});

describe('an upstream that ignores the window operators', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_TRUST_PROXY: 'true', THREADMARK_CACHE_TTL_S: '0' });
  });
  after(() => s.close());

  /** The same read against an upstream that honours the window, then against one that ignores it. */
  async function both<T>(read: () => Promise<T>): Promise<{ honoured: T; ignored: T }> {
    s.sim.clearFaults();
    const honoured = await read();
    s.sim.addFault({ target: '*', kind: 'ignore_window' });
    try {
      return { honoured, ignored: await read() };
    } finally {
      s.sim.clearFaults();
    }
  }

  const json = async <T>(path: string): Promise<T> => {
    const res = await s.get(path, fresh());
    assert.equal(res.status, 200, path);
    return (await res.json()) as T;
  };

  test('the fault does reach the simulator: its search then answers posts outside the window', async () => {
    s.sim.addFault({ target: '*', kind: 'ignore_window' });
    try {
      const since = Math.floor(SINCE / 1000);
      const res = await fetch(
        `${s.sim.fxtwitterUrl}/2/search?q=${encodeURIComponent(`from:${HANDLES.alice} since_time:${since}`)}&feed=latest`,
      );
      const body = (await res.json()) as { results: { created_timestamp: number }[] };
      assert.ok(body.results.some((r) => r.created_timestamp * 1000 >= UNTIL));
    } finally {
      s.sim.clearFaults();
    }
  });

  /** Every page of a read, following nextCursor. */
  async function walk<T>(path: string, key: 'posts' | 'items'): Promise<T[]> {
    const all: T[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await json<Record<string, unknown> & { nextCursor?: string }>(
        `${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      all.push(...(page[key] as T[]));
      cursor = page.nextCursor;
    } while (cursor && ++pages < 20);
    assert.equal(cursor, undefined, `${path}: the walk ends`);
    return all;
  }

  test('a profile read in a window shows only the window, page after page', async () => {
    const read = () => walk<Posted>(`/api/v1/profiles/${HANDLES.alice}?${WINDOW}&format=json`, 'posts');
    const { honoured, ignored } = await both(read);
    assert.ok(honoured.length > 0);
    assert.ok(ignored.every(inWindow), ignored.map((p) => p.createdAt).join(' '));
    assert.deepEqual(
      ignored.map((p) => p.id),
      honoured.map((p) => p.id),
    );
  });

  test('a search in a window shows only the window, page after page', async () => {
    const read = () =>
      walk<{ post: Posted }>(`/api/v1/search?q=${SEARCH_TERMS.caching}&${WINDOW}&format=json`, 'items');
    const { honoured, ignored } = await both(read);
    assert.ok(honoured.length > 0);
    assert.ok(
      ignored.every((i) => inWindow(i.post)),
      ignored.map((i) => i.post.createdAt).join(' '),
    );
    assert.deepEqual(
      ignored.map((i) => i.post.id),
      honoured.map((i) => i.post.id),
    );
  });

  test('profile and search feeds in a window hold only the window', async () => {
    for (const path of [
      `/api/v1/profiles/${HANDLES.alice}/feed?type=json&${WINDOW}`,
      `/api/v1/search/feed?q=${SEARCH_TERMS.caching}&type=json&${WINDOW}`,
    ]) {
      const read = async () => {
        const res = await s.get(path, fresh());
        assert.equal(res.status, 200, path);
        const feed = (await res.json()) as { items: { id: string; date_published: string }[] };
        return feed.items.map((i) => ({ id: i.id, createdAt: i.date_published }));
      };
      const { honoured, ignored } = await both(read);
      assert.ok(honoured.length > 0, path);
      assert.ok(ignored.every(inWindow), `${path}: ${ignored.map((p) => p.createdAt).join(' ')}`);
      // A feed is one upstream page: what that page holds inside the window, none of the rest.
      const shown = new Set(honoured.map((p) => p.id));
      assert.ok(
        ignored.every((p) => shown.has(p.id)),
        path,
      );
    }
  });

  test('an export in a window holds only the window and stops at its start', async () => {
    const read = () =>
      json<{ posts: Posted[]; end: { reason: string } }>(
        `/api/v1/profiles/${HANDLES.alice}/posts?${WINDOW}&format=json`,
      );
    const { honoured, ignored } = await both(read);
    assert.ok(ignored.posts.every(inWindow));
    assert.deepEqual(
      ignored.posts.map((p) => p.id),
      honoured.posts.map((p) => p.id),
    );
    assert.equal(ignored.end.reason, 'window');
  });
});
