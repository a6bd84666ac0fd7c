import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEAD_PARK_MS,
  DEFAULT_RATE_LIMIT_PARK_MS,
  parseSessionLines,
  SessionPool,
} from '../../../../src/providers/x/sessions.ts';

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
    assert.deepEqual(
      sessions.map((s) => s.label),
      ['alice', 'bob', 'session-3'],
    );
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
  const two = () =>
    parseSessionLines('{"username":"a","auth_token":"1","ct0":"1"}\n{"username":"b","auth_token":"2","ct0":"2"}')
      .sessions;

  it('rotates round robin per operation', () => {
    const pool = new SessionPool(two());
    assert.deepEqual(
      [pool.acquire('TweetDetail'), pool.acquire('TweetDetail'), pool.acquire('TweetDetail')].map((s) => s?.label),
      ['a', 'b', 'a'],
    );
    assert.equal(pool.acquire('Followers')?.label, 'a');
  });

  it('parks a session whose remaining hits 0 until the announced reset, for that operation only', () => {
    const c = clock();
    const pool = new SessionPool(two(), c.now);
    const [a] = pool.sessions;
    const resetS = Math.floor(c.now() / 1000) + 120;
    pool.recordRateLimit(
      a!,
      'SearchTimeline',
      new Headers({ 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(resetS) }),
    );
    assert.deepEqual(
      [pool.acquire('SearchTimeline'), pool.acquire('SearchTimeline')].map((s) => s?.label),
      ['b', 'b'],
    );
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
    assert.deepEqual(pool.status()[0], {
      label: 'a',
      state: 'locked',
      availableInS: DEAD_PARK_MS / 1000,
      deadReason: 'account locked (code 326)',
    });
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

describe('x session pool: operator-facing health', () => {
  const lines =
    '{"username":"lock_me","auth_token":"SECRET_A","ct0":"CT_A"}\n{"username":"out_me","auth_token":"SECRET_B","ct0":"CT_B"}';

  it('logs one clear warning per lock or logout, naming the username and never a cookie', () => {
    const warnings: Array<{ obj: object; msg: string }> = [];
    const log = { warn: (obj: object, msg: string) => warnings.push({ obj, msg }), info: () => {} };
    const pool = new SessionPool(parseSessionLines(lines).sessions, Date.now, log);
    pool.markDead(pool.sessions[0]!, 'account locked (code 326)', 'locked');
    pool.markDead(pool.sessions[0]!, 'account locked (code 326)', 'locked');
    pool.markDead(pool.sessions[1]!, 'could not authenticate (code 32)', 'logged_out');
    assert.equal(warnings.length, 2, 'once per session, not per refused call');
    assert.match(
      warnings[0]!.msg,
      /^x session lock_me locked \(account locked \(code 326\)\): out of rotation for 24 h; check the account/,
    );
    assert.match(warnings[1]!.msg, /^x session out_me logged out .*log in again and replace its cookies/);
    assert.ok(!JSON.stringify(warnings).match(/SECRET_|CT_/));
    assert.deepEqual(
      pool.status().map((s) => s.state),
      ['locked', 'logged_out'],
    );
  });

  it('keeps health across a re-read of unchanged sessions; run-time adds replace by username and removals stick', () => {
    const pool = new SessionPool(parseSessionLines(lines).sessions);
    pool.markDead(pool.sessions[0]!, 'account locked (code 326)', 'locked');
    pool.setFileSessions(parseSessionLines(`${lines}\n{"username":"new_one","auth_token":"N","ct0":"N"}`).sessions);
    assert.deepEqual(
      pool.status().map((s) => [s.label, s.state]),
      [
        ['lock_me', 'locked'],
        ['out_me', 'ok'],
        ['new_one', 'ok'],
      ],
    );
    pool.add({ label: 'lock_me', authToken: 'FRESH', ct0: 'FRESH' });
    assert.deepEqual(
      pool.details().map((s) => [s.label, s.state, s.origin]),
      [
        ['lock_me', 'ok', 'admin'],
        ['out_me', 'ok', 'file'],
        ['new_one', 'ok', 'file'],
      ],
    );
    assert.equal(pool.remove('OUT_ME'), true, 'usernames match case-insensitively');
    assert.equal(pool.remove('out_me'), false);
    pool.setFileSessions(parseSessionLines(lines).sessions);
    assert.deepEqual(
      pool.sessions.map((s) => s.label),
      ['lock_me'],
      'a removed file session stays out while the file is unchanged',
    );
  });
});
