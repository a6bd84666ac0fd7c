// Keeping up with X through the real server: a deploy that rotates a query id breaks the read with a clear
// x_error and the THREADMARK_X_OPERATIONS file heals it without a restart (a bad edit is ignored); discovery
// of query ids at start and after a deploy (one refresh, one retry); x-client-transaction-id on the
// operations that need it, which the simulator verifies.
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type Stack, problemOf } from '../helpers/stack.ts';
import { HANDLES, SEARCH_TERMS } from '../../sim/corpus.ts';
import { xAccounts } from '../../sim/routes/x-accounts.ts';
import { xDeploy } from '../../sim/x-deploy.ts';
import type { XProvider } from '../../src/providers/x/provider.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-x-web-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const sessions = join(dir, 'sessions.jsonl');
writeFileSync(
  sessions,
  ['a', 'b']
    .map((u) => JSON.stringify({ username: `web_${u}`, auth_token: `web_tok_${u}`, ct0: `web_ct0_${u}` }))
    .join('\n') + '\n',
);

let stack: Stack | undefined;
beforeEach(() => {
  xAccounts.reset();
  xDeploy.reset();
});
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const xOf = (s: Stack) => s.app.chain.providers.find((p) => p.name === 'x') as XProvider;
const env = (extra: Record<string, string> = {}) => ({
  THREADMARK_PROVIDERS: 'x',
  THREADMARK_X_SESSIONS: sessions,
  THREADMARK_CACHE_TTL_S: '0',
  ...extra,
});

/** Generous: the machine running the suite may be busy (start-up discovery retries every 5 s). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(check(), `timed out waiting for ${what}`);
}

describe('THREADMARK_X_DISCOVER', () => {
  test('at start: ids rotated before the service started are read from the bundle before the first read', async () => {
    const fresh = xDeploy.rotate('UserByScreenName');
    stack = await startStack(env({ THREADMARK_X_DISCOVER: 'true' }));
    const s = stack;
    await until(() => xOf(s).operations.get('UserByScreenName').queryId === fresh, 'start-up discovery');
    assert.equal((await s.get(`/${HANDLES.alice}?format=json`)).status, 200);
    assert.equal(s.sim.calls({ target: 'x', path: '/UserByScreenName?' }), 1, 'no stale call');
    assert.equal(xOf(s).operationHealth().UserByScreenName.source, 'discovered');
  });

  test('after a deploy: a 404 refreshes the ids once and the read is retried with the new id', async () => {
    stack = await startStack(env({ THREADMARK_X_DISCOVER: 'true' }));
    const s = stack;
    await until(() => xOf(s).webStatus()?.lastReadAt !== undefined, 'start-up discovery');
    const fresh = xDeploy.rotate('UserByScreenName');
    const before = s.sim.calls({ target: 'x-web' });

    const res = await s.get(`/${HANDLES.bob}?format=json`);
    assert.equal(res.status, 200, await res.text());
    assert.equal(s.sim.calls({ target: 'x', path: '/UserByScreenName?' }), 2, 'one stale call, one retry');
    assert.equal(s.sim.calls({ target: 'x', path: `/graphql/${fresh}/UserByScreenName` }), 1);
    assert.ok(s.sim.calls({ target: 'x-web' }) > before, 'the bundle was read again');
    const health = xOf(s).operationHealth().UserByScreenName;
    assert.deepEqual([health.queryId, health.source, health.stale, health.success], [fresh, 'discovered', 1, 1]);
  });

  test('discovery off: a stale id is reported with what to do, and the bundle is not read for ids', async () => {
    stack = await startStack(env());
    const s = stack;
    xDeploy.rotate('UserByScreenName');
    const res = await s.get(`/${HANDLES.alice}?format=json`);
    assert.equal(res.status, 502);
    const p = await problemOf(res);
    assert.equal(p.code, 'x_error');
    assert.match(
      String(p.detail),
      /out of date \(HTTP 404\); refresh THREADMARK_X_OPERATIONS or set THREADMARK_X_DISCOVER=true/,
    );
    assert.equal(s.sim.calls({ target: 'x-web' }), 0);
    assert.equal(
      s.sim.calls({ target: 'x', path: '/UserByScreenName?' }),
      1,
      'a stale id is not retried on every session',
    );
  });
});

describe('x-client-transaction-id', () => {
  test('search carries a valid header (read once from the web app); other operations carry none', async () => {
    stack = await startStack(env());
    const s = stack;
    for (const q of [SEARCH_TERMS.caching, 'stampede']) {
      const res = await s.get(`/api/v1/search?q=${q}&feed=photos&format=json`, {
        headers: { 'x-forwarded-for': `10.9.0.${q.length}` },
      });
      assert.equal(res.status, 200, await res.text());
      assert.equal(res.headers.get('x-source'), 'x');
    }
    assert.equal((await s.get(`/${HANDLES.alice}?format=json`)).status, 200);
    assert.equal(s.sim.calls({ target: 'x-web', path: '/client-web/ondemand.s.' }), 1, 'signing inputs are read once');
    assert.equal(xOf(s).webStatus()?.signing, 'ready');
  });

  test('without signing inputs (web app unreachable) X refuses the search; the read fails cleanly, others still work', async () => {
    stack = await startStack(env({ THREADMARK_X_WEB_URL: 'http://127.0.0.1:9' }));
    const s = stack;
    const res = await s.get(`/api/v1/search?q=${SEARCH_TERMS.caching}&feed=photos&format=json`);
    assert.equal(res.status, 503);
    assert.equal((await problemOf(res)).code, 'x_error');
    assert.equal(s.sim.calls({ target: 'x', path: '/SearchTimeline?' }), 2, 'each session refused with a bare 404');
    assert.equal(xOf(s).webStatus()?.signing, 'unavailable');
    assert.equal((await s.get(`/${HANDLES.alice}?format=json`)).status, 200, 'unsigned operations are unaffected');
  });
});

async function waitFor(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('THREADMARK_X_OPERATIONS', () => {
  test('a rotated query id fails with x_error naming the cause; the override file heals it without a restart', async () => {
    const file = join(dir, 'heal.json');
    writeFileSync(file, '{}');
    // Polled reads fail until the re-read: keep the breaker from opening on them.
    stack = await startStack(env({ THREADMARK_X_OPERATIONS: file, THREADMARK_BREAKER_THRESHOLD: '1000' }));
    const s = stack;
    const path = `/${HANDLES.alice}?format=json`;
    assert.equal((await s.get(path)).status, 200);

    const fresh = xDeploy.rotate('UserByScreenName');
    const broken = await s.get(path);
    assert.equal(broken.status, 502);
    const problem = await problemOf(broken);
    assert.equal(problem.code, 'x_error');
    assert.match(
      String(problem.detail),
      /UserByScreenName: query id or features out of date \(HTTP 404\).*THREADMARK_X_OPERATIONS/,
    );

    writeFileSync(file, JSON.stringify({ UserByScreenName: { queryId: fresh } }));
    await waitFor(async () => (await s.get(path)).status === 200, 'the re-read override');
    assert.ok(s.sim.calls({ target: 'x', path: `/graphql/${fresh}/UserByScreenName` }) >= 1);

    // A broken edit is reported in the log and ignored: the id in force keeps working.
    writeFileSync(file, '{"UserByScreenName": {"queryId": "bad id"}}');
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal((await s.get(path)).status, 200);
  });
});
