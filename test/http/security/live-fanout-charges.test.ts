// A request that fans out (a merged feed in a date window reads every account live; nocache re-reads every post
// of a conversation) pays the live-lookup allowance per live upstream read, not once per request: an anonymous
// address cannot make more upstream reads a minute than search-ip allows.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getCorpus, HANDLES, IDS } from '../../../sim/corpus.ts';
import { startStack, problemOf, type Stack } from '../../helpers/stack.ts';

const corpus = getCorpus();
const iso = (ms: number) => new Date(ms).toISOString();
const searchIp = (res: Response) =>
  Number(/"search-ip";r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1] ?? Number.NaN);
const ACCOUNTS = [HANDLES.alice, HANDLES.bob, HANDLES.carol, HANDLES.dave, HANDLES.big];

let ipSeq = 0;
const address = () => `10.77.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

describe('live reads of a fanned-out request are each charged', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_TRUST_PROXY: 'true' });
  });
  after(() => s.close());

  async function burst(ip: string, paths: string[]) {
    const start = s.sim.calls();
    const out: Array<{ status: number; calls: number; remaining: number; retryAfter: string | null }> = [];
    for (const path of paths) {
      const before = s.sim.calls();
      const res = await s.get(path, { headers: { 'x-forwarded-for': ip } });
      if (res.status === 429) assert.equal((await problemOf(res)).code, 'rate_limited');
      else await res.arrayBuffer();
      out.push({
        status: res.status,
        calls: s.sim.calls() - before,
        remaining: searchIp(res),
        retryAfter: res.headers.get('retry-after'),
      });
    }
    return { out, total: s.sim.calls() - start };
  }

  test('a merged feed in date windows: at most the search-ip allowance of upstream reads, then 429', async () => {
    const ip = address();
    const t0 = corpus.posts.get(IDS.threadRoot)!.createdAt;
    // Five distinct windows, so no request is answered from what the one before cached.
    const paths = Array.from(
      { length: 5 },
      (_, i) => `/${ACCOUNTS.join(',')}/rss?since=${iso(t0 - (i + 1) * 86_400_000)}&until=${iso(t0 + 86_400_000)}`,
    );
    const { out, total } = await burst(ip, paths);
    assert.ok(total <= 5, `upstream reads: ${total} (${JSON.stringify(out)})`);
    const refused = out.filter((r) => r.status === 429);
    assert.ok(refused.length > 0, JSON.stringify(out));
    for (const r of refused) {
      assert.equal(r.remaining, 0);
      assert.ok(Number(r.retryAfter) > 0);
    }
    // Once the window has passed (what this reset stands for), the reads already made are cached: the retry
    // needs only the ones still missing, and succeeds.
    await s.app.services.stores.limiter.reset('search-ip', ip);
    const retry = await burst(ip, [paths[0]!]);
    assert.equal(retry.out[0]!.status, 200, JSON.stringify(retry.out));
    assert.equal(retry.out[0]!.remaining, 5 - retry.total, 'one point per upstream read');
  });

  test('nocache on a merged feed: at most the search-ip allowance of upstream reads, then 429', async () => {
    const ip = address();
    // Every account's profile and timeline, re-read live each time.
    const path = `/${ACCOUNTS.join(',')}/rss?nocache=true`;
    const { out, total } = await burst(ip, Array(5).fill(path));
    assert.ok(total <= 5, `upstream reads: ${total} (${JSON.stringify(out)})`);
    for (const r of out) {
      assert.equal(r.status, 429, JSON.stringify(out));
      assert.equal(r.remaining, 0);
      assert.ok(Number(r.retryAfter) > 0);
    }
    // Without nocache the same feed is an ordinary cached read: not a live lookup, never refused by search-ip.
    const plain = await burst(ip, [`/${ACCOUNTS.join(',')}/rss`]);
    assert.equal(plain.out[0]!.status, 200);
  });

  test('/docs/reliability says a live lookup is charged per upstream read', async () => {
    const html = await (await s.get('/docs/reliability')).text();
    assert.match(html, /id="live-lookups-per-read"/);
    assert.match(html, /once for every live upstream read/);
  });

  test('each 200 tells how many live reads it cost', async () => {
    const ip = address();
    const { out } = await burst(ip, [`/${HANDLES.carol}/status/${IDS.carolQuoted}?thread=off&nocache=true`]);
    assert.equal(out[0]!.status, 200);
    assert.ok(out[0]!.calls >= 1);
    assert.equal(out[0]!.remaining, 5 - out[0]!.calls);
  });
});
