// The provider chain through the real server against the simulator: every failure class of the contract
// (reader-api.md, Errors), retries and Retry-After within the request deadline, the circuit breaker's
// open / half-open / closed cycle, coalescing of concurrent reads, provider health in GET /api, and
// cursors that must not travel between routes, queries, feeds or deployments.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { startStack, type Stack, problemOf } from '../helpers/stack.ts';
import { HANDLES, IDS, SEARCH_TERMS } from '../../sim/corpus.ts';

/** Retries stay fast: 1 ms backoff steps. The cache is off so each request reaches the upstreams. */
const FAST = {
  THREADMARK_UPSTREAM_RETRIES: '2',
  THREADMARK_UPSTREAM_BACKOFF_MS: '1',
  THREADMARK_CACHE_TTL_S: '0',
  // Search requests are charged per client address; each request below comes from its own address.
  THREADMARK_TRUST_PROXY: 'true',
};

let ipSeq = 0;
/** A fresh client address per request, so the search quotas (5 per minute per address) never interfere. */
const fresh = (): RequestInit => ({
  headers: { 'x-forwarded-for': `10.20.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` },
});

const single = (id: string = IDS.threadRoot) => `/${HANDLES.alice}/status/${id}?thread=off&format=json`;
const searchPath = (q: string = SEARCH_TERMS.caching, extra = '') =>
  `/api/v1/search?q=${encodeURIComponent(q)}&format=json${extra}`;

interface Failure {
  provider: string;
  kind: string;
  status?: number;
}

async function expectProblem(s: Stack, path: string, status: number, code: string) {
  const res = await s.get(path, fresh());
  const body = await problemOf(res);
  const shown = `${path}: ${JSON.stringify(body).slice(0, 300)}`;
  assert.equal(res.status, status, shown);
  assert.equal(body.code, code, shown);
  assert.match(res.headers.get('content-type') ?? '', /json/);
  return { res, body: body as typeof body & { detail: string; resolution: string; failures?: Failure[] } };
}

describe('failure classes map to the contract codes (fxtwitter, syndication)', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ ...FAST, THREADMARK_BREAKER_THRESHOLD: '1000' });
  });
  after(() => s.close());
  beforeEach(() => {
    s.sim.clearFaults();
    s.sim.resetCalls();
  });

  test('fxtwitter 500 on every attempt: retried, then the read falls back to syndication', async () => {
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 500 });
    const res = await s.get(single());
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-source'), 'syndication');
    assert.equal(((await res.json()) as { post: { id: string } }).post.id, IDS.threadRoot);
    assert.equal(s.sim.calls({ target: 'fxtwitter' }), 3, 'one attempt and two retries');
    assert.equal(s.sim.calls({ target: 'syndication' }), 1);
  });

  test('a transient 5xx or dropped connection is retried on the same provider and succeeds there', async () => {
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 502, times: 1 });
    s.sim.addFault({ target: 'fxtwitter', kind: 'reset', times: 1 });
    const res = await s.get(single());
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-source'), 'fxtwitter');
    assert.equal(s.sim.calls({ target: 'fxtwitter' }), 3);
    assert.equal(s.sim.calls({ target: 'syndication' }), 0);
  });

  test('both failing: all_providers_failed (502) listing each failure, never 404 or 500', async () => {
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 503 });
    s.sim.addFault({ target: 'syndication', kind: 'status', status: 500 });
    const { body } = await expectProblem(s, single(IDS.deleted), 502, 'all_providers_failed');
    assert.deepEqual(body.failures, [
      { provider: 'fxtwitter', kind: 'error', status: 503 },
      { provider: 'syndication', kind: 'error', status: 500 },
    ]);
    assert.match(body.detail, /fxtwitter: error \(HTTP 503\)/);
    assert.match(body.resolution, /retry/i, 'provider codes share the resolution of upstream_error');
  });

  test("malformed or HTML bodies are the provider's error (502), never 500", async () => {
    s.sim.addFault({ target: 'fxtwitter', kind: 'malformed' });
    s.sim.addFault({ target: 'syndication', kind: 'html' });
    const { body } = await expectProblem(s, single(), 502, 'all_providers_failed');
    assert.deepEqual(
      body.failures?.map((f) => `${f.provider}_${f.kind}`),
      ['fxtwitter_error', 'syndication_error'],
    );
    assert.equal(s.sim.calls({ target: 'fxtwitter' }), 1, 'a malformed 200 is not retried');
  });

  test('a success with nothing usable is <provider>_empty', async () => {
    s.sim.addFault({ target: 'fxtwitter', kind: 'empty' });
    s.sim.addFault({ target: 'syndication', kind: 'empty' });
    const { body } = await expectProblem(s, single(), 502, 'all_providers_failed');
    assert.deepEqual(
      body.failures?.map((f) => `${f.provider}_${f.kind}`),
      ['fxtwitter_empty', 'syndication_empty'],
    );
  });

  test('not_found only when a provider positively says the post is missing', async () => {
    const gone = await expectProblem(s, single(IDS.deleted), 404, 'not_found');
    assert.ok(gone.body.detail);
    // FxTwitter's bare 404 on a conversation (its account pool may be exhausted) is not proof of absence.
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 404, match: '/2/conversation/' });
    const res = await s.get(`/${HANDLES.alice}/status/${IDS.threadRoot}?format=json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-source'), 'syndication');
    // A 5xx from one provider never turns into not_found; the positive answer comes from the other.
    s.sim.clearFaults();
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 500 });
    await expectProblem(s, single(IDS.deleted), 404, 'not_found');
  });

  test('search: failures answer 503 with Retry-After, in each failure class', async () => {
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 500, match: '/2/search' });
    const err = await expectProblem(s, searchPath('err one'), 503, 'fxtwitter_error');
    assert.equal(err.res.headers.get('retry-after'), '30');
    s.sim.clearFaults();
    s.sim.addFault({ target: 'fxtwitter', kind: 'malformed', match: '/2/search' });
    assert.equal(
      (await expectProblem(s, searchPath('err two'), 503, 'fxtwitter_error')).res.headers.get('retry-after'),
      '30',
    );
    s.sim.clearFaults();
    s.sim.addFault({ target: 'fxtwitter', kind: 'reset', match: '/2/search' });
    assert.equal(
      (await expectProblem(s, searchPath('err three'), 503, 'fxtwitter_network')).res.headers.get('retry-after'),
      '30',
    );
  });

  test('an upstream 503 with Retry-After is retried only when the wait fits in the request deadline', async () => {
    // Deadline here: 3 x 2000 ms. Retry-After: 30 does not fit: answered at once, the upstream's wait passed on.
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 503, retryAfterS: 30, match: '/2/search', times: 1 });
    const long = await expectProblem(s, searchPath('retry long'), 503, 'fxtwitter_error');
    assert.equal(long.res.headers.get('retry-after'), '30');
    assert.equal(s.sim.calls({ target: 'fxtwitter', path: '/2/search' }), 1, 'not retried');
    // Retry-After: 1 fits: the same read is retried after it and succeeds.
    s.sim.resetCalls();
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 503, retryAfterS: 1, match: '/2/search', times: 1 });
    const res = await s.get(searchPath('retry short'), fresh());
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-source'), 'fxtwitter');
    assert.equal(s.sim.calls({ target: 'fxtwitter', path: '/2/search' }), 2);
  });
});

describe('transport failures and limits', () => {
  test('timeout and refused connection are <provider>_network; an oversize body is <provider>_error', async () => {
    const port = await closedPort();
    const s = await startStack({
      ...FAST,
      THREADMARK_PROVIDERS: 'fxtwitter',
      THREADMARK_UPSTREAM_TIMEOUT_MS: '300',
      THREADMARK_UPSTREAM_MAX_BYTES: '2048',
    });
    const refused = await startStack({
      ...FAST,
      THREADMARK_PROVIDERS: 'syndication',
      THREADMARK_SYNDICATION_URL: `http://127.0.0.1:${port}`,
    });
    try {
      s.sim.addFault({ target: 'fxtwitter', kind: 'timeout' });
      const slow = await expectProblem(s, single(IDS.threadPoll), 502, 'fxtwitter_network');
      assert.match(slow.body.detail, /did not answer within 300 ms/);
      assert.equal(s.sim.calls({ target: 'fxtwitter' }), 1, 'a timed-out attempt is not retried');
      s.sim.clearFaults();

      const big = await expectProblem(s, single(IDS.threadRoot), 502, 'fxtwitter_error');
      assert.match(big.body.detail, /2048 byte limit/);

      const down = await expectProblem(refused, single(IDS.threadRoot), 502, 'syndication_network');
      assert.match(down.body.detail, /ECONNREFUSED/);
    } finally {
      await s.close();
      await refused.close();
    }
  });

  test('the request deadline bounds the whole read: the next provider is not tried once it has passed', async () => {
    const s = await startStack({
      ...FAST,
      THREADMARK_UPSTREAM_TIMEOUT_MS: '1000',
      THREADMARK_UPSTREAM_DEADLINE_MS: '300',
    });
    try {
      s.sim.addFault({ target: 'fxtwitter', kind: 'timeout' });
      const { body } = await expectProblem(s, single(IDS.threadVideo), 502, 'fxtwitter_network');
      assert.match(body.detail, /before the request deadline/);
      assert.match(body.detail, /Not tried, the request deadline had passed: syndication/);
      assert.equal(s.sim.calls({ target: 'syndication' }), 0);
    } finally {
      await s.close();
    }
  });
});

describe('circuit breaker and provider health through the server', () => {
  test('failures open the circuit, the half-open trial is the only call let through, success closes it', async () => {
    const s = await startStack({ ...FAST, THREADMARK_BREAKER_THRESHOLD: '2', THREADMARK_BREAKER_COOLDOWN_MS: '400' });
    try {
      const health = async () => {
        const doc = (await (await s.get('/api')).json()) as {
          health: {
            providers: Array<{
              name: string;
              successes: number;
              failures: number;
              breaker: string;
              lastFailure?: { kind: string };
            }>;
          };
        };
        return Object.fromEntries(doc.health.providers.map((p) => [p.name, p]));
      };
      const before = await health();
      assert.deepEqual([before.fxtwitter!.failures, before.fxtwitter!.breaker], [0, 'closed']);

      s.sim.addFault({ target: 'fxtwitter', kind: 'malformed' });
      for (let i = 0; i < 2; i++) assert.equal((await s.get(single())).headers.get('x-source'), 'syndication');
      const open = await health();
      assert.equal(open.fxtwitter!.failures, 2);
      assert.equal(open.fxtwitter!.lastFailure?.kind, 'error');
      assert.equal(open.fxtwitter!.breaker, 'open');
      assert.equal(open.syndication!.successes, 2);
      assert.equal(open.syndication!.breaker, 'closed');

      s.sim.resetCalls();
      assert.equal((await s.get(single())).headers.get('x-source'), 'syndication');
      assert.equal(s.sim.calls({ target: 'fxtwitter' }), 0, 'skipped while open');

      // After the cooldown: one slow trial is in flight; concurrent reads keep skipping fxtwitter.
      await new Promise((r) => setTimeout(r, 450));
      assert.equal((await health()).fxtwitter!.breaker, 'half-open');
      s.sim.clearFaults();
      // Long enough that the concurrent reads below surely start while the trial is still running.
      s.sim.addFault({ target: 'fxtwitter', kind: 'latency', delayMs: 1200, times: 1 });
      const trial = s.get(single());
      while (s.sim.calls({ target: 'fxtwitter' }) === 0) await new Promise((r) => setTimeout(r, 5));
      const others = await Promise.all([s.get(single()), s.get(single()), s.get(single())]);
      assert.deepEqual(
        others.map((r) => r.headers.get('x-source')),
        ['syndication', 'syndication', 'syndication'],
      );
      assert.equal((await trial).headers.get('x-source'), 'fxtwitter');
      assert.equal(s.sim.calls({ target: 'fxtwitter' }), 1, 'exactly one trial call');
      const closed = await health();
      assert.equal(closed.fxtwitter!.breaker, 'closed');
      assert.equal(closed.fxtwitter!.successes, 1);
      assert.equal((await s.get(single())).headers.get('x-source'), 'fxtwitter');
    } finally {
      await s.close();
    }
  });

  test('a failed trial re-opens the circuit; with every provider open the read fails fast', async () => {
    const s = await startStack({
      ...FAST,
      THREADMARK_PROVIDERS: 'fxtwitter',
      THREADMARK_BREAKER_THRESHOLD: '1',
      THREADMARK_BREAKER_COOLDOWN_MS: '300',
    });
    try {
      s.sim.addFault({ target: 'fxtwitter', kind: 'empty' });
      await expectProblem(s, single(), 502, 'fxtwitter_empty');
      s.sim.resetCalls();
      const fast = await expectProblem(s, single(), 502, 'fxtwitter_empty');
      assert.match(fast.body.detail, /is not asked for the next \d+ s/);
      assert.equal(s.sim.calls({ target: 'fxtwitter' }), 0);
      await new Promise((r) => setTimeout(r, 350));
      await expectProblem(s, single(), 502, 'fxtwitter_empty');
      assert.equal(s.sim.calls({ target: 'fxtwitter' }), 1, 'the trial');
      const doc = (await (await s.get('/api')).json()) as {
        health: { providers: Array<{ breaker: string; failures: number }> };
      };
      assert.deepEqual([doc.health.providers[0]!.breaker, doc.health.providers[0]!.failures], ['open', 2]);
    } finally {
      await s.close();
    }
  });
});

describe('coalescing', () => {
  test('N concurrent identical reads make one upstream call, counted by the simulator', async () => {
    const s = await startStack({ THREADMARK_UPSTREAM_RETRIES: '0' });
    try {
      s.sim.addFault({ target: 'fxtwitter', kind: 'latency', delayMs: 200, times: 1 });
      const N = 12;
      const answers = await Promise.all(Array.from({ length: N }, () => s.get(single(IDS.threadTwoPhotos))));
      assert.deepEqual(new Set(answers.map((r) => r.status)), new Set([200]));
      const bodies = await Promise.all(answers.map((r) => r.json() as Promise<{ post: { id: string } }>));
      assert.ok(bodies.every((b) => b.post.id === IDS.threadTwoPhotos));
      assert.equal(s.sim.calls({ target: 'fxtwitter', path: `/2/status/${IDS.threadTwoPhotos}` }), 1);
      assert.equal(s.sim.calls({ target: 'syndication' }), 0);

      // The same for a list read (followers) and a conversation.
      s.sim.addFault({ target: 'fxtwitter', kind: 'latency', delayMs: 200, times: 2 });
      await Promise.all([
        ...Array.from({ length: 6 }, () => s.get(`/${HANDLES.big}/followers?format=json`)),
        ...Array.from({ length: 6 }, () => s.get(`/${HANDLES.dave}/status/${IDS.daveRoot}?format=json`)),
      ]);
      assert.equal(s.sim.calls({ target: 'fxtwitter', path: `/2/profile/${HANDLES.big}/followers` }), 1);
      assert.equal(s.sim.calls({ target: 'fxtwitter', path: `/2/conversation/${IDS.daveRoot}` }), 1);
    } finally {
      await s.close();
    }
  });
});

describe('cursors stay where they were issued', () => {
  let s: Stack;
  let other: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_CURSOR_SECRET: 'first-deployment-secret-0001', THREADMARK_TRUST_PROXY: 'true' });
    other = await startStack({
      THREADMARK_CURSOR_SECRET: 'other-deployment-secret-0002',
      THREADMARK_TRUST_PROXY: 'true',
    });
  });
  after(async () => {
    await s.close();
    await other.close();
  });

  const cursorOf = async (st: Stack, path: string) => {
    const res = await st.get(
      `${path}${path.includes('?') ? '&' : '?'}${path.includes('format=') ? '' : 'format=json&'}limit=5`,
      fresh(),
    );
    assert.equal(res.status, 200, path);
    const c = ((await res.json()) as { nextCursor?: string }).nextCursor;
    assert.ok(c, `${path} gives a cursor`);
    return c;
  };

  test('a timeline cursor is refused on followers, following, search and another handle', async () => {
    const c = encodeURIComponent(await cursorOf(s, `/${HANDLES.alice}`));
    assert.equal(
      (await s.get(`/${HANDLES.alice}?format=json&cursor=${c}`, fresh())).status,
      200,
      'accepted where issued',
    );
    for (const path of [
      `/${HANDLES.alice}/followers?cursor=${c}`,
      `/${HANDLES.alice}/following?cursor=${c}`,
      `/${HANDLES.bob}?cursor=${c}`,
      `/search?q=${HANDLES.alice}&cursor=${c}`,
      `/api/v1/profiles/${HANDLES.carol}?cursor=${c}`,
    ]) {
      const { body } = await expectProblem(s, path, 400, 'invalid_cursor');
      assert.match(body.detail, /another route, query or feed/);
    }
  });

  test('a search cursor is refused on another feed or query, and on another deployment', async () => {
    const c = await cursorOf(s, searchPath());
    assert.equal((await s.get(`${searchPath()}&cursor=${encodeURIComponent(c)}`, fresh())).status, 200);
    await expectProblem(s, `${searchPath()}&feed=top&cursor=${encodeURIComponent(c)}`, 400, 'invalid_cursor');
    const same = await s.get(`${searchPath(`  ${SEARCH_TERMS.caching} `)}&cursor=${encodeURIComponent(c)}`, fresh());
    assert.equal(same.status, 200, 'the query is compared once normalized');
    await expectProblem(
      s,
      `${searchPath(SEARCH_TERMS.threadmark)}&cursor=${encodeURIComponent(c)}`,
      400,
      'invalid_cursor',
    );
    const foreign = await expectProblem(
      other,
      `${searchPath()}&cursor=${encodeURIComponent(c)}`,
      400,
      'invalid_cursor',
    );
    assert.match(foreign.body.detail, /edited, forged, or issued by another deployment/);
  });

  test('edited, truncated or forged cursors are refused', async () => {
    const c = await cursorOf(s, `/${HANDLES.big}/followers`);
    const mid = Math.floor(c.length / 2);
    const edited = c.slice(0, mid) + (c[mid] === 'A' ? 'B' : 'A') + c.slice(mid + 1);
    const forged = Buffer.from(JSON.stringify({ v: 1, provider: 'fxtwitter', upstream: 'abc', page: 2 })).toString(
      'base64url',
    );
    for (const bad of [edited, c.slice(0, -4), forged, `${c}A`]) {
      await expectProblem(
        s,
        `/${HANDLES.big}/followers?format=json&cursor=${encodeURIComponent(bad)}`,
        400,
        'invalid_cursor',
      );
    }
  });
});

/** A loopback port with nothing listening. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
