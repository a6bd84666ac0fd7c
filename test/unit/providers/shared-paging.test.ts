// The paging every provider shares (providers/shared/paging.ts): when an upstream page ends the list, and the
// walk along a conversation's reply cursor with its budget and its failure notes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followReplyCursor, uniqueBy, upstreamPage } from '../../../src/providers/shared/paging.ts';

test('an upstream page keeps its cursor only while the list goes on', () => {
  assert.deepEqual(upstreamPage([1], 'b', 'a'), { items: [1], nextCursor: 'b' });
  assert.deepEqual(upstreamPage([1], undefined, 'a'), { items: [1] });
  assert.deepEqual(upstreamPage([1], null, undefined), { items: [1] });
  assert.deepEqual(upstreamPage([1], 'a', 'a'), { items: [1] }, 'the cursor just sent');
  assert.deepEqual(upstreamPage([], 'b', 'a'), { items: [] }, 'an empty page');
  const x = (c: string) => c.startsWith('0|');
  assert.deepEqual(upstreamPage([1], '0|123', 'a', x), { items: [1] }, "the upstream's own end marker");
  assert.deepEqual(upstreamPage([1], '1|123', 'a', x), { items: [1], nextCursor: '1|123' });
});

function pages(n: number, fail?: number) {
  const asked: string[] = [];
  const next = async (cursor: string) => {
    asked.push(cursor);
    const i = Number(cursor);
    if (i === fail) throw new Error('HTTP 502');
    return upstreamPage([`r${i}a`, `r${i}b`], i + 1 < n ? String(i + 1) : undefined, cursor);
  };
  return { asked, next };
}

test('the reply cursor is followed to the end of the list', async () => {
  const p = pages(3);
  const got = await followReplyCursor('fx', { items: ['r0'], nextCursor: '1' }, { pages: 10 }, undefined, p.next);
  assert.deepEqual(got, { items: ['r0', 'r1a', 'r1b', 'r2a', 'r2b'], notes: [] });
  assert.deepEqual(p.asked, ['1', '2']);
});

test('the page budget and the item budget stop the walk, with a note', async () => {
  const byPages = await followReplyCursor(
    'x',
    { items: ['r0'], nextCursor: '1' },
    { pages: 3 },
    undefined,
    pages(99).next,
  );
  assert.equal(byPages.items.length, 5);
  assert.deepEqual(byPages.notes, ['replies cut at 5 after 3 pages (more exist upstream)']);
  const byItems = await followReplyCursor(
    'fx',
    { items: ['r0'], nextCursor: '1' },
    { pages: 10, items: 3 },
    undefined,
    pages(99).next,
  );
  assert.deepEqual(byItems.items, ['r0', 'r1a', 'r1b']);
  assert.deepEqual(byItems.notes, ['replies cut at 3 after 2 pages (more exist upstream)']);
});

test('a failed page keeps what was read; the caller abort still fails the read', async () => {
  const got = await followReplyCursor(
    'fx',
    { items: ['r0'], nextCursor: '1' },
    { pages: 10 },
    undefined,
    pages(9, 2).next,
  );
  assert.deepEqual(got, { items: ['r0', 'r1a', 'r1b'], notes: ['replies incomplete: page 3 from fx failed'] });
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(
    followReplyCursor('fx', { items: [], nextCursor: '1' }, { pages: 10 }, ac.signal, pages(9, 1).next),
    /HTTP 502/,
  );
});

test('uniqueBy keeps the first of each key in order', () => {
  assert.deepEqual(
    uniqueBy(
      [
        { id: 'a', n: 1 },
        { id: 'b', n: 2 },
        { id: 'a', n: 3 },
      ],
      (x) => x.id,
    ),
    [
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
    ],
  );
});
