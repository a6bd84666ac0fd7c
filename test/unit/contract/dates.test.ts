// since / until parsing: ISO 8601 dates and date-times, UTC unless an offset is given, and the window's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isoWindow, parseInstant, windowOf, windowOperators } from '../../../src/contract/params/dates.ts';
import { InputRefusal } from '../../../src/contract/refusal.ts';

test('dates and date-times, UTC unless an offset says otherwise', () => {
  assert.equal(parseInstant('2026-03-02'), Date.UTC(2026, 2, 2));
  assert.equal(parseInstant('2026-03-02T09:30'), Date.UTC(2026, 2, 2, 9, 30));
  assert.equal(parseInstant('2026-03-02T09:30:15Z'), Date.UTC(2026, 2, 2, 9, 30, 15));
  assert.equal(parseInstant('2026-03-02T09:30:15.250Z'), Date.UTC(2026, 2, 2, 9, 30, 15, 250));
  assert.equal(parseInstant('2026-03-02T10:30:00+01:00'), Date.UTC(2026, 2, 2, 9, 30));
  assert.equal(parseInstant('2026-03-02T04:30:00-0500'), Date.UTC(2026, 2, 2, 9, 30));
  assert.equal(parseInstant('2024-02-29'), Date.UTC(2024, 1, 29));
});

test('anything else is refused', () => {
  for (const bad of [
    '',
    'yesterday',
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-03-02T24:00',
    '2026-03-02T09:60',
    '1999-01-01',
    '2026-3-2',
    '2026-03-02T09:30:00+15:00',
    '1772442000',
    '2026-03-02T09:30:00ZZ',
  ]) {
    assert.equal(parseInstant(bad), undefined, bad);
  }
});

test('the window: since before until, both optional; operators in Unix seconds', () => {
  assert.equal(windowOf(undefined, undefined), undefined);
  const w = windowOf('2026-03-02', '2026-03-03T00:00:00Z')!;
  assert.deepEqual(isoWindow(w), { since: '2026-03-02T00:00:00.000Z', until: '2026-03-03T00:00:00.000Z' });
  assert.equal(
    windowOperators(w),
    `since_time:${Date.UTC(2026, 2, 2) / 1000} until_time:${Date.UTC(2026, 2, 3) / 1000}`,
  );
  assert.equal(windowOperators(windowOf(undefined, '2026-03-03')), `until_time:${Date.UTC(2026, 2, 3) / 1000}`);
  for (const [since, until] of [
    ['2026-03-03', '2026-03-02'],
    ['2026-03-02', '2026-03-02'],
    ['nope', undefined],
    [undefined, '2026-02-31'],
  ]) {
    assert.throws(
      () => windowOf(since, until),
      (e: unknown) => e instanceof InputRefusal && e.code === 'invalid_date',
      `${since}..${until}`,
    );
  }
});
