// The in-process fixed-window table: exact counting per client, windows that end, refunds that never reach
// the next window, and memory bounded by its slot count whatever the number of distinct clients.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WindowTable } from '../../../src/stores/limits/window-table.ts';

function clock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

test('counts exactly to the quota, keeps counting refusals, and starts a new window when the old one ends', () => {
  const c = clock();
  const table = new WindowTable({ windowMs: 60_000, now: c.now });
  for (let i = 1; i <= 600; i++) assert.deepEqual(table.consume('10.0.0.1', 1, 600).consumed, i);
  const peeked = table.consume('10.0.0.1', 1, 600, true);
  assert.deepEqual([peeked.allowed, peeked.consumed], [false, 600], 'onlyIfAllowed: refused, nothing charged');
  const refused = table.consume('10.0.0.1', 1, 600);
  assert.equal(refused.allowed, false);
  assert.equal(refused.consumed, 601);
  assert.equal(refused.endsAt, c.now() + 60_000);
  assert.equal(table.consume('10.0.0.2', 1, 600).consumed, 1, 'another client has its own counter');
  c.advance(59_999);
  assert.equal(table.consume('10.0.0.1', 1, 600).allowed, false);
  c.advance(1);
  const next = table.consume('10.0.0.1', 1, 600);
  assert.deepEqual([next.allowed, next.consumed, next.endsAt], [true, 1, c.now() + 60_000]);
});

test('peek does not charge; refund gives back only to the window it was taken in', () => {
  const c = clock();
  const table = new WindowTable({ windowMs: 1000, now: c.now });
  assert.equal(table.peek('k'), undefined);
  const first = table.consume('k', 1, 5);
  table.consume('k', 1, 5);
  assert.equal(table.peek('k')!.consumed, 2);
  assert.equal(table.refund('k', 1, first.endsAt), true);
  assert.equal(table.peek('k')!.consumed, 1);
  c.advance(1000);
  table.consume('k', 1, 5);
  assert.equal(table.refund('k', 1, first.endsAt), false, 'the old window has ended');
  assert.equal(table.peek('k')!.consumed, 1);
  table.delete('k');
  assert.equal(table.peek('k'), undefined);
});

test('200,000 distinct clients in one window stay within a 4,096-slot bound while active clients keep exact counts', () => {
  const c = clock();
  const maxSlots = 1 << 12;
  const table = new WindowTable({ windowMs: 60_000, now: c.now, maxSlots });
  const active = ['192.0.2.1', '192.0.2.2', '2001:db8::/64'];
  let flood = 0;
  // Past the bound the least-charged neighbour gives up its slot: an active client has made more than one request.
  for (const a of active) table.consume(a, 1, 600);
  for (let round = 1; round < 600; round++) {
    // Each round: the active clients, then a burst of new addresses that fill the table past its bound.
    for (const a of active) assert.equal(table.consume(a, 1, 600).consumed, round + 1, `${a} at ${round}`);
    for (let i = 0; i < 340; i++, flood++)
      table.consume(`10.${flood >> 16}.${(flood >> 8) & 255}.${flood & 255}`, 1, 600);
    c.advance(50);
  }
  assert.ok(flood >= 200_000);
  for (const a of active) assert.equal(table.consume(a, 1, 600).allowed, false, `${a} is at its limit`);
  assert.equal(table.slots, maxSlots);
  assert.equal(table.bytes, maxSlots * 16);
});

test('windows that have ended free their slots: the table does not grow with clients over time', () => {
  const c = clock();
  const table = new WindowTable({ windowMs: 1000, now: c.now });
  for (let i = 0; i < 100_000; i++) {
    table.consume(`c${i}`, 1, 10);
    if (i % 500 === 499) c.advance(1000);
  }
  assert.ok(table.slots <= 4096, `${table.slots} slots for 500 clients per window`);
  assert.ok(table.size <= 500);
});

test('the table grows a segment at a time: a rebuild never copies more than a sixteenth of it', () => {
  const c = clock();
  const table = new WindowTable({ windowMs: 60_000, now: c.now });
  let before = table.slots;
  let largestStep = 0;
  for (let i = 0; i < 200_000; i++) {
    table.consume(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, 1, 600);
    largestStep = Math.max(largestStep, table.slots - before);
    before = table.slots;
  }
  assert.equal(table.size, 200_000, 'every client kept');
  assert.ok(largestStep <= table.slots / 16, `grew by ${largestStep} of ${table.slots} slots at once`);
  assert.ok(table.bytes <= 16 * 2 ** 20, `${table.bytes} bytes`);
});

test('stored times are rebased after about 24 days without losing a live window', () => {
  const c = clock();
  const table = new WindowTable({ windowMs: 60_000, now: c.now });
  for (let i = 0; i < 5_000; i++) table.consume(`old-${i}`, 1, 600);
  c.advance(2 ** 31 - 10_000);
  const first = table.consume('10.0.0.1', 1, 600);
  table.consume('10.0.0.1', 1, 600);
  for (let i = 0; i < 3_000; i++) table.consume(`live-${i}`, 2, 600);
  c.advance(20_000);
  // Past 2^31 ms after the table's base: the next charge rebases every segment.
  const third = table.consume('10.0.0.1', 1, 600);
  assert.deepEqual([third.consumed, third.endsAt], [3, first.endsAt]);
  for (let i = 0; i < 3_000; i += 97) assert.equal(table.peek(`live-${i}`)?.consumed, 2, `live-${i}`);
  assert.equal(table.peek('old-1'), undefined);
  assert.equal(table.size, 3_001);
  c.advance(40_000);
  assert.equal(table.consume('10.0.0.1', 1, 600).consumed, 1, 'a new window once the old one has ended');
});
