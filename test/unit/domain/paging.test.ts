// The paging module without a server: positions, sealed cursors, page=N walks and the end-of-list rule.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_LIMIT,
  MAX_EMPTY_UPSTREAM_PAGES,
  nextOf,
  openPosition,
  readPage,
  walkToPage,
  type PageCall,
} from '../../../src/domain/paging.ts';
import type { CursorScope } from '../../../src/domain/cursors.ts';
import { AesGcmCursorSealer } from '../../../src/secrets/cursor-sealer.ts';
import { pageOf, POLICY } from './fake-lists.ts';
import { codeOf } from './code-of.ts';

const SCOPE: CursorScope = { route: 'followers', query: 'alice', feed: '' };
const NUMBERS = Array.from({ length: 7 }, (_, i) => i + 1);

/** X answers a follower page with 60-70 accounts when asked for 20: here, 5 of 12 items for every upstream call. */
function oversized() {
  const calls: PageCall[] = [];
  const items = Array.from({ length: 12 }, (_, i) => i + 1);
  const load = async (call: PageCall) => {
    calls.push(call);
    return pageOf(items, { ...call, count: 5 }, 'fake');
  };
  return { calls, items, load };
}

function loader(items = NUMBERS, end?: 'repeat') {
  const calls: PageCall[] = [];
  return {
    calls,
    load: async (call: PageCall) => {
      calls.push(call);
      return pageOf(items, call, 'fake', end);
    },
  };
}

describe('paging', () => {
  test('a position without cursor or page starts at page 1 with the default limit', () => {
    assert.deepEqual(openPosition({}, new AesGcmCursorSealer('s'), SCOPE, POLICY), {
      page: 1,
      limit: DEFAULT_LIMIT,
      policy: POLICY,
    });
  });

  test('the cursor takes precedence over page, and leads to the page it was sealed for', () => {
    const codec = new AesGcmCursorSealer('s');
    const token = codec.seal(SCOPE, { provider: 'x', upstream: 'raw-7', page: 4 });
    const pos = openPosition({ cursor: token, page: 9, limit: 5 }, codec, SCOPE, POLICY);
    assert.deepEqual(pos.cursor, { provider: 'x', upstream: 'raw-7', page: 4 });
    assert.equal(pos.limit, 5);
  });

  test('sealing is deterministic: the same position gives the same cursor, another position another one', () => {
    // A page's body (and so its ETag and the hit replay) must not change from one cache hit to the next.
    const codec = new AesGcmCursorSealer('s');
    const state = { provider: 'x', upstream: 'raw-7', page: 4 };
    const token = codec.seal(SCOPE, state);
    assert.equal(codec.seal(SCOPE, { ...state }), token);
    assert.notEqual(codec.seal(SCOPE, { ...state, page: 5 }), token);
    assert.notEqual(codec.seal({ ...SCOPE, query: 'bob' }, state), token);
    assert.notEqual(new AesGcmCursorSealer('other').seal(SCOPE, state), token);
    assert.deepEqual(codec.open(SCOPE, token), { ok: true, state });
  });

  test('a cursor is refused on another route, query or feed, when edited, or when sealed by another secret', () => {
    const codec = new AesGcmCursorSealer('s');
    const token = codec.seal(SCOPE, { provider: 'x', upstream: 'raw', page: 2 });
    assert.throws(
      () => openPosition({ cursor: token }, codec, { ...SCOPE, route: 'following' }, POLICY),
      (e) => codeOf(e) === 'invalid_cursor',
    );
    assert.throws(
      () => openPosition({ cursor: token }, codec, { ...SCOPE, query: 'bob' }, POLICY),
      (e) => codeOf(e) === 'invalid_cursor',
    );
    const edited = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    assert.throws(
      () => openPosition({ cursor: edited }, codec, SCOPE, POLICY),
      (e) => codeOf(e) === 'invalid_cursor',
    );
    assert.throws(
      () => openPosition({ cursor: token }, new AesGcmCursorSealer('other'), SCOPE, POLICY),
      (e) => codeOf(e) === 'invalid_cursor',
    );
  });

  test('the sealed cursor hides the upstream cursor', () => {
    const token = new AesGcmCursorSealer('s').seal(SCOPE, {
      provider: 'fxtwitter',
      upstream: 'UPSTREAM-SECRET',
      page: 2,
    });
    assert.doesNotMatch(Buffer.from(token, 'base64url').toString('latin1'), /UPSTREAM-SECRET|fxtwitter/);
  });

  test('end of list: no upstream cursor, or one repeating the cursor sent', () => {
    assert.equal(nextOf(undefined, undefined, 'x'), undefined);
    assert.equal(nextOf('c1', 'c1', 'x'), undefined);
    assert.deepEqual(nextOf('c2', 'c1', 'x'), { provider: 'x', upstream: 'c2' });
  });

  test('upstream pages with nothing to show are passed over, a bounded number per read', async () => {
    // Items 1-2, then upstream pages of nothing (as a timeline of replies looks once they are filtered out), then 3.
    const shown = (empties: number) => {
      const calls: PageCall[] = [];
      const pages = [[1, 2], ...Array.from({ length: empties }, () => []), [3]];
      const load = async (call: PageCall) => {
        calls.push(call);
        const n = call.cursor ? Number(call.cursor.slice(1)) : 0;
        const last = n === pages.length - 1;
        return {
          value: { items: pages[n]!, ...(n + 1 < pages.length ? { nextCursor: `p${n + 1}` } : {}) },
          source: 'fake',
          cache: last ? ('hit' as const) : ('miss' as const),
          warnings: last ? [] : [`upstream page ${n}`],
        };
      };
      return { calls, load };
    };
    const within = shown(MAX_EMPTY_UPSTREAM_PAGES);
    const second = await walkToPage({ page: 2, limit: 2, policy: POLICY }, within.load);
    assert.deepEqual(second.items, [3], 'the empty pages are not pages');
    assert.equal(second.next, undefined);
    // The pages passed over were read too: the page says so.
    assert.equal(second.cache, 'miss');
    assert.deepEqual(second.warnings, ['upstream page 1', 'upstream page 2', 'upstream page 3']);
    assert.equal(within.calls.length, MAX_EMPTY_UPSTREAM_PAGES + 2, 'each upstream page fetched once');
    const past = shown(MAX_EMPTY_UPSTREAM_PAGES + 1);
    const cut = await walkToPage({ page: 2, limit: 2, policy: POLICY }, past.load);
    assert.deepEqual(cut.items, [], 'past the bound an empty page is answered');
    assert.ok(cut.next, '...with a cursor onwards');
    const after = await walkToPage(
      {
        cursor: { provider: cut.next.provider, upstream: cut.next.upstream, page: 3 },
        page: 1,
        limit: 2,
        policy: POLICY,
      },
      past.load,
    );
    assert.deepEqual(after.items, [3]);
  });

  test('page=N walks the raw cursors from the first page and returns only page N', async () => {
    const { calls, load } = loader();
    const page = await walkToPage({ page: 3, limit: 2, policy: POLICY }, load);
    assert.deepEqual(page.items, [5, 6]);
    assert.equal(page.page, 3);
    assert.deepEqual(page.next, { provider: 'fake', upstream: 'c6', skip: 0 });
    assert.deepEqual(
      calls.map((c) => c.cursor),
      [undefined, 'c2', 'c4'],
    );
    // Providers only ever see their own raw cursors, and later pages go to the provider that issued them.
    assert.deepEqual(
      calls.map((c) => c.provider),
      [undefined, 'fake', 'fake'],
    );
  });

  test('a list that ends before page N gives an empty page with a warning and no next cursor', async () => {
    const { load } = loader();
    const page = await walkToPage({ page: 9, limit: 3, policy: POLICY }, load);
    assert.deepEqual(page.items, []);
    assert.equal(page.next, undefined);
    assert.deepEqual(page.warnings, ['the list ends before page 9']);
  });

  test('an upstream that repeats the cursor it was sent is at its end', async () => {
    const { load } = loader([1, 2, 3, 4], 'repeat');
    const page = await walkToPage(
      { cursor: { provider: 'fake', upstream: 'c2', page: 2 }, page: 1, limit: 2, policy: POLICY },
      load,
    );
    assert.deepEqual(page.items, [3, 4]);
    assert.equal(page.next, undefined);
  });

  test('readPage seals the next cursor for page N+1, and following it continues where the page ended', async () => {
    const codec = new AesGcmCursorSealer('s');
    const first = await readPage(codec, SCOPE, { limit: 3 }, POLICY, loader().load);
    assert.deepEqual(first.items, [1, 2, 3]);
    assert.equal(first.meta.page, 1);
    assert.ok(first.meta.nextCursor);
    assert.deepEqual(codec.open(SCOPE, first.meta.nextCursor), {
      ok: true,
      state: { provider: 'fake', upstream: 'c3', page: 2 },
    });
    const { calls, load } = loader();
    const second = await readPage(codec, SCOPE, { cursor: first.meta.nextCursor, limit: 3 }, POLICY, load);
    assert.deepEqual(second.items, [4, 5, 6]);
    assert.equal(second.meta.page, 2);
    assert.equal(calls.length, 1, 'a cursor needs no walk');
    const last = await readPage(codec, SCOPE, { cursor: second.meta.nextCursor, limit: 3 }, POLICY, loader().load);
    assert.deepEqual(last.items, [7]);
    assert.equal(last.meta.nextCursor, undefined);
  });

  test('an upstream page longer than limit is served limit items at a time, resuming inside it', async () => {
    const { calls, items, load } = oversized();
    const codec = new AesGcmCursorSealer('s');
    const seen: number[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await readPage(codec, SCOPE, { limit: 2, ...(cursor ? { cursor } : {}) }, POLICY, load);
      seen.push(...page.items);
      sizes.push(page.items.length);
      cursor = page.meta.nextCursor;
      if (!cursor) break;
    }
    assert.deepEqual(seen, items, 'every item once, in order');
    assert.ok(
      sizes.every((n) => n <= 2),
      `no page exceeds limit: ${sizes.join(',')}`,
    );
    // A resumed page asks for the same upstream page exactly as the first read did (same provider, cursor and count).
    assert.deepEqual(
      calls.map((c) => [c.provider ?? '*', c.cursor ?? '']),
      [
        ['*', ''],
        ['*', ''],
        ['*', ''],
        ['fake', 'c5'],
        ['fake', 'c5'],
        ['fake', 'c5'],
        ['fake', 'c10'],
      ],
    );
  });

  test('page=N over oversized upstream pages fetches each upstream page once', async () => {
    const { calls, load } = oversized();
    const page = await walkToPage({ page: 5, limit: 2, policy: POLICY }, load);
    // Pages: [1,2] [3,4] [5] | [6,7] [8,9] ...: page 5 is the second of the second upstream page.
    assert.deepEqual(page.items, [8, 9]);
    assert.equal(calls.length, 2);
    assert.deepEqual(page.next, { provider: 'fake', upstream: 'c5', skip: 4 });
  });
});
