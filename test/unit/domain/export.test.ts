// The export use case without a server: the walk over pages, every way it stops, and resuming from its cursor.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  exportPosts,
  planExport,
  type ExportEnd,
  type ExportInput,
  type ExportLimits,
} from '../../../src/domain/export.ts';
import type { ListSources } from '../../../src/domain/lists.ts';
import type { Post } from '../../../src/domain/models.ts';
import { upstreamFailed } from './failures.ts';
import { AllowanceRefused } from '../../../src/domain/failures.ts';
import { author, post, repost } from '../feeds/posts.ts';
import { POLICY, sources } from './fake-lists.ts';
import { codeOf } from './code-of.ts';

const alice = author('alice', 'Alice');

/** alice's timeline, newest first: originals 100..(100-n+1), one minute apart. */
function originals(n: number): Post[] {
  return Array.from({ length: n }, (_, i) => post(String(1000 - i), 'alice', 59 - i));
}

async function drain(
  src: ListSources,
  input: Partial<ExportInput>,
  limits: ExportLimits = {},
): Promise<{ ids: string[]; end: ExportEnd }> {
  const plan = planExport(src, {
    handle: 'alice',
    includes: { replies: false, reposts: false },
    maxPosts: 1000,
    ...input,
  });
  const it = exportPosts(src, plan, POLICY, { pageSize: 3, ...limits });
  const ids: string[] = [];
  for (;;) {
    const r = await it.next();
    if (r.done) return { ids, end: r.value };
    ids.push(r.value.id);
  }
}

describe('exportPosts', () => {
  test('walks every page to the end of the timeline, newest first, with no cursor at the end', async () => {
    const src = sources({ profiles: { alice }, timelines: { alice: originals(7) } });
    const { ids, end } = await drain(src, {});
    assert.deepEqual(ids, ['1000', '999', '998', '997', '996', '995', '994']);
    assert.equal(end.reason, 'end_of_timeline');
    assert.equal(end.posts, 7);
    assert.equal(end.cursor, undefined);
    assert.deepEqual(
      src.calls.map((c) => `${c.method}:${c.cursor ?? ''}`),
      ['profile:', 'timeline:', 'timeline:c3', 'timeline:c6'],
    );
  });

  test('max_posts stops mid-page; the cursor resumes with the very next post, nothing skipped or repeated', async () => {
    const src = sources({ profiles: { alice }, timelines: { alice: originals(8) } });
    const first = await drain(src, { maxPosts: 4 });
    assert.deepEqual(first.ids, ['1000', '999', '998', '997']);
    assert.equal(first.end.reason, 'max_posts');
    assert.ok(first.end.cursor);
    const second = await drain(src, { maxPosts: 3, cursor: first.end.cursor });
    assert.deepEqual(second.ids, ['996', '995', '994']);
    assert.equal(second.end.reason, 'max_posts');
    const third = await drain(src, { cursor: second.end.cursor });
    assert.deepEqual(third.ids, ['993']);
    assert.equal(third.end.reason, 'end_of_timeline');
  });

  test('max_posts at a page boundary continues on the next page; max_posts=1 hands out one post', async () => {
    const src = sources({ profiles: { alice }, timelines: { alice: originals(5) } });
    const first = await drain(src, { maxPosts: 3 });
    assert.equal(first.end.reason, 'max_posts');
    assert.deepEqual((await drain(src, { cursor: first.end.cursor })).ids, ['997', '996']);
    const one = await drain(src, { maxPosts: 1 });
    assert.deepEqual(one.ids, ['1000']);
    assert.equal(one.end.posts, 1);
  });

  test('replies and reposts are left out unless asked for, as on the profile', async () => {
    const timeline = [
      post('10', 'alice', 50),
      post('9', 'alice', 49, { replyTo: { id: '1', handle: 'bob' } }),
      repost('alice', post('8', 'bob', 48)),
      post('7', 'alice', 47),
    ];
    const src = sources({ profiles: { alice }, timelines: { alice: timeline } });
    assert.deepEqual((await drain(src, {})).ids, ['10', '7']);
    assert.deepEqual((await drain(src, { includes: { replies: true, reposts: true } })).ids, ['10', '9', '8', '7']);
  });

  test('a window reads X search and stops at its start; posts outside it are never handed out', async () => {
    const inside = [post('30', 'alice', 30), post('20', 'alice', 20)];
    const before = post('10', 'alice', 10);
    const src = sources({
      profiles: { alice },
      search: [...inside, before, post('5', 'alice', 5)].map((p) => ({ kind: 'post' as const, post: p })),
    });
    const since = new Date(Date.UTC(2026, 2, 2, 9, 15)).toISOString();
    const window = { iso: { since }, operators: 'since_time:1' };
    const { ids, end } = await drain(src, { window });
    assert.deepEqual(ids, ['30', '20']);
    assert.equal(end.reason, 'window');
    assert.equal(end.cursor, undefined);
    assert.ok(src.calls.some((c) => c.method === 'search:latest:from:alice since_time:1'));
    // A search that simply runs out inside a window has reached the window's start as well.
    const short = sources({ profiles: { alice }, search: inside.map((p) => ({ kind: 'post' as const, post: p })) });
    assert.equal((await drain(short, { window })).end.reason, 'window');
  });

  test("what a page degraded is named in the end's warnings, once", async () => {
    const src = sources({ profiles: { alice }, timelines: { alice: originals(5) } });
    const stale = {
      ...src,
      lists: {
        ...src.lists,
        async timeline(handle: string, call: Parameters<typeof src.lists.timeline>[1]) {
          const got = await src.lists.timeline(handle, call);
          return { ...got, warnings: ['stale copy: the upstream failed'] };
        },
      },
    };
    const { end } = await drain(stale, {});
    assert.deepEqual(end.warnings, ['stale copy: the upstream failed']);
  });

  test('reposts asked for inside a window are named as unavailable', async () => {
    const src = sources({ profiles: { alice }, search: [] });
    const { end } = await drain(src, {
      window: { iso: { until: '2026-03-01T00:00:00.000Z' }, operators: 'until_time:1' },
      includes: { replies: false, reposts: true },
    });
    assert.equal(end.reason, 'end_of_timeline');
    assert.deepEqual(end.warnings, ['reposts are not available inside a date window']);
  });

  test('an upstream failure after the first post ends the export with a cursor at the failed page', async () => {
    const src = sources({ profiles: { alice }, timelines: { alice: originals(9) } });
    const failing = {
      ...src,
      lists: {
        ...src.lists,
        async timeline(handle: string, call: Parameters<typeof src.lists.timeline>[1]) {
          if (call.cursor === 'c6') throw upstreamFailed();
          return src.lists.timeline(handle, call);
        },
      },
    };
    const cut = await drain(failing, {});
    assert.deepEqual(cut.ids, ['1000', '999', '998', '997', '996', '995']);
    assert.equal(cut.end.reason, 'upstream_error');
    assert.equal(codeOf(cut.end.error), 'upstream_error');
    const resumed = await drain(src, { cursor: cut.end.cursor });
    assert.deepEqual(resumed.ids, ['994', '993', '992']);
  });

  test('a rate-limited page read ends with rate_limited; a failure before any post is thrown', async () => {
    const src = sources({ profiles: { alice }, timelines: { alice: originals(6) } });
    let reads = 0;
    const limited = {
      ...src,
      lists: {
        ...src.lists,
        async timeline(handle: string, call: Parameters<typeof src.lists.timeline>[1]) {
          if (++reads > 1) throw new AllowanceRefused('live-key', 60);
          return src.lists.timeline(handle, call);
        },
      },
    };
    assert.equal((await drain(limited, {})).end.reason, 'rate_limited');
    reads = 1;
    await assert.rejects(drain(limited, {}), (e) => codeOf(e) === 'rate_limited');
    await assert.rejects(drain(src, { handle: 'nobody' }), (e) => codeOf(e) === 'not_found');
  });

  test('the time limit, or a caller that stops pulling, ends the walk before the next page', async () => {
    const src = sources({ profiles: { alice }, timelines: { alice: originals(9) } });
    let t = 0;
    const timed = await drain(src, {}, { until: 1, now: () => t });
    assert.deepEqual(timed.ids, ['1000', '999', '998', '997', '996', '995', '994', '993', '992']);
    t = 5;
    const late = await drain(src, {}, { until: 1, now: () => t });
    assert.equal(late.end.reason, 'time_limit');
    assert.ok(late.end.cursor);

    // The walk is pulled: a caller that stops asking (a client gone) reads no further page.
    const fresh = sources({ profiles: { alice }, timelines: { alice: originals(9) } });
    const plan = planExport(fresh, { handle: 'alice', includes: { replies: false, reposts: false }, maxPosts: 100 });
    const it = exportPosts(fresh, plan, POLICY, { pageSize: 3 });
    await it.next();
    await it.return(undefined as never);
    assert.equal(fresh.calls.filter((c) => c.method === 'timeline').length, 1, 'no page after the first');
  });

  test('a cursor from another handle, window or set of options is invalid_export_cursor', async () => {
    const src = sources({ profiles: { alice, bob: author('bob') }, timelines: { alice: originals(5) } });
    const { end } = await drain(src, { maxPosts: 1 });
    await assert.rejects(
      drain(src, { handle: 'bob', cursor: end.cursor }),
      (e) => codeOf(e) === 'invalid_export_cursor',
    );
    await assert.rejects(
      drain(src, { cursor: end.cursor, includes: { replies: true, reposts: false } }),
      (e) => codeOf(e) === 'invalid_export_cursor',
    );
    const before = src.calls.length;
    assert.throws(
      () =>
        planExport(src, { handle: 'alice', includes: { replies: false, reposts: false }, maxPosts: 1, cursor: 'junk' }),
      (e) => codeOf(e) === 'invalid_export_cursor',
    );
    assert.equal(src.calls.length, before, 'a bad cursor is refused before anything is read');
  });
});
