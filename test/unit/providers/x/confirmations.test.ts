// The service-wide share of a session window that confirmations of a "not found" may spend, judged from the
// rate-limit headers X sent for each session.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CONFIRMATION_SHARE, Confirmations } from '../../../../src/providers/x/confirmations.ts';
import { SessionPool, type XSession } from '../../../../src/providers/x/sessions.ts';

const NOW = 1_000_000_000_000;
const sessions: XSession[] = [
  { label: 'a', authToken: 'ta', ct0: 'ca' },
  { label: 'b', authToken: 'tb', ct0: 'cb' },
];
const window = (remaining: number, limit = 40) =>
  new Headers({
    'x-rate-limit-limit': String(limit),
    'x-rate-limit-remaining': String(remaining),
    'x-rate-limit-reset': String(NOW / 1000 + 900),
  });

describe('confirmation share', () => {
  test('one confirmation at a time until X has announced a window', () => {
    const c = new Confirmations(new SessionPool(sessions, () => NOW));
    const release = c.take('UserByScreenName');
    assert.ok(release);
    assert.equal(c.take('UserByScreenName'), undefined, 'a second one waits for the first answer');
    release();
    assert.ok(c.take('UserByScreenName'));
  });

  test('stops while less than the rest of the pooled window is left, counting calls in flight', () => {
    const pool = new SessionPool(sessions, () => NOW);
    const c = new Confirmations(pool);
    const limit = 40 * sessions.length;
    const share = CONFIRMATION_SHARE * limit;
    // Session a announced its window; b, never used, counts as a full one.
    let taken = 0;
    for (let used = 1; used <= limit; used++) {
      pool.recordRateLimit(sessions[0]!, 'UserByScreenName', window(Math.max(0, 40 - used)));
      const release = c.take('UserByScreenName');
      if (!release) break;
      taken++;
      release();
    }
    assert.equal(taken, share - 1, 'the call that announced the window is one of the share');
    const fresh = new Confirmations(pool);
    pool.recordRateLimit(sessions[0]!, 'UserByScreenName', window(40 - 5));
    const inFlight = Array.from({ length: share }, () => fresh.take('UserByScreenName')).filter(Boolean).length;
    assert.equal(inFlight, share - 5, 'calls not yet answered count against the share');
    assert.ok(fresh.take('UserByRestId'), 'each operation has its own window');
  });

  test('a parked session has nothing left; a dead one is out of the pool', () => {
    const pool = new SessionPool(sessions, () => NOW);
    pool.recordRateLimit(sessions[0]!, 'Followers', window(40));
    pool.parkRateLimited(sessions[1]!, 'Followers');
    assert.deepEqual(pool.pooledWindow('Followers'), { remaining: 40, limit: 80 });
    assert.equal(new Confirmations(pool).take('Followers'), undefined, 'half the pool is parked');
    pool.markDead(sessions[1]!, 'test');
    assert.deepEqual(pool.pooledWindow('Followers'), { remaining: 40, limit: 40 });
  });
});
