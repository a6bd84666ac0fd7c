// X answers a follower or following page with 60-70 accounts when asked for 20. A page of ours never holds more
// than `limit`: the rest of the upstream page is served by the next cursor (a position sealed into it), read
// again from the cache rather than from X, and no account is lost or repeated.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { BIG_FOLLOWERS, BIG_FOLLOWING, HANDLES } from '../../sim/corpus.ts';
import { xFollowPages } from '../../sim/routes/x-graphql.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { writeSessions } from '../helpers/x-sessions.ts';
import { mcpCall } from '../helpers/mcp.ts';

const UPSTREAM_PAGE = 65;
const dir = mkdtempSync(join(tmpdir(), 'threadmark-oversized-'));
let sim: Simulator;
let stack: Stack;

before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  stack = await startStack(
    { THREADMARK_PROVIDERS: 'x', THREADMARK_X_SESSIONS: writeSessions(dir, 'big', 6), THREADMARK_TRUST_PROXY: 'true' },
    { sim, fastPath: false },
  );
});
afterEach(() => {
  delete xFollowPages.size;
});
after(async () => {
  await stack.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

interface ListJson {
  items: { id: string; handle: string }[];
  nextCursor?: string;
  page: number;
  limit: number;
}

let ipSeq = 0;
/** Each upstream page read with an X session costs the client's account allowance: every page its own address. */
const fresh = (): RequestInit => ({
  headers: { 'x-forwarded-for': `10.71.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` },
});

async function walk(kind: 'followers' | 'following', limit: number): Promise<{ ids: string[]; sizes: number[] }> {
  const ids: string[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const q = new URLSearchParams({ format: 'json', limit: String(limit), ...(cursor ? { cursor } : {}) });
    const res = await stack.get(`/${HANDLES.big}/${kind}?${q}`, fresh());
    const text = await res.text();
    assert.equal(res.status, 200, text.slice(0, 300));
    const body = JSON.parse(text) as ListJson;
    assert.equal(body.limit, limit);
    ids.push(...body.items.map((a) => a.id));
    sizes.push(body.items.length);
    cursor = body.nextCursor;
    if (!cursor) return { ids, sizes };
  }
  assert.fail('the walk did not end');
}

for (const [kind, total] of [
  ['followers', BIG_FOLLOWERS],
  ['following', BIG_FOLLOWING],
] as const) {
  test(`${kind}: pages of at most limit, every account exactly once, each upstream page fetched once`, async () => {
    xFollowPages.size = UPSTREAM_PAGE;
    sim.resetCalls();
    const { ids, sizes } = await walk(kind, 20);
    assert.ok(
      sizes.every((n) => n > 0 && n <= 20),
      `page sizes ${sizes.join(',')}`,
    );
    assert.equal(ids.length, total, 'no account repeated or lost');
    assert.equal(new Set(ids).size, total);
    const op = kind === 'followers' ? 'Followers' : 'Following';
    assert.equal(sim.calls({ target: 'x', path: `/${op}?` }), Math.ceil(total / UPSTREAM_PAGE));
  });
}

test('page=N follows the same cuts as the cursors, and MCP pages alike', async () => {
  xFollowPages.size = UPSTREAM_PAGE;
  const res = await stack.get(`/${HANDLES.big}/followers?format=json&limit=20&page=4`);
  const body = JSON.parse(await res.text()) as ListJson;
  // Upstream page 1 holds 65: pages 1-3 are 20 + 20 + 20, page 4 its last 5.
  assert.equal(body.items.length, 5);
  const text = await mcpCall(stack.url, 'list_followers', { handle: HANDLES.big, limit: 20 });
  const accounts = text.split('\n').filter((l) => l.startsWith('- **'));
  assert.equal(accounts.length, 20, 'the MCP tool holds to limit too');
});
