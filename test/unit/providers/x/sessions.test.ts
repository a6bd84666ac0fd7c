import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEAD_PARK_MS, DEFAULT_RATE_LIMIT_PARK_MS, parseSessionLines, SessionPool } from '../../../../src/providers/x/sessions.ts';

const FILE = [
  '{"username":"alice","auth_token":"aaa","ct0":"c1"}',
  '{"kind":"cookie","username":"bob","id":"2","auth_token":"bbb","ct0":"c2"}',
  '{"oauth_token":"1-x","oauth_token_secret":"s"}',
  'not json',
  '{"username":"nocookie","auth_token":"zzz"}',
  '',
  '{"auth_token":"ccc","ct0":"c3"}',
].join('\n');

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('x sessions file', () => {
  it('reads cookie lines (plain and Nitter kind:cookie) and counts the rest as skipped', () => {
    const { sessions, skipped } = parseSessionLines(FILE);
    assert.deepEqual(sessions.map((s) => s.label), ['alice', 'bob', 'session-3']);
    assert.equal(sessions[1]!.authToken, 'bbb');
    assert.equal(skipped, 3);
  });

  it('labels never carry cookie values', () => {
    const pool = new SessionPool(parseSessionLines(FILE).sessions);
    const shown = JSON.stringify(pool.status());
    for (const secret of ['aaa', 'bbb', 'ccc', 'c1', 'c2', 'c3']) assert.ok(!shown.includes(`"${secret}"`));
  });
});

describe('x session pool', () => {
  const two = () => parseSessionLines('{"username":"a","auth_token":"1","ct0":"1"}\n{"username":"b","auth_token":"2","ct0":"2"}').sessions;

  it('rotates round robin per operation', () => {
    const pool = new SessionPool(two());
    assert.deepEqual([pool.acquire('TweetDetail'), pool.acquire('TweetDetail'), pool.acquire('TweetDetail')].map((s) => s?.label), ['a', 'b', 'a']);
    assert.equal(pool.acquire('Followers')?.label, 'a');
  });

  it('parks a session whose remaining hits 0 until the announced reset, for that operation only', () => {
    const c = clock();
    const pool = new SessionPool(two(), c.now);
    const [a] = pool.sessions;
    const resetS = Math.floor(c.now() / 1000) + 120;
    pool.recordRateLimit(a!, 'SearchTimeline', new Headers({ 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(resetS) }));
    assert.deepEqual([pool.acquire('SearchTimeline'), pool.acquire('SearchTimeline')].map((s) => s?.label), ['b', 'b']);
    assert.equal(pool.acquire('TweetDetail')?.label, 'a');
    assert.equal(pool.nextAvailableInS('SearchTimeline'), 0);
    pool.parkRateLimited(pool.sessions[1]!, 'SearchTimeline');
    assert.equal(pool.acquire('SearchTimeline'), undefined);
    assert.equal(pool.nextAvailableInS('SearchTimeline'), resetS - Math.ceil(c.now() / 1000));
    c.advance(121_000);
    assert.equal(pool.acquire('SearchTimeline')?.label, 'a');
  });

  it('parks for 15 minutes on a rate limit without a usable reset', () => {
    const c = clock();
    const pool = new SessionPool(two().slice(0, 1), c.now);
    pool.parkRateLimited(pool.sessions[0]!, 'UserTweets', new Headers());
    assert.equal(pool.nextAvailableInS('UserTweets'), DEFAULT_RATE_LIMIT_PARK_MS / 1000);
    assert.equal(pool.isAvailable('UserTweets'), false);
    assert.equal(pool.isAvailable('TweetDetail'), true);
  });

  it('takes a dead session out of every operation for a day', () => {
    const c = clock();
    const pool = new SessionPool(two(), c.now);
    pool.markDead(pool.sessions[0]!, 'account locked (code 326)', 'locked');
    for (let i = 0; i < 3; i++) assert.equal(pool.acquire('Followers')?.label, 'b');
    assert.deepEqual(pool.status()[0], { label: 'a', state: 'locked', availableInS: DEAD_PARK_MS / 1000, deadReason: 'account locked (code 326)' });
    pool.markDead(pool.sessions[1]!, 'refused with HTTP 403');
    assert.equal(pool.isAvailable(), false);
    assert.equal(pool.nextAvailableInS(), DEAD_PARK_MS / 1000);
  });

  it('reports no availability at all without sessions', () => {
    const pool = new SessionPool([]);
    assert.equal(pool.acquire('TweetDetail'), undefined);
    assert.equal(pool.nextAvailableInS('TweetDetail'), undefined);
    assert.equal(pool.isAvailable(), false);
  });
});
