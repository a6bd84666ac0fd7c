// The response layer's hit path (src/http/responses/) through the real server: an answer it gives is byte for
// byte what Fastify wrote for the same request (but for Date, X-Request-Id and the one more request counted in the
// RateLimit fields), for every representation, HEAD and every route of the post family; everything it must
// not answer (conditional, keyed, refreshed, expired, refused) still goes through the rest of the lifecycle; and
// api-ip stays exact at the boundary with the hit path charging it. The codings are in codings.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, problemOf, type Stack } from '../../helpers/stack.ts';
import { BACKENDS, startOn, type BackendStack } from '../../helpers/backends.ts';
import { rawRequest, type RawResponse } from '../../helpers/raw-http.ts';
import { keepAliveAgent, keepAliveRequest } from '../../helpers/keep-alive.ts';
import { HANDLES, IDS } from '../../../sim/corpus.ts';
import { clientKey } from '../../../src/stores/limits/client-key.ts';

const TRUSTED = { THREADMARK_TRUST_PROXY: 'true' };
const redisBackend = BACKENDS.find((b) => b.name === 'redis')!;
const portOf = (s: Stack) => Number(new URL(s.url).port);
const served = (s: Stack) => s.app.server.responseLayer?.served ?? Number.NaN;

let seq = 0;
const nextIp = () => `198.51.100.${++seq}`;

function get(
  s: Stack,
  target: string,
  ip: string,
  headers: [string, string][] = [],
  method = 'GET',
): Promise<RawResponse> {
  return rawRequest(portOf(s), { method, target, headers: [['X-Forwarded-For', ip], ...headers] });
}

/** Reads `target` until its answer is stored, then once from the store; the replay count before that read. */
async function storedAndReplayed(s: Stack, target: string, ip: string): Promise<number> {
  await get(s, target, ip);
  await get(s, target, ip);
  const before = served(s);
  await get(s, target, ip);
  assert.equal(served(s), before + 1, 'the third read is replayed');
  return before;
}

/** Fastify's answer and the replayed one must differ only where a second request must differ. */
function assertSameExchange(normal: RawResponse, replayed: RawResponse, what: string) {
  assert.equal(replayed.status, normal.status, what);
  assert.deepEqual(
    replayed.rawHeaders.map(([k]) => k),
    normal.rawHeaders.map(([k]) => k),
    `${what}: header names and order`,
  );
  for (const [i, [name, value]] of normal.rawHeaders.entries()) {
    const again = replayed.rawHeaders[i]![1];
    switch (name.toLowerCase()) {
      case 'date':
        break;
      case 'x-request-id':
        assert.match(again, /^[0-9a-f-]{36}$/, what);
        assert.notEqual(again, value, `${what}: a request id of its own`);
        break;
      case 'ratelimit-remaining':
        assert.equal(Number(again), Number(value) - 1, `${what}: ${name}`);
        break;
      case 'ratelimit': {
        const r = (v: string) => Number(/;r=(\d+)/.exec(v)?.[1]);
        assert.equal(r(again), r(value) - 1, `${what}: ${name}`);
        assert.equal(again.replace(/;r=\d+;t=\d+/, ''), value.replace(/;r=\d+;t=\d+/, ''), what);
        break;
      }
      case 'ratelimit-reset':
        assert.ok(Math.abs(Number(again) - Number(value)) <= 1, `${what}: ${name}`);
        break;
      default:
        assert.equal(again, value, `${what}: ${name}`);
    }
  }
  assert.ok(replayed.body.equals(normal.body), `${what}: body`);
}

describe('response layer fast path', () => {
  let s: Stack;
  before(async () => {
    s = await startStack(TRUSTED);
  });
  after(() => s.close());

  const statusUrl = encodeURIComponent(`https://x.com/${HANDLES.alice}/status/${IDS.threadPhoto}`);
  const variants: Array<{ what: string; target: string; headers?: [string, string][]; method?: string }> = [
    { what: 'permalink, single post', target: `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off` },
    {
      what: 'permalink, thread (over the compression threshold, identity)',
      target: `/${HANDLES.alice}/status/${IDS.threadRoot}?replies=off&full=true`,
    },
    { what: 'JSON by format', target: `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off&format=json` },
    {
      what: 'HTML by Accept',
      target: `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`,
      headers: [['Accept', 'text/html']],
    },
    {
      what: 'JSON by Accept',
      target: `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`,
      headers: [['Accept', 'application/json']],
    },
    {
      what: 'gzip accepted, body under the threshold',
      target: `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off&under=1`,
      headers: [['Accept-Encoding', 'gzip, br']],
    },
    { what: 'HEAD', target: `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`, method: 'HEAD' },
    { what: '/api/v1/posts', target: `/api/v1/posts?url=${statusUrl}&thread=off` },
    { what: 'deprecated /api/convert', target: `/api/convert?url=${statusUrl}&thread=off` },
    { what: 'obsidian', target: `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off&format=obsidian` },
  ];
  for (const v of variants) {
    test(`${v.what}: the replayed hit is the exchange Fastify wrote`, async () => {
      const ip = nextIp();
      const method = v.method ?? 'GET';
      // The first hit Fastify answers is recorded (the entry may already be cached by an earlier variant).
      let normal: RawResponse | undefined;
      for (let i = 0; i < 2 && !normal; i++) {
        const was = served(s);
        const r = await get(s, v.target, ip, v.headers, method);
        if (served(s) === was && r.headers['x-cache'] === 'hit') normal = r;
      }
      assert.ok(normal, `${v.what}: no hit answered by Fastify`);
      const before = served(s);
      const replayed = await get(s, v.target, ip, v.headers, method);
      assert.equal(served(s), before + 1, 'the second hit is replayed');
      assertSameExchange(normal, replayed, v.what);
    });
  }

  test("the same URL from another client is replayed with that client's own allowance", async () => {
    const target = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`;
    await get(s, target, nextIp());
    await get(s, target, nextIp());
    const before = served(s);
    const fresh = await get(s, target, nextIp());
    assert.equal(served(s), before + 1);
    assert.equal(fresh.headers['ratelimit-remaining'], '599');
    assert.equal(fresh.headers.ratelimit, '"api-ip";r=599;t=60');
  });

  test('conditional and keyed requests go through the rest of the lifecycle', async () => {
    const single = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`;
    const ip = nextIp();
    const first = await get(s, single, ip);
    await get(s, single, ip);
    const before = served(s);
    const notModified = await get(s, single, ip, [['If-None-Match', first.headers.etag!]]);
    assert.equal(notModified.status, 304);
    const since = await get(s, single, ip, [['If-Modified-Since', new Date().toUTCString()]]);
    assert.equal(since.status, 200);
    const keyed = await get(s, single, ip, [['Authorization', 'Bearer not-a-key']]);
    assert.equal(keyed.headers['x-cache'], 'hit');
    assert.equal(served(s), before, 'none of these was replayed');
  });

  test('a refreshed entry (nocache) is never answered from the old record', async () => {
    const target = `/${HANDLES.alice}/status/${IDS.thread[4]}?thread=off`;
    const ip = nextIp();
    const before = await storedAndReplayed(s, target, ip);
    const refreshed = await get(s, `${target}&nocache=true`, ip);
    assert.equal(refreshed.headers['x-cache'], 'bypass');
    const after = await get(s, target, ip);
    assert.equal(after.headers['x-cache'], 'hit');
    assert.equal(served(s), before + 1, 'the entry changed: Fastify answered and recorded it again');
    await get(s, target, ip);
    assert.equal(served(s), before + 2);
  });

  test('after any change to the cache the entries an answer was built from are looked up again', async () => {
    const target = `/${HANDLES.alice}/status/${IDS.threadLast}`;
    const ip = nextIp();
    const before = await storedAndReplayed(s, target, ip);
    // Another entry replaced: the cache changed, but not under this answer, which is still replayed.
    const other = await get(s, `/${HANDLES.alice}/status/${IDS.thread[5]}?thread=off&nocache=true`, ip);
    assert.equal(other.headers['x-cache'], 'bypass');
    await get(s, target, ip);
    assert.equal(served(s), before + 2, 'an unrelated refresh leaves the replay');
    // Its own entry replaced: the next read goes through Fastify, and the answer after it is replayed again.
    assert.equal((await get(s, `${target}?nocache=true`, ip)).headers['x-cache'], 'bypass');
    assert.equal((await get(s, target, ip)).status, 200);
    assert.equal(served(s), before + 2, 'its own refresh ended the replay');
    await get(s, target, ip);
    assert.equal(served(s), before + 3);
  });

  test('api-ip is exact at the boundary: the replay charges up to the quota and Fastify refuses the next', async () => {
    const target = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`;
    const ip = nextIp();
    await get(s, target, ip);
    await get(s, target, ip);
    // 2 used; take the allowance down to 2 left.
    await s.app.services.stores.limiter.consume('api-ip', clientKey(ip), 596);
    const before = served(s);
    const last2 = await get(s, target, ip);
    const last1 = await get(s, target, ip);
    assert.deepEqual(
      [last2.status, last2.headers['ratelimit-remaining'], last1.status, last1.headers['ratelimit-remaining']],
      [200, '1', 200, '0'],
    );
    assert.equal(served(s), before + 2);
    const refused = await s.get(target, { headers: { 'x-forwarded-for': ip } });
    assert.equal(refused.status, 429);
    assert.equal((await problemOf(refused)).code, 'rate_limited');
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    assert.equal(served(s), before + 2, 'the refusal came from the guards');
  });

  test('replayed hits are counted in the metrics like any other', async () => {
    const target = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`;
    const count = async () => {
      const text = await (await s.get('/metrics')).text();
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('threadmark_http_requests_total{') &&
            l.includes('route="/:handle/status/:id"') &&
            l.includes('method="GET"') &&
            l.includes('status="200"'),
        );
      return Number(line?.split(' ').at(-1) ?? 0);
    };
    const ip = nextIp();
    await get(s, target, ip);
    await get(s, target, ip);
    const before = await count();
    const replays = served(s);
    for (let i = 0; i < 5; i++) await get(s, target, ip);
    assert.equal(served(s), replays + 5);
    assert.equal(await count(), before + 5);
  });
});

test('an expired cache entry ends the replay: the next read is a miss through Fastify', async () => {
  const s = await startStack({ ...TRUSTED, THREADMARK_CACHE_TTL_S: '1' });
  try {
    const target = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`;
    const ip = nextIp();
    await get(s, target, ip);
    await get(s, target, ip);
    await get(s, target, ip);
    const before = served(s);
    assert.ok(before >= 1);
    await new Promise((r) => setTimeout(r, 1100));
    const after = await get(s, target, ip);
    assert.equal(after.headers['x-cache'], 'miss');
    assert.equal(served(s), before);
  } finally {
    await s.close();
  }
});

test('without trusted proxies the replay charges the socket address, as the guards do', async () => {
  const s = await startStack();
  try {
    const target = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`;
    const a = await get(s, target, '203.0.113.1');
    const b = await get(s, target, '203.0.113.2');
    const c = await get(s, target, '203.0.113.3');
    assert.ok(served(s) >= 1);
    assert.deepEqual(
      [a, b, c].map((r) => Number(r.headers['ratelimit-remaining'])),
      [599, 598, 597],
    );
  } finally {
    await s.close();
  }
});

describe(
  'response layer fast path on the Redis backend (one round trip, shared with every instance)',
  { skip: redisBackend.skip },
  () => {
    let a: BackendStack;
    let b: BackendStack;
    before(async () => {
      a = await startOn(redisBackend, TRUSTED);
      b = await startOn(redisBackend, TRUSTED, { sim: a.sim, redisPrefix: a.prefix });
    });
    after(async () => {
      await b?.close();
      await a?.close();
    });
    const target = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`;

    test('a replayed hit is the exchange Fastify wrote, and the allowance is shared with the other instance', async () => {
      const ip = nextIp();
      let normal: RawResponse | undefined;
      for (let i = 0; i < 3 && !normal; i++) {
        const was = served(a);
        const r = await get(a, target, ip);
        if (served(a) === was && r.headers['x-cache'] === 'hit') normal = r;
      }
      assert.ok(normal, 'no hit answered by Fastify');
      const before = served(a);
      const replayed = await get(a, target, ip);
      assert.equal(served(a), before + 1, 'replayed');
      assertSameExchange(normal, replayed, 'redis replay');
      // The same client on the other instance: one shared counter.
      const onB = await get(b, target, ip);
      assert.equal(Number(onB.headers['ratelimit-remaining']), Number(replayed.headers['ratelimit-remaining']) - 1);
      const againOnA = await get(a, target, ip);
      assert.equal(Number(againOnA.headers['ratelimit-remaining']), Number(onB.headers['ratelimit-remaining']) - 1);
    });

    test('an entry refreshed by the other instance is never answered from the old record', async () => {
      const ip = nextIp();
      for (let i = 0; i < 3; i++) await get(a, target, ip);
      const before = served(a);
      await get(a, target, ip);
      assert.equal(served(a), before + 1);
      const refreshed = await get(b, `${target}&nocache=true`, ip);
      assert.equal(refreshed.headers['x-cache'], 'bypass');
      const after = await get(a, target, ip);
      assert.equal(after.headers['x-cache'], 'hit');
      assert.equal(served(a), before + 1, 'the stamp changed: Fastify answered from the new entry');
      await get(a, target, ip);
      assert.equal(served(a), before + 2, 'and the new record is replayed');
    });

    test('api-ip is exact at the boundary across instances', async () => {
      const ip = nextIp();
      for (let i = 0; i < 3; i++) await get(a, target, ip);
      const used = 600 - Number((await get(b, target, ip)).headers['ratelimit-remaining']);
      await b.app.services.stores.limiter.consume('api-ip', clientKey(ip), 598 - used);
      const before = served(a);
      const last2 = await get(a, target, ip);
      const last1 = await get(a, target, ip);
      assert.deepEqual(
        [last2.status, last2.headers['ratelimit-remaining'], last1.status, last1.headers['ratelimit-remaining']],
        [200, '1', 200, '0'],
      );
      assert.equal(served(a), before + 2);
      const refused = await get(a, target, ip);
      assert.equal(refused.status, 429);
      assert.equal(served(a), before + 2, 'refused by the guards, not charged twice');
      assert.equal((await get(b, target, ip)).status, 429);
    });
  },
);

describe('response layer fast path over kept-alive connections', () => {
  let s: Stack;
  before(async () => {
    s = await startStack(TRUSTED);
  });
  after(() => s.close());

  for (const v of [
    { what: 'single post', target: `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off&ka=1` },
    { what: 'thread', target: `/${HANDLES.alice}/status/${IDS.threadRoot}?replies=off&full=true&ka=1` },
    { what: 'HEAD', target: `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off&ka=2`, method: 'HEAD' },
  ]) {
    test(`${v.what}: the replayed exchange is the one Fastify wrote, keep-alive fields included`, async () => {
      const agent = keepAliveAgent();
      try {
        const ip = nextIp();
        const headers: [string, string][] = [['X-Forwarded-For', ip]];
        const method = v.method ?? 'GET';
        let normal: RawResponse | undefined;
        for (let i = 0; i < 2 && !normal; i++) {
          const was = served(s);
          const r = await keepAliveRequest(agent, portOf(s), v.target, headers, method);
          if (served(s) === was && r.headers['x-cache'] === 'hit') normal = r;
        }
        assert.ok(normal, 'no hit answered by Fastify');
        assert.equal(normal.headers.connection, 'keep-alive');
        const before = served(s);
        const replayed = await keepAliveRequest(agent, portOf(s), v.target, headers, method);
        assert.equal(served(s), before + 1, 'replayed');
        assert.ok(replayed.socketReused, 'on the same connection');
        assertSameExchange(normal, replayed, v.what);
        // The connection stays usable after a replay.
        const next = await keepAliveRequest(agent, portOf(s), v.target, headers, method);
        assert.equal(next.status, 200);
        assert.ok(next.socketReused);
        assert.equal(Number(next.headers['ratelimit-remaining']), Number(replayed.headers['ratelimit-remaining']) - 1);
      } finally {
        agent.destroy();
      }
    });
  }

  test('a closing request replayed from a keep-alive record says Connection: close and closes', async () => {
    const target = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off&ka=3`;
    const ip = nextIp();
    const agent = keepAliveAgent();
    try {
      for (let i = 0; i < 3; i++) await keepAliveRequest(agent, portOf(s), target, [['X-Forwarded-For', ip]]);
    } finally {
      agent.destroy();
    }
    const before = served(s);
    const closing = await get(s, target, ip);
    assert.equal(served(s), before + 1);
    assert.equal(closing.status, 200);
    assert.equal(closing.headers.connection, 'close');
    assert.equal(closing.headers['keep-alive'], undefined);
  });

  test('a record taken from a closing exchange is replayed with the keep-alive fields on a kept-alive connection', async () => {
    const target = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off&ka=4`;
    const ip = nextIp();
    await get(s, target, ip);
    await get(s, target, ip);
    const agent = keepAliveAgent();
    try {
      const headers: [string, string][] = [['X-Forwarded-For', ip]];
      const before = served(s);
      const first = await keepAliveRequest(agent, portOf(s), target, headers);
      const second = await keepAliveRequest(agent, portOf(s), target, headers);
      assert.equal(served(s), before + 2, 'both replayed');
      assert.equal(first.headers.connection, 'keep-alive');
      assert.ok(second.socketReused);
      assertSameExchange(first, second, 'keep-alive head');
    } finally {
      agent.destroy();
    }
  });
});
