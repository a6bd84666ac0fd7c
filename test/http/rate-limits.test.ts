// Every rate-limit policy of the contract through the real server, on both backends: the exact count that
// reaches 429, the IETF RateLimit / RateLimit-Policy structured fields and the compatibility triple,
// Retry-After and the rate_limited problem; cached reads not charged; client identity (last
// X-Forwarded-For hop behind a trusted proxy, the one it appended; IPv6 grouped by /64).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { BACKENDS, startOn, type BackendStack } from '../helpers/backends.ts';
import { problemOf, startStack, type Stack } from '../helpers/stack.ts';

const ADMIN = 'admin-token-for-limit-tests';
const sessionsDir = mkdtempSync(join(tmpdir(), 'tm-limits-'));
const SESSIONS = join(sessionsDir, 'sessions.jsonl');
writeFileSync(
  SESSIONS,
  [1, 2, 3]
    .map((i) => JSON.stringify({ username: `limits${i}`, auth_token: `limits_tok_${i}`, ct0: `limits_ct0_${i}` }))
    .join('\n') + '\n',
);
after(() => rmSync(sessionsDir, { recursive: true, force: true }));

let ipSeq = 0;
/** A client address of its own per test, so tests on one server never share a counter. */
function client(): { ip: string; headers: Record<string, string> } {
  ipSeq++;
  const ip = `198.51.${100 + Math.floor(ipSeq / 250)}.${ipSeq % 250}`;
  return { ip, headers: { 'x-forwarded-for': ip } };
}

interface Limits {
  status: number;
  policy: string | null;
  limit: string | null;
  triple: [string | null, string | null, string | null];
  retryAfter: string | null;
}

function limitsOf(res: Response): Limits {
  const h = res.headers;
  return {
    status: res.status,
    policy: h.get('ratelimit-policy'),
    limit: h.get('ratelimit'),
    triple: [h.get('ratelimit-limit'), h.get('ratelimit-remaining'), h.get('ratelimit-reset')],
    retryAfter: h.get('retry-after'),
  };
}

/** `"name";r=R;t=T` member of the RateLimit field. */
function member(field: string | null, name: string): { r: number; t: number } | undefined {
  const m = new RegExp(`(?:^|, )"${name}";r=(\\d+);t=(\\d+)(?:,|$)`).exec(field ?? '');
  return m ? { r: Number(m[1]), t: Number(m[2]) } : undefined;
}

/** The 429 of `policy`: problem, Retry-After equal to the reset, triple pointing at the denying policy. */
async function assertDenied(res: Response, policy: string, quota: number, windowS: number) {
  const l = limitsOf(res);
  const problem = await problemOf(res);
  assert.equal(l.status, 429, JSON.stringify(problem));
  assert.equal(problem.code, 'rate_limited');
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.match(l.policy ?? '', new RegExp(`(^|, )"${policy}";q=${quota};w=${windowS}(,|$)`));
  const m = member(l.limit, policy);
  assert.ok(m, `${policy} in RateLimit: ${l.limit}`);
  assert.equal(m.r, 0);
  assert.ok(m.t >= 1 && m.t <= windowS, `t=${m.t}`);
  assert.equal(l.retryAfter, String(m.t));
  assert.deepEqual(l.triple, [String(quota), '0', String(m.t)]);
  assert.equal(res.headers.get('www-authenticate'), null);
}

async function drained(p: Promise<Response>): Promise<Response> {
  const res = await p;
  await res.arrayBuffer();
  return res;
}

async function newKey(s: Stack, accountQuota?: number): Promise<{ id: string; key: string }> {
  const res = await fetch(`${s.url}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'limits', ...(accountQuota ? { accountQuota } : {}) }),
  });
  assert.equal(res.status, 201);
  return (await res.json()) as { id: string; key: string };
}

for (const backend of BACKENDS) {
  describe(`rate limits (${backend.name})`, { skip: backend.skip }, () => {
    let s: BackendStack;
    before(async () => {
      s = await startOn(backend, {
        THREADMARK_TRUST_PROXY: 'true',
        THREADMARK_ADMIN_TOKEN: ADMIN,
        THREADMARK_PROVIDERS: 'fxtwitter,syndication,x',
        THREADMARK_X_SESSIONS: SESSIONS,
      });
    });
    after(() => s.close());

    test('api-ip: 600 requests per minute, the 601st is 429 with exact headers', async () => {
      const c = client();
      // Cached hits: the cheapest requests that still go through every guard.
      const path = `/${HANDLES.bob}?limit=1`;
      const first = await drained(s.get(path, { headers: c.headers }));
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('ratelimit-policy'), '"api-ip";q=600;w=60');
      assert.match(first.headers.get('ratelimit') ?? '', /^"api-ip";r=599;t=\d+$/);
      assert.deepEqual(limitsOf(first).triple.slice(0, 2), ['600', '599']);
      assert.equal(first.headers.get('retry-after'), null);
      // 598 more, in parallel batches to stay fast.
      for (let sent = 1; sent < 599;) {
        const n = Math.min(20, 599 - sent);
        const batch = await Promise.all(Array.from({ length: n }, () => drained(s.get(path, { headers: c.headers }))));
        for (const r of batch) assert.equal(r.status, 200);
        sent += n;
      }
      const last = await drained(s.get(path, { headers: c.headers }));
      assert.equal(last.status, 200, 'the 600th request is still served');
      assert.equal(last.headers.get('x-cache'), 'hit');
      assert.equal(member(last.headers.get('ratelimit'), 'api-ip')?.r, 0);
      await assertDenied(await s.get(path, { headers: c.headers }), 'api-ip', 600, 60);
      // Every public route is behind api-ip once it is used up, cached or not, valid or not.
      for (const p of [
        '/api/v1/posts',
        `/api/v1/search?q=caching`,
        `/${HANDLES.alice}/status/${IDS.threadRoot}`,
        '/api/browse?resource=search&q=x',
        '/api/convert',
      ]) {
        await assertDenied(await s.get(p, { headers: c.headers }), 'api-ip', 600, 60);
      }
      // Another client is unaffected.
      const other = await drained(s.get(path, { headers: client().headers }));
      assert.equal(other.status, 200);
    });

    test('requests refused for an invalid key still count against api-ip (no free key guessing)', async () => {
      const c = client();
      const seen: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await s.get(`/api/v1/profiles/${HANDLES.alice}`, {
          headers: { ...c.headers, authorization: `Bearer tm_${String(i).repeat(43)}` },
        });
        assert.equal(res.status, 401);
        assert.equal((await problemOf(res)).code, 'invalid_key');
        seen.push(member(res.headers.get('ratelimit'), 'api-ip')!.r);
      }
      assert.deepEqual(seen, [599, 598, 597]);
    });

    test('search-ip: 5 live lookups per minute for anonymous callers; cached reads are free; nocache is charged', async () => {
      const c = client();
      const search = async (qs: string) => drained(s.get(`/api/v1/search?${qs}`, { headers: c.headers }));
      const searchIp = (res: Response) => member(res.headers.get('ratelimit'), 'search-ip')?.r;
      const q = `caching ${c.ip}`;

      const r1 = await search(`q=${encodeURIComponent(q)}`);
      assert.equal(r1.status, 200);
      assert.equal(r1.headers.get('x-cache'), 'miss');
      assert.equal(searchIp(r1), 4);
      assert.match(r1.headers.get('ratelimit-policy') ?? '', /^"api-ip";q=600;w=60, "search-ip";q=5;w=60$/);
      assert.deepEqual(limitsOf(r1).triple.slice(0, 2), ['5', '4'], 'the triple reports the tightest policy');

      const hit = await search(`q=${encodeURIComponent(q)}`);
      assert.equal(hit.headers.get('x-cache'), 'hit');
      assert.equal(searchIp(hit), undefined, 'a cached read consumes no live-lookup quota');

      assert.equal(searchIp(await search(`q=${encodeURIComponent(q)}&nocache=true`)), 3);
      // The permalink shares the allowance.
      const perma = await drained(
        s.get(`/search?q=${encodeURIComponent(`threadmark ${c.ip}`)}`, { headers: c.headers }),
      );
      assert.equal(searchIp(perma), 2);
      assert.equal(searchIp(await search(`q=${encodeURIComponent(q)}&feed=top`)), 1);
      const fifth = await search(`q=${encodeURIComponent(`zzznomatch ${c.ip}`)}`);
      assert.equal(fifth.status, 200);
      assert.equal(searchIp(fifth), 0);

      await assertDenied(
        await s.get(`/api/v1/search?q=${encodeURIComponent(`another ${c.ip}`)}`, { headers: c.headers }),
        'search-ip',
        5,
        60,
      );
      await assertDenied(
        await s.get(`/api/v1/search?q=${encodeURIComponent(q)}&nocache=true`, { headers: c.headers }),
        'search-ip',
        5,
        60,
      );
      // Still served from the cache after the allowance is gone.
      const cached = await search(`q=${encodeURIComponent(q)}`);
      assert.equal(cached.status, 200);
      assert.equal(cached.headers.get('x-cache'), 'hit');
      // Only live lookups count: other routes keep answering from this client.
      assert.equal((await drained(s.get(`/${HANDLES.alice}`, { headers: c.headers }))).status, 200);
    });

    test('posts: nocache is charged against the live-lookup quota (search-ip), a bearer key or not; plain reads never are', async () => {
      const c = client();
      const path = `/${HANDLES.carol}/status/${IDS.carolQuoted}?thread=off`;
      const plain = await drained(s.get(path, { headers: c.headers }));
      assert.equal(plain.status, 200);
      assert.equal(plain.headers.get('ratelimit-policy'), '"api-ip";q=600;w=60');
      const { key } = await newKey(s);
      for (let i = 1; i <= 5; i++) {
        const headers = i % 2 ? c.headers : { ...c.headers, authorization: `Bearer ${key}` };
        const res = await drained(s.get(`${path}&nocache=true`, { headers }));
        assert.equal(res.headers.get('x-cache'), 'bypass');
        assert.equal(res.headers.get('ratelimit-policy'), '"api-ip";q=600;w=60, "search-ip";q=5;w=60');
        assert.equal(member(res.headers.get('ratelimit'), 'search-ip')?.r, 5 - i);
      }
      await assertDenied(await s.get(`${path}&nocache=true`, { headers: c.headers }), 'search-ip', 5, 60);
      const cached = await drained(s.get(path, { headers: c.headers }));
      assert.equal(cached.status, 200);
      assert.equal(cached.headers.get('x-cache'), 'hit');
    });

    test('a request is charged per live upstream read it makes', async () => {
      const c = client();
      // nocache on a profile reads the profile and its posts: two live reads, two points.
      const res = await drained(s.get(`/${HANDLES.dave}?nocache=true`, { headers: c.headers }));
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('ratelimit-policy'), '"api-ip";q=600;w=60, "search-ip";q=5;w=60');
      assert.equal(member(res.headers.get('ratelimit'), 'search-ip')?.r, 3);
      // page=3 on a cache miss walks the upstream pages it needs: one point each.
      const before = s.sim.calls();
      const paged = await drained(
        s.get(`/api/v1/search?q=${encodeURIComponent(`caching p${c.ip}`)}&page=3&limit=2`, { headers: c.headers }),
      );
      assert.equal(paged.status, 200);
      const walked = s.sim.calls() - before;
      assert.ok(walked >= 1);
      assert.equal(member(paged.headers.get('ratelimit'), 'search-ip')?.r, 3 - walked);
      // Cached now: the same walk again costs nothing and is still served.
      const again = await drained(
        s.get(`/api/v1/search?q=${encodeURIComponent(`caching p${c.ip}`)}&page=3&limit=2`, { headers: c.headers }),
      );
      assert.equal(again.status, 200);
    });

    test('search-key: 30 live lookups per minute per key, whatever the client address', async () => {
      const { key } = await newKey(s);
      const auth = (c = client()) => ({ headers: { ...c.headers, authorization: `Bearer ${key}` } });
      for (let i = 1; i <= 30; i++) {
        const res = await drained(s.get(`/api/v1/search?q=caching`, auth()));
        assert.equal(res.status, 200, `lookup ${i}`);
        assert.equal(res.headers.get('x-api-key-status'), 'valid');
        assert.match(
          res.headers.get('ratelimit-policy') ?? '',
          /^"api-ip";q=600;w=60, "live-key";q=120;w=60, "search-key";q=30;w=60$/,
        );
        assert.equal(member(res.headers.get('ratelimit'), 'search-key')?.r, 30 - i);
      }
      await assertDenied(await s.get('/search?q=caching', auth()), 'search-key', 30, 60);
      // The same address without the key still has its own public allowance.
      const c = client();
      await drained(s.get('/search?q=caching', auth(c)));
      const anon = await drained(s.get(`/search?q=${encodeURIComponent(`fresh ${c.ip}`)}`, { headers: c.headers }));
      assert.equal(anon.status, 200);
      assert.equal(member(anon.headers.get('ratelimit'), 'search-ip')?.r, 4);
    });

    test('account-ip: 10 account-backed lookups per 900 s for anonymous callers; a refused request charges nothing', async () => {
      const c = client();
      const partition = c.ip;
      const feeds = ['photos', 'videos', 'users'];
      let n = 0;
      const lookup = () => {
        const feed = feeds[n % 3]!;
        n++;
        return s.get(`/api/v1/search?q=${encodeURIComponent(`caching ${n} ${c.ip}`)}&feed=${feed}`, {
          headers: c.headers,
        });
      };
      for (let i = 1; i <= 10; i++) {
        // The minute-long search-ip window would end first; its expiry is what this reset stands for.
        if (i === 6) await s.app.services.stores.limiter.reset('search-ip', partition);
        const res = await drained(lookup());
        assert.equal(res.status, 200, `lookup ${i}`);
        assert.equal(res.headers.get('x-source'), 'x');
        assert.match(res.headers.get('ratelimit-policy') ?? '', /"account-ip";q=10;w=900/);
        assert.equal(member(res.headers.get('ratelimit'), 'account-ip')?.r, 10 - i);
      }
      await s.app.services.stores.limiter.reset('search-ip', partition);
      await assertDenied(await lookup(), 'account-ip', 10, 900);
      // The refused lookup did not use the search-ip allowance: 5 remain for ordinary search.
      const plain = await drained(
        s.get(`/api/v1/search?q=${encodeURIComponent(`plain ${c.ip}`)}`, { headers: c.headers }),
      );
      assert.equal(member(plain.headers.get('ratelimit'), 'search-ip')?.r, 4);
    });

    test('a search-ip refusal does not use up account-ip', async () => {
      const c = client();
      for (let i = 1; i <= 5; i++) {
        const res = await drained(
          s.get(`/api/v1/search?q=${encodeURIComponent(`caching ${i} ${c.ip}`)}&feed=photos`, { headers: c.headers }),
        );
        assert.equal(member(res.headers.get('ratelimit'), 'account-ip')?.r, 10 - i);
      }
      const refused = await s.get(`/api/v1/search?q=${encodeURIComponent(`caching 6 ${c.ip}`)}&feed=photos`, {
        headers: c.headers,
      });
      await assertDenied(refused, 'search-ip', 5, 60);
      assert.equal(member(refused.headers.get('ratelimit'), 'account-ip')?.r, 5, 'account-ip refunded');
      const state = await s.app.services.stores.limiter.peek('account-ip', c.ip);
      assert.equal(state.remaining, 5);
    });

    test('account-key: the quota set when the key was issued, advertised as q', async () => {
      const { key } = await newKey(s, 3);
      const auth = { headers: { ...client().headers, authorization: `Bearer ${key}` } };
      for (let i = 1; i <= 3; i++) {
        const res = await drained(s.get(`/api/v1/search?q=caching&feed=users`, auth));
        assert.equal(res.status, 200, `lookup ${i}`);
        assert.equal(res.headers.get('cache-control'), 'private, no-store');
        assert.match(res.headers.get('ratelimit-policy') ?? '', /"account-key";q=3;w=900/);
        assert.equal(member(res.headers.get('ratelimit'), 'account-key')?.r, 3 - i);
        assert.equal(member(res.headers.get('ratelimit'), 'search-key')?.r, 30 - i);
      }
      await assertDenied(await s.get('/api/v1/search?q=caching&feed=photos', auth), 'account-key', 3, 900);
      // Plain search with the same key is governed by search-key alone, which the refusal left untouched.
      const plain = await drained(s.get('/api/v1/search?q=caching', auth));
      assert.equal(plain.status, 200);
      assert.equal(member(plain.headers.get('ratelimit'), 'search-key')?.r, 26);
    });

    test('client identity: the hop the trusted proxy appended (the last); IPv6 grouped by /64', async () => {
      const remaining = async (xff: string) => {
        const res = await drained(s.get('/api/v1/posts', { headers: { 'x-forwarded-for': xff } }));
        return member(res.headers.get('ratelimit'), 'api-ip')?.r;
      };
      const a = client().ip;
      assert.equal(await remaining(a), 599);
      // THREADMARK_TRUST_PROXY=true trusts one hop: entries left of the last are the client's own text.
      assert.equal(await remaining(`10.0.0.1, ${a}`), 598, 'earlier entries are not an identity');
      assert.equal(await remaining(`10.0.0.2, 10.0.0.3, ${a}`), 597);
      assert.equal(await remaining(`${a}, 10.0.0.1`), 599, 'only the last hop identifies the client');
      assert.equal(await remaining('2001:db8:77:1::1'), 599);
      assert.equal(await remaining('2001:db8:77:1:ffff:eeee:dddd:cccc'), 598, 'same /64');
      assert.equal(await remaining('10.0.0.1, 2001:0db8:0077:0001::2'), 597, 'same /64, written longhand');
      assert.equal(await remaining('2001:db8:77:2::1'), 599, 'another /64');
    });
  });
}

describe('rate limits across instances (redis)', { skip: BACKENDS[1]!.skip }, () => {
  let a: BackendStack;
  let b: BackendStack;
  before(async () => {
    a = await startOn(BACKENDS[1]!, { THREADMARK_TRUST_PROXY: 'true' });
    b = await startOn(BACKENDS[1]!, { THREADMARK_TRUST_PROXY: 'true' }, { sim: a.sim, redisPrefix: a.prefix });
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  test('one counter for every instance: 3 live searches on one and 2 on the other use up search-ip', async () => {
    const c = client();
    const on = [a, a, a, b, b];
    for (let i = 0; i < on.length; i++) {
      const res = await drained(
        on[i]!.get(`/api/v1/search?q=${encodeURIComponent(`shared ${i} ${c.ip}`)}`, { headers: c.headers }),
      );
      assert.equal(member(res.headers.get('ratelimit'), 'search-ip')?.r, 4 - i);
    }
    await assertDenied(
      await a.get(`/search?q=${encodeURIComponent(`shared a ${c.ip}`)}`, { headers: c.headers }),
      'search-ip',
      5,
      60,
    );
    await assertDenied(
      await b.get(`/search?q=${encodeURIComponent(`shared b ${c.ip}`)}`, { headers: c.headers }),
      'search-ip',
      5,
      60,
    );
  });
});

describe('client identity without a trusted proxy', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(() => s.close());

  test('X-Forwarded-For is ignored: the socket address is the client', async () => {
    const seen: number[] = [];
    for (const xff of [undefined, '203.0.113.1', '203.0.113.2', '2001:db8::1']) {
      const res = await drained(s.get('/api/v1/posts', xff ? { headers: { 'x-forwarded-for': xff } } : {}));
      seen.push(member(res.headers.get('ratelimit'), 'api-ip')!.r);
    }
    assert.deepEqual(seen, [599, 598, 597, 596]);
  });

  test('a search no provider can serve (no sessions) reaches no upstream and is not charged', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await s.get(`/api/v1/search?q=caching&feed=photos&nocache=true`);
      assert.equal(res.status, 503);
      assert.equal((await problemOf(res)).code, 'search_unavailable');
      assert.equal(member(res.headers.get('ratelimit'), 'account-ip'), undefined);
      assert.equal(member(res.headers.get('ratelimit'), 'search-ip'), undefined);
    }
    const plain = await drained(s.get(`/api/v1/search?q=${encodeURIComponent('caching uncharged')}`));
    assert.equal(plain.status, 200);
    assert.equal(member(plain.headers.get('ratelimit'), 'search-ip')?.r, 4);
  });

  test('every response carries the fields, including 404s and OPTIONS-free discovery routes', async () => {
    for (const path of ['/api', '/openapi.json', '/docs', '/no/such/route', `/api/v1/oembed?url=x`]) {
      const res = await drained(s.get(path));
      assert.match(res.headers.get('ratelimit-policy') ?? '', /^"api-ip";q=600;w=60$/, path);
      assert.match(res.headers.get('ratelimit') ?? '', /^"api-ip";r=\d+;t=\d+$/, path);
      assert.equal(res.headers.get('ratelimit-limit'), '600', path);
      assert.match(res.headers.get('ratelimit-remaining') ?? '', /^\d+$/, path);
      assert.match(res.headers.get('ratelimit-reset') ?? '', /^\d+$/, path);
    }
  });
});
