// Reads of accounts that do not exist must not spend the operator's logged-in X sessions: FxTwitter's bare 404 is
// confirmed with a session call only within the client's account allowance and a service-wide share of each
// operation's window, negative answers are cached, and ids that cannot exist never reach an upstream.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../../sim/server.ts';
import { HANDLES } from '../../../sim/corpus.ts';
import { xAccounts } from '../../../sim/routes/x-accounts.ts';
import { POLICIES } from '../../../src/stores/limits/policies.ts';
import { CONFIRMATION_SHARE } from '../../../src/providers/x/confirmations.ts';
import { NEGATIVE_CACHE_S } from '../../../src/sources/cached-reader.ts';
import { problemOf, type Stack } from '../../helpers/stack.ts';
import { BACKENDS, startOn, type Backend } from '../../helpers/backends.ts';
import { writeSessions } from '../../helpers/x-sessions.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-drain-'));
let sim: Simulator;
const stacks: Stack[] = [];
let seq = 0;

/** Two sessions of this many calls per operation per window: 80 UserByScreenName calls in all. */
const PER_SESSION = 40;
const SESSIONS = 2;

before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  for (const s of stacks) await s.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  xAccounts.reset();
  xAccounts.setLimits({ limit: PER_SESSION, windowS: 900 });
  sim.clearFaults();
});

async function xStack(env: Record<string, string> = {}, backend: Backend = BACKENDS[0]!): Promise<Stack> {
  const s = await startOn(
    backend,
    {
      THREADMARK_PROVIDERS: 'fxtwitter,x',
      THREADMARK_X_SESSIONS: writeSessions(dir, `drain${++seq}_`, SESSIONS),
      THREADMARK_TRUST_PROXY: 'true',
      THREADMARK_UPSTREAM_RETRIES: '0',
      ...env,
    },
    { sim },
  );
  stacks.push(s);
  return s;
}

const from = (ip: string): RequestInit => ({ headers: { 'x-forwarded-for': ip } });
const sessionCalls = (op?: string) => sim.calls({ target: 'x', path: op ? `/${op}?` : '/graphql/' });

/** The made-up reads of the attack, in turn: a profile, its feed, its followers, an account id. */
function madeUp(i: number, tag: string): string {
  const handle = `nb${tag}${i}`;
  switch (i % 4) {
    case 0:
      return `/${handle}?format=json`;
    case 1:
      return `/${handle}/rss`;
    case 2:
      return `/${handle}/followers?format=json`;
    default:
      return `/i/user/${9_100_000_000 + seq * 1000 + i}?format=json`;
  }
}

/** A legitimate read that needs the sessions: FxTwitter fails on the profile, so X serves it. */
async function fallbackRead(s: Stack, ip: string): Promise<Response> {
  sim.addFault({ target: 'fxtwitter', kind: 'status', status: 500, match: `/2/profile/${HANDLES.carol}`, times: 5 });
  const res = await s.get(`/${HANDLES.carol}?format=json&nocache=true`, from(ip));
  sim.clearFaults();
  return res;
}

describe('unknown accounts cannot drain the X sessions', () => {
  test('170 made-up reads from one address cost at most its account allowance in session calls', async () => {
    const s = await xStack();
    const before = sessionCalls();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 170; i++) {
      const res = await s.get(madeUp(i, 'a'), from('10.60.0.1'));
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    const spent = sessionCalls() - before;
    assert.ok(spent <= POLICIES['account-ip'].quota, `${spent} session calls`);
    assert.deepEqual([...statuses], [[404, 170]], 'FxTwitter\'s "not found" stands once the confirmations stop');

    const res = await fallbackRead(s, '10.60.0.2');
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get('x-source'), 'x');
  });

  test('once its allowance is spent, a confirmation is skipped and a session read is 429', async () => {
    const s = await xStack();
    const ip = '10.61.0.1';
    for (let i = 0; i < POLICIES['account-ip'].quota; i++) {
      assert.equal((await s.get(`/nbspent${i}?format=json`, from(ip))).status, 404);
    }
    const before = sessionCalls();
    const skipped = await s.get('/nbspentlast?format=json', from(ip));
    assert.equal(skipped.status, 404);
    const p = await problemOf(skipped);
    assert.equal(p.code, 'not_found');
    assert.equal(p.confirmed, false);
    assert.match(String(p.detail), /account allowance is used up/);
    assert.equal(skipped.headers.get('ratelimit-policy')?.includes('"account-ip"'), true);
    assert.equal(sessionCalls(), before, 'no session call');

    const refused = await fallbackRead(s, ip);
    assert.equal(refused.status, 429);
    assert.equal((await problemOf(refused)).code, 'rate_limited');
    assert.equal(sessionCalls(), before, 'no session call');
  });

  test('many addresses together spend at most the confirmation share of each window', async () => {
    const s = await xStack();
    const before = { byName: sessionCalls('UserByScreenName'), byId: sessionCalls('UserByRestId') };
    for (let i = 0; i < 170; i++) {
      const res = await s.get(madeUp(i, 'm'), from(`10.62.${Math.floor(i / 200)}.${(i % 200) + 1}`));
      await res.arrayBuffer();
      assert.equal(res.status, 404);
    }
    const bound = CONFIRMATION_SHARE * PER_SESSION * SESSIONS;
    const byName = sessionCalls('UserByScreenName') - before.byName;
    const byId = sessionCalls('UserByRestId') - before.byId;
    assert.ok(byName <= bound, `${byName} UserByScreenName calls, bound ${bound}`);
    assert.ok(byId <= bound, `${byId} UserByRestId calls, bound ${bound}`);
    assert.ok(byName > 0 && byId > 0, 'confirmations are made while the share lasts');

    const res = await fallbackRead(s, '10.62.9.9');
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get('x-source'), 'x');
  });
});

for (const backend of BACKENDS) {
  describe(`a "not found" is cached (${backend.name})`, { skip: backend.skip }, () => {
    test(`the second read of an unknown account makes no upstream call for ${NEGATIVE_CACHE_S} s`, async () => {
      const s = await xStack({}, backend);
      for (const path of [
        '/nbcached?format=json',
        '/nbcached/followers?format=json',
        '/i/user/9100000000777?format=json',
      ]) {
        const first = await s.get(path, from('10.63.0.1'));
        assert.equal(first.status, 404, path);
        assert.equal((await problemOf(first)).confirmed, undefined, 'X confirmed it');
        const calls = sim.calls();
        const second = await s.get(path, from('10.63.0.2'));
        assert.equal(second.status, 404, path);
        assert.equal(second.headers.get('x-cache'), 'hit', path);
        assert.equal((await problemOf(second)).code, 'not_found');
        assert.equal(sim.calls(), calls, `${path}: no upstream call`);
      }
    });
  });
}

describe('ids that cannot exist', () => {
  test('are 404 not_found without any upstream call', async () => {
    const s = await xStack();
    const impossible = ['0', '000', '0123', '12345678901234567890', '9223372036854775808', '99999999999999999999'];
    const before = sim.calls();
    for (const id of impossible) {
      for (const path of [
        `/i/user/${id}?format=json`,
        `/api/v1/users/${id}?format=json`,
        `/i/lists/${id}?format=json`,
        `/api/v1/lists/${id}/members?format=json`,
        `/${HANDLES.alice}/status/${id}?format=json`,
        `/i/status/${id}?format=json`,
        `/api/v1/posts?url=${encodeURIComponent(`https://x.com/i/status/${id}`)}&format=json`,
      ]) {
        const res = await s.get(path);
        assert.equal(res.status, 404, path);
        assert.equal((await problemOf(res)).code, 'not_found', path);
      }
    }
    assert.equal(sim.calls(), before, 'no upstream call');
    // Longer than the account-id route's declared shape: its own 400.
    const long = await s.get('/api/v1/users/123456789012345678901');
    assert.equal(long.status, 400);
    assert.equal((await problemOf(long)).code, 'invalid_user_id');
  });
});

test('/docs/reliability documents the negative cache, the session charge and the confirmation share', async () => {
  const s = await xStack();
  const html = await (await s.get('/docs/reliability')).text();
  for (const id of ['negative-cache', 'session-calls-are-charged', 'confirmation-share', 'impossible-status-ids']) {
    assert.match(html, new RegExp(`id="${id}"`), id);
  }
  assert.match(html, new RegExp(`remembered for ${NEGATIVE_CACHE_S} s`));
  assert.match(html, new RegExp(`only ${CONFIRMATION_SHARE * 100}% of each session window`));
  assert.match(html, /<code>account-ip<\/code>/);
});
