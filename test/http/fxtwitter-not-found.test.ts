// FxTwitter answers a bare 404 (status null, or 'User not found') also when its own upstream call failed or
// X limited it. Only a tombstone or a private account's 401 is definitive: a bare 404 lets the chain try the
// next provider, a stale copy still stands in for it, and it never trips the breaker.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-fx404-'));
let sim: Simulator;
const stacks: Stack[] = [];

before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  for (const s of stacks) await s.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

async function stackOf(env: Record<string, string>): Promise<Stack> {
  const s = await startStack({ THREADMARK_UPSTREAM_RETRIES: '0', ...env }, { sim });
  stacks.push(s);
  return s;
}

const bare404 = (match: string) => sim.addFault({ target: 'fxtwitter', kind: 'status', status: 404, match });

describe('a bare FxTwitter 404 is not definitive', () => {
  test('the next provider serves the post', async () => {
    const s = await stackOf({ THREADMARK_PROVIDERS: 'fxtwitter,syndication' });
    bare404('/2/status/');
    const res = await s.get(`/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off&format=json`);
    sim.clearFaults();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-source'), 'syndication');
  });

  test('the next provider serves the profile', async () => {
    const sessions = join(dir, 'sessions.jsonl');
    writeFileSync(sessions, JSON.stringify({ username: 'fx404', auth_token: 'fx404_token', ct0: 'ct0_fx404' }) + '\n');
    const s = await stackOf({ THREADMARK_PROVIDERS: 'fxtwitter,x', THREADMARK_X_SESSIONS: sessions });
    sim.addFault({ target: 'fxtwitter', kind: 'status', status: 404, match: '/2/profile/' });
    const res = await s.get(`/${HANDLES.carol}?format=json`);
    sim.clearFaults();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-source'), 'x');
  });

  test('another provider confirms a deletion; alone, FxTwitter gives an unconfirmed not_found', async () => {
    const both = await stackOf({ THREADMARK_PROVIDERS: 'fxtwitter,syndication' });
    const confirmed = await both.get(`/${HANDLES.bob}/status/${IDS.deleted}?thread=off&format=json`);
    assert.equal(confirmed.status, 404);
    const c = (await confirmed.json()) as { code: string; confirmed?: boolean };
    assert.equal(c.code, 'not_found');
    assert.equal(c.confirmed, undefined);
    assert.ok(sim.calls({ target: 'syndication', path: IDS.deleted }) >= 1, 'syndication was asked');

    const alone = await stackOf({ THREADMARK_PROVIDERS: 'fxtwitter' });
    const res = await alone.get(`/${HANDLES.bob}/status/${IDS.deleted}?thread=off&format=json`);
    assert.equal(res.status, 404);
    const body = (await res.json()) as { code: string; confirmed?: boolean; detail: string };
    assert.equal(body.code, 'not_found');
    assert.equal(body.confirmed, false);
    assert.match(body.detail, /no other provider could confirm/);
  });

  test('a stale copy stands in when every provider answers a bare 404', async () => {
    const s = await stackOf({ THREADMARK_PROVIDERS: 'fxtwitter', THREADMARK_CACHE_TTL_S: '1' });
    const path = `/${HANDLES.alice}/status/${IDS.threadVideo}?thread=off&format=json`;
    assert.equal((await s.get(path)).status, 200);
    await sleep(1100);
    bare404('/2/status/');
    const res = await s.get(path);
    sim.clearFaults();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-cache'), 'stale');
  });

  test('bare 404s never open the breaker', async () => {
    const s = await stackOf({ THREADMARK_PROVIDERS: 'fxtwitter', THREADMARK_CACHE_TTL_S: '0' });
    for (let i = 0; i < 8; i++) {
      assert.equal((await s.get(`/${HANDLES.bob}/status/${IDS.unknown}?thread=off`)).status, 404);
    }
    const res = await s.get(`/${HANDLES.alice}/status/${IDS.threadRoot}?thread=off`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-source'), 'fxtwitter');
  });
});
