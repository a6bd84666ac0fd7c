// Keyed reads skip the shared cache, so every upstream read they cause is charged to the key's
// live-key budget (120 a minute, advertised in the RateLimit fields); account-backed page=N walks are charged per
// upstream page; and neither a multi-account feed nor an MCP batch can fan out past the budget.
import { after, afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { HANDLES } from '../../../sim/corpus.ts';
import { xAccounts } from '../../../sim/routes/x-accounts.ts';

const ADMIN = 'admin-token-for-fanout-tests';
const dir = mkdtempSync(join(tmpdir(), 'tm-fanout-'));
const SESSIONS = join(dir, 'sessions.jsonl');
writeFileSync(
  SESSIONS,
  [1, 2, 3, 4]
    .map((i) => JSON.stringify({ username: `fan${i}`, auth_token: `fan_tok_${i}`, ct0: `fan_ct0_${i}` }))
    .join('\n') + '\n',
);
after(() => rmSync(dir, { recursive: true, force: true }));

let s: Stack | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
  xAccounts.reset();
});

async function newKey(st: Stack, accountQuota?: number): Promise<string> {
  const res = await st.get('/admin/keys', {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'fanout', ...(accountQuota ? { accountQuota } : {}) }),
  });
  assert.equal(res.status, 201);
  return ((await res.json()) as { key: string }).key;
}

const member = (res: Response, policy: string) =>
  Number(new RegExp(`"${policy}";r=(\\d+)`).exec(res.headers.get('ratelimit') ?? '')?.[1] ?? NaN);
const PUBLIC = [HANDLES.alice, HANDLES.bob, HANDLES.carol, HANDLES.dave, HANDLES.big, HANDLES.hostile];

describe('keyed fan-out', () => {
  test('a keyed multi-account feed is charged per upstream read and stops at the live-key budget', async () => {
    s = await startStack({ THREADMARK_ADMIN_TOKEN: ADMIN });
    const key = await newKey(s);
    const auth = { headers: { authorization: `Bearer ${key}` } };
    const path = `/${PUBLIC.join(',')}/rss`;
    const statuses: number[] = [];
    const calls: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res: Response = await s.get(path, auth);
      await res.arrayBuffer();
      statuses.push(res.status);
      calls.push(s.sim.calls());
      if (res.status === 200)
        assert.equal(member(res, 'live-key'), 120 - 12 * (i + 1), 'profile + timeline per account');
    }
    // 6 accounts x (profile + timeline) = 12 reads a request: ten fit in 120 a minute.
    assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429]);
    assert.equal(calls[11], calls[9], 'the refused requests reached no upstream');
  });

  test('one MCP batch of keyed page=10 profile reads cannot go past the budget', async () => {
    s = await startStack({ THREADMARK_ADMIN_TOKEN: ADMIN });
    const key = await newKey(s);
    const before = s.sim.calls();
    // A profile read cuts its pages from full upstream pages, so page=10 of one post is a couple of upstream reads:
    // most of the budget is spent first (8 feeds of 12 reads), and the batch must stop at what is left.
    for (let i = 0; i < 8; i++) {
      const feed = await s.get(`/${PUBLIC.join(',')}/rss`, { headers: { authorization: `Bearer ${key}` } });
      await feed.arrayBuffer();
      assert.equal(feed.status, 200);
    }
    const batch = Array.from({ length: 20 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'read_profile', arguments: { handle: PUBLIC[i % PUBLIC.length], page: 10, limit: 1 } },
    }));
    const res = await s.get('/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(batch),
    });
    assert.equal(res.status, 200);
    const out = (await res.json()) as Array<{ result: { isError?: boolean; content: Array<{ text: string }> } }>;
    const made = s.sim.calls() - before;
    assert.ok(made <= 120, `upstream calls ${made}`);
    assert.ok(
      out.some((r) => r.result.isError && r.result.content[0]!.text.includes('"rate_limited"')),
      'the rest were refused',
    );
  });

  test('account-backed page=N walks are charged per upstream page', async () => {
    s = await startStack({
      THREADMARK_ADMIN_TOKEN: ADMIN,
      THREADMARK_PROVIDERS: 'x,fxtwitter',
      THREADMARK_X_SESSIONS: SESSIONS,
    });
    const key = await newKey(s, 20);
    const pages = () => s!.sim.calls({ target: 'x', path: '/SearchTimeline' });
    let before = pages();
    const res = await s.get('/api/v1/search?q=caching&feed=photos&page=3&limit=1', {
      headers: { authorization: `Bearer ${key}` },
    });
    await res.arrayBuffer();
    assert.equal(res.status, 200);
    const walked = pages() - before;
    assert.ok(walked >= 3, `pages fetched: ${walked}`);
    assert.equal(member(res, 'account-key'), 20 - walked, 'one point per upstream page');
    assert.equal(member(res, 'search-key'), 30 - walked, 'one live lookup per upstream page');
    before = pages();
    const anon = await s.get('/api/v1/search?q=threadmark&feed=photos&page=3&limit=1');
    await anon.arrayBuffer();
    assert.equal(anon.status, 200);
    assert.equal(member(anon, 'account-ip'), 10 - (pages() - before));
    assert.equal(member(anon, 'search-ip'), 5 - (pages() - before));
  });
});
