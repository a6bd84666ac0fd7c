// The last post of a thread by its bare permalink, the link people paste most: its default read walks up through
// every ancestor, so it is the read most likely to fall off the hit path without anyone noticing. A repeated read
// must be answered by the cache-hit replay, and a hit the replay cannot answer (a compressed one) must cost one
// read of the application cache and lookups of remembered results only: no walk, no assembly, no render.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { rawRequest, type RawResponse } from '../helpers/raw-http.ts';

const LAST = `/${HANDLES.alice}/status/${IDS.threadLast}`;

let seq = 0;
const nextIp = () => `198.51.100.${++seq}`;

function get(s: Stack, headers: [string, string][] = []): Promise<RawResponse> {
  return rawRequest(Number(new URL(s.url).port), {
    method: 'GET',
    target: LAST,
    headers: [['X-Forwarded-For', nextIp()], ...headers],
  });
}

/**
 * Lookups of the response cache (assembled reads, renders): a hit is a remembered result used, a miss a
 * derivation done again.
 */
function lookups(s: Stack): { hit: number; miss: number } {
  // Read from the cache itself: a /metrics request would be a lookup of the response layer of its own.
  const { hits, misses } = s.app.services.responses.stats();
  return { hit: hits, miss: misses };
}

/** The keys of the application cache read while `fn` runs. */
async function cacheReads(s: Stack, fn: () => Promise<unknown>): Promise<string[]> {
  const cache = s.app.services.stores.cache;
  const read = cache.get.bind(cache);
  const keys: string[] = [];
  cache.get = (key) => {
    keys.push(key);
    return read(key);
  };
  try {
    await fn();
  } finally {
    cache.get = read;
  }
  return keys;
}

describe('the last post of a 12-post thread by its bare permalink', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_TRUST_PROXY: 'true' });
  });
  after(() => s.close());

  test('reads the whole thread above it, and a repeated read is answered by the cache-hit replay', async () => {
    const calls = s.sim.calls();
    const first = await get(s);
    assert.equal(first.status, 200);
    assert.equal(s.sim.calls() - calls, 1, 'one upstream call: the conversation holds every ancestor');
    assert.equal(first.headers['x-post-count'], '12', 'the eleven ancestors and the post');
    assert.equal(first.headers['x-warnings'], 'none');
    const body = first.body.toString();
    for (const id of IDS.thread) assert.ok(body.includes(`/status/${id})`), `post ${id} in the read`);

    const replayed = () => s.app.server.responseLayer?.served ?? Number.NaN;
    // The first hit goes through Fastify and is recorded; every later one is replayed.
    const hit = await get(s);
    assert.equal(hit.headers['x-cache'], 'hit');
    for (let i = 0; i < 3; i++) {
      const before = replayed();
      const again = await get(s);
      assert.equal(replayed(), before + 1, `hit ${i + 2} answered by the replay`);
      assert.equal(again.headers['x-cache'], 'hit');
      assert.ok(again.body.equals(hit.body), 'the replayed body is the one Fastify wrote');
    }
  });

  test('a hit the replay cannot answer reads one cache entry and derives nothing again', async () => {
    // A conditional request never takes the hit path (its validators are checked by the normal path).
    const since: [string, string][] = [['If-Modified-Since', 'Thu, 01 Jan 1970 00:00:00 GMT']];
    // The first hit of these headers may render (a value seen for the first time is rendered unstored), the
    // second stores; from then on a hit only looks up what is remembered.
    for (let i = 0; i < 3; i++) assert.equal((await get(s, since)).status, 200);
    const remembered = lookups(s);
    const replayedBefore = s.app.server.responseLayer?.served ?? Number.NaN;
    const responses: RawResponse[] = [];
    const keys = await cacheReads(s, async () => {
      for (let i = 0; i < 3; i++) responses.push(await get(s, since));
    });
    for (const r of responses) {
      assert.equal(r.status, 200);
      assert.equal(r.headers['x-cache'], 'hit');
    }
    assert.equal(s.app.server.responseLayer?.served, replayedBefore, 'answered by the normal path');
    // One entry per read: the conversation held every ancestor, so the walk read nothing on its own.
    assert.deepEqual(keys, Array(3).fill(`conv:${IDS.threadLast}:top:r`));
    const now = lookups(s);
    // Nothing may miss (a conditional request does not look for a stored answer), or an assembly or a render was
    // done again.
    assert.equal(now.miss, remembered.miss, 'no assembly or render was done again');
    // Two remembered results per read: the assembled read and its rendering.
    assert.ok(now.hit >= remembered.hit + 2 * responses.length, 'each read used the remembered read and rendering');
  });
});
