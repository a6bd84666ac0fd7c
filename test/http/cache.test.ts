// The application cache through the real server, on both backends: X-Cache hit/miss/stale/bypass,
// stale-if-error under injected upstream failure, coalescing counted at the simulator, keyed responses
// that never touch the shared cache, and the public Cache-Control of anonymous responses.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { BACKENDS, startOn, type BackendStack } from '../helpers/backends.ts';
import { sleep } from '../unit/stores/redis-env.ts';

const TTL_S = 1;

async function drain(p: Promise<Response>): Promise<Response> {
  const res = await p;
  await res.arrayBuffer();
  return res;
}
const ADMIN = 'admin-token-for-cache-tests';

for (const backend of BACKENDS) {
  describe(`application cache (${backend.name})`, { skip: backend.skip }, () => {
    let s: BackendStack;
    before(async () => {
      s = await startOn(backend, { THREADMARK_CACHE_TTL_S: String(TTL_S), THREADMARK_ADMIN_TOKEN: ADMIN });
    });
    after(() => s.close());
    beforeEach(() => {
      s.sim.clearFaults();
    });

    const post = (id: string, extra = '') =>
      `/api/v1/posts?url=${encodeURIComponent(`https://x.com/${HANDLES.alice}/status/${id}`)}&thread=off${extra}`;
    const fxCalls = (id: string) => s.sim.calls({ target: 'fxtwitter', path: id });

    const get = (path: string, init?: RequestInit) => drain(s.get(path, init));

    async function newKey(): Promise<string> {
      const res = await fetch(`${s.url}/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'cache-test' }),
      });
      assert.equal(res.status, 201);
      return ((await res.json()) as { key: string }).key;
    }

    test('miss, then hit for every representation of the same post, then bypass with nocache (one entry, domain data)', async () => {
      const id = IDS.threadPoll;
      const first = await get(post(id));
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('x-cache'), 'miss');
      const calls = fxCalls(id);
      assert.equal(calls, 1);
      for (const extra of ['', '&format=json', '&format=obsidian', '&full=true']) {
        const res = await get(post(id, extra));
        assert.equal(res.headers.get('x-cache'), 'hit', extra);
      }
      const html = await get(post(id), { headers: { accept: 'text/html' } });
      assert.equal(html.headers.get('x-cache'), 'hit');
      assert.equal(fxCalls(id), calls, 'hits never reach the upstream');
      const bypass = await get(post(id, '&nocache=true'));
      assert.equal(bypass.status, 200);
      assert.equal(bypass.headers.get('x-cache'), 'bypass');
      assert.equal(fxCalls(id), calls + 1, 'nocache reads the upstream');
      if (s.redis) {
        const stored = await s.redis.get(`${s.prefix}c:post:${id}`);
        assert.ok(stored, 'the post is stored in Redis under the prefix');
        const parsed = JSON.parse(stored) as { v: { value: { id: string } } };
        assert.equal(parsed.v.value.id, id, 'domain data, not rendered bytes');
        assert.doesNotMatch(stored, /^#|<html/i);
      }
    });

    test('public responses carry max-age and s-maxage equal to the cache lifetime, and its stale lifetimes', async () => {
      for (const path of [
        post(IDS.threadRoot),
        `/${HANDLES.bob}`,
        `/api/v1/profiles/${HANDLES.bob}/followers`,
        '/search?q=caching',
      ]) {
        const res = await get(path);
        assert.equal(res.status, 200, path);
        assert.equal(
          res.headers.get('cache-control'),
          `public, max-age=${TTL_S}, s-maxage=${TTL_S}, stale-while-revalidate=${TTL_S}, stale-if-error=3600`,
          path,
        );
      }
    });

    test('an entry past its lifetime is reloaded (miss) when the upstream answers', async () => {
      const path = `/api/v1/profiles/${HANDLES.dave}/following`;
      assert.equal((await get(path)).headers.get('x-cache'), 'miss');
      assert.equal((await get(path)).headers.get('x-cache'), 'hit');
      await sleep(TTL_S * 1000 + 100);
      assert.equal((await get(path)).headers.get('x-cache'), 'miss');
      await sleep(TTL_S * 1000 + 100);
      // nocache skips the read but refreshes the entry: the next plain read is a hit again.
      assert.equal((await get(`${path}?nocache=true`)).headers.get('x-cache'), 'bypass');
      assert.equal((await get(path)).headers.get('x-cache'), 'hit');
    });

    test('stale-if-error: every provider failing serves the stale copy, flagged in X-Cache and X-Warnings', async () => {
      // A stack of its own: failures here count towards the providers' circuit breakers.
      const own = await startOn(backend, { THREADMARK_CACHE_TTL_S: String(TTL_S) });
      try {
        const ownPost = (id: string, extra = '') => `/${HANDLES.alice}/status/${id}?thread=off${extra}`;
        const profile = `/api/v1/profiles/${HANDLES.carol}?format=json`;
        const id = IDS.threadLast;
        const fresh = await own.get(profile);
        assert.equal(fresh.status, 200);
        const freshBody = (await fresh.json()) as { profile: { handle: string } };
        assert.equal((await drain(own.get(ownPost(id)))).status, 200);
        await sleep(TTL_S * 1000 + 100);

        // 501 is not retried, which keeps the test fast; every provider fails.
        own.sim.addFault({ target: '*', kind: 'status', status: 501 });
        const stale = await own.get(profile);
        assert.equal(stale.status, 200);
        assert.equal(stale.headers.get('x-cache'), 'stale');
        assert.match(stale.headers.get('x-warnings') ?? '', /stale/i);
        // A stale copy must not be kept by shared caches downstream for a whole fresh lifetime.
        assert.equal(stale.headers.get('cache-control'), 'no-cache');
        assert.equal(((await stale.json()) as typeof freshBody).profile.handle, freshBody.profile.handle);
        const stalePost = await drain(own.get(ownPost(id)));
        assert.equal(stalePost.status, 200);
        assert.equal(stalePost.headers.get('x-cache'), 'stale');
        assert.match(stalePost.headers.get('x-warnings') ?? '', /stale/i);
        assert.equal(stalePost.headers.get('cache-control'), 'no-cache');
        // nocache asks the upstream too, and falls back the same way.
        const staleBypass = await drain(own.get(ownPost(id, '&nocache=true')));
        assert.equal(staleBypass.headers.get('x-cache'), 'stale');

        own.sim.clearFaults();
        const back = await drain(own.get(profile));
        assert.equal(back.status, 200);
        assert.equal(back.headers.get('x-cache'), 'miss');
        assert.equal(back.headers.get('x-warnings'), null);

        // Nothing cached: the failure reaches the caller.
        own.sim.addFault({ target: '*', kind: 'status', status: 501 });
        const none = await drain(own.get(`/api/v1/profiles/${HANDLES.hostile}?format=json`));
        assert.ok(none.status >= 500, `status ${none.status}`);
      } finally {
        await own.close();
      }
    });

    test('concurrent misses for one post make a single upstream call', async () => {
      const id = IDS.threadVideo;
      s.sim.addFault({ target: 'fxtwitter', match: id, kind: 'latency', delayMs: 300, times: 1 });
      const all = await Promise.all(Array.from({ length: 8 }, () => get(post(id))));
      for (const res of all) assert.equal(res.status, 200);
      assert.equal(fxCalls(id), 1);
      assert.ok(all.every((r) => r.headers.get('x-cache') === 'miss'));
    });

    test('keyed responses are private, no-store, and never stored in or served from the shared cache', async () => {
      const key = await newKey();
      const auth = { headers: { authorization: `Bearer ${key}` } };
      const path = `/api/v1/profiles/${HANDLES.big}/following`;
      const fx = () => s.sim.calls({ target: 'fxtwitter', path: `/${HANDLES.big}/following` });

      const before = fx();
      const keyed = await get(path, auth);
      assert.equal(keyed.status, 200);
      assert.equal(keyed.headers.get('x-api-key-status'), 'valid');
      assert.equal(keyed.headers.get('cache-control'), 'private, no-store');
      assert.equal(keyed.headers.get('x-cache'), 'bypass');
      assert.equal(fx(), before + 1);
      // The keyed read left nothing behind: the anonymous read is a miss.
      const anon = await get(path);
      assert.equal(anon.headers.get('x-cache'), 'miss');
      assert.equal(fx(), before + 2);
      assert.equal((await get(path)).headers.get('x-cache'), 'hit');
      // A cached entry exists now, yet the keyed caller still reads live.
      const again = await get(path, auth);
      assert.equal(again.headers.get('x-cache'), 'bypass');
      assert.equal(again.headers.get('cache-control'), 'private, no-store');
      assert.equal(fx(), before + 3);
    });
  });
}

describe('application cache across instances (redis)', { skip: BACKENDS[1]!.skip }, () => {
  let a: BackendStack;
  let b: BackendStack;
  before(async () => {
    a = await startOn(BACKENDS[1]!);
    b = await startOn(BACKENDS[1]!, {}, { sim: a.sim, redisPrefix: a.prefix });
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  test('concurrent misses on two instances make one upstream call; the other instance then hits', async () => {
    const id = IDS.threadTwoPhotos;
    const path = `/${HANDLES.alice}/status/${id}?thread=off`;
    a.sim.addFault({ target: 'fxtwitter', match: id, kind: 'latency', delayMs: 300, times: 1 });
    const all = await Promise.all(
      [a, b, a, b, a, b].map(async (s) => {
        const res = await s.get(path);
        await res.arrayBuffer();
        return res;
      }),
    );
    for (const res of all) assert.equal(res.status, 200);
    assert.equal(a.sim.calls({ target: 'fxtwitter', path: id }), 1);
    const later = await b.get(path);
    assert.equal(later.headers.get('x-cache'), 'hit');
  });
});
