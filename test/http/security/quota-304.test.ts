// A conditional request must never give back a live-lookup charge once an upstream was asked.
// `If-None-Match: *` matches every representation, so before the fix every such poll was a free X session call.
import { after, afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { xAccounts } from '../../../sim/routes/x-accounts.ts';

const dir = mkdtempSync(join(tmpdir(), 'tm-quota-304-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const SESSIONS = join(dir, 'sessions.jsonl');
writeFileSync(
  SESSIONS,
  [1, 2, 3]
    .map((i) => JSON.stringify({ username: `q304_${i}`, auth_token: `q304_tok_${i}`, ct0: `q304_ct0_${i}` }))
    .join('\n') + '\n',
);

let s: Stack | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
  xAccounts.reset();
});

const remaining = (field: string | null, policy: string) =>
  Number(new RegExp(`"${policy}";r=(\\d+)`).exec(field ?? '')?.[1] ?? NaN);

describe('304 refunds', () => {
  test('If-None-Match: * on an account-backed search feed is charged like any live lookup', async () => {
    s = await startStack({ THREADMARK_PROVIDERS: 'x,fxtwitter', THREADMARK_X_SESSIONS: SESSIONS });
    const xCalls = () => s!.sim.calls({ target: 'x' });
    const statuses: number[] = [];
    const calls: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 25; i++) {
      const res = await s.get(`/search/rss?q=threadmark&feed=photos&nocache=true`, {
        headers: { 'if-none-match': '*' },
      });
      await res.arrayBuffer();
      statuses.push(res.status);
      calls.push(xCalls());
      if (res.status === 304) last = res;
    }
    // search-ip (5 a minute) runs out first: five polls reach X, the rest are refused before any upstream call.
    assert.deepEqual(statuses, [...Array(5).fill(304), ...Array(20).fill(429)]);
    assert.ok(calls[0]! > 0 && calls[4]! > calls[3]!, 'each charged poll reached an X session');
    assert.equal(calls[24], calls[4], 'no refused poll reached an X session');
    assert.equal(remaining(last!.headers.get('ratelimit'), 'search-ip'), 0, 'the 304 shows the charge it kept');
    assert.equal(remaining(last!.headers.get('ratelimit'), 'account-ip'), 5);
  });

  test('a poll answered 304 from a live lookup keeps its charge; a cached 304 costs nothing', async () => {
    s = await startStack();
    const path = '/search/rss?q=threadmark&feed=latest';
    const first = await s.get(path);
    assert.equal(first.status, 200);
    await first.arrayBuffer();
    assert.equal(remaining(first.headers.get('ratelimit'), 'search-ip'), 4);
    const etag = first.headers.get('etag')!;
    for (let i = 0; i < 8; i++) {
      const res = await s.get(path, { headers: { 'if-none-match': etag } });
      assert.equal(res.status, 304, 'a cache hit validates without quota');
      await res.arrayBuffer();
    }
    const fresh = await s.get(`${path}&nocache=true`, { headers: { 'if-none-match': etag } });
    assert.equal(fresh.status, 304);
    assert.equal(
      remaining(fresh.headers.get('ratelimit'), 'search-ip'),
      3,
      'the live poll is charged although it ended in 304',
    );
  });
});
