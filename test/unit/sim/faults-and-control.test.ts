import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IDS } from '../../../sim/corpus.ts';
import { startSimulator } from '../../../sim/server.ts';
import { useSimulator } from './sim-harness.ts';

const { sim } = useSimulator();
const statusPath = `/fx/2/status/${IDS.threadRoot}`;
const get = (path: string, init?: RequestInit) => fetch(sim().url + path, init);

async function withFault(f: Parameters<ReturnType<typeof sim>['addFault']>[0], run: () => Promise<void>) {
  sim().addFault(f);
  try {
    await run();
  } finally {
    sim().clearFaults();
  }
}

test('status fault answers the configured code, then clears', async () => {
  await withFault({ target: 'fxtwitter', kind: 'status', status: 502 }, async () => {
    const res = await get(statusPath);
    assert.equal(res.status, 502);
    assert.equal((await res.json()).code, 502);
  });
  assert.equal((await get(statusPath)).status, 200);
});

test('latency delays a normal answer', async () => {
  await withFault({ target: 'fxtwitter', kind: 'latency', delayMs: 150 }, async () => {
    const started = Date.now();
    const res = await get(statusPath);
    assert.equal(res.status, 200);
    assert.equal((await res.json()).status.id, IDS.threadRoot);
    assert.ok(Date.now() - started >= 140);
  });
});

test('timeout never answers; the client gives up', async () => {
  await withFault({ target: 'fxtwitter', kind: 'timeout' }, async () => {
    await assert.rejects(get(statusPath, { signal: AbortSignal.timeout(150) }), { name: 'TimeoutError' });
  });
});

test('malformed, empty and html bodies', async () => {
  await withFault({ target: 'fxtwitter', kind: 'malformed', times: 1 }, async () => {
    const res = await get(statusPath);
    assert.equal(res.status, 200);
    await assert.rejects(res.json(), SyntaxError);
  });
  await withFault({ target: 'fxtwitter', kind: 'empty', times: 1 }, async () => {
    const res = await get(statusPath);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
  });
  await withFault({ target: 'syndication', kind: 'html', times: 1 }, async () => {
    const res = await get(`/syndication/tweet-result?id=${IDS.threadRoot}&token=x`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /text\/html/);
    assert.match(await res.text(), /<html/);
  });
});

test('truncated body ends the connection mid-body', async () => {
  await withFault({ target: 'fxtwitter', kind: 'truncated', times: 1 }, async () => {
    const res = await get(statusPath);
    assert.equal(res.status, 200);
    await assert.rejects(res.text());
  });
});

test('ratelimit answers 429 with reset headers', async () => {
  await withFault({ target: 'fxtwitter', kind: 'ratelimit', retryAfterS: 30 }, async () => {
    const res = await get(statusPath);
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '30');
    assert.equal(res.headers.get('x-rate-limit-remaining'), '0');
    assert.equal(res.headers.get('x-rate-limit-limit'), '50');
    const reset = Number(res.headers.get('x-rate-limit-reset'));
    assert.ok(Math.abs(reset - (Date.now() / 1000 + 30)) < 5);
    await res.body?.cancel();
  });
});

test('reset destroys the socket', async () => {
  await withFault({ target: '*', kind: 'reset', times: 1 }, async () => {
    await assert.rejects(get(statusPath));
  });
  assert.equal((await get(statusPath)).status, 200);
});

test('times, match and target select which requests fail', async () => {
  await withFault({ target: 'fxtwitter', kind: 'status', status: 500, times: 2, match: '/2/thread/' }, async () => {
    assert.equal((await get(statusPath)).status, 200, 'path does not match');
    assert.equal((await get(`/syndication/tweet-result?id=${IDS.threadRoot}&token=x`)).status, 400, 'other target');
    assert.equal((await get(`/fx/2/thread/${IDS.threadRoot}`)).status, 500);
    assert.equal((await get(`/fx/2/thread/${IDS.threadRoot}`)).status, 500);
    assert.equal((await get(`/fx/2/thread/${IDS.threadRoot}`)).status, 200, 'disarmed after two');
  });
});

test('call counters by target and path, faulted calls included', async () => {
  sim().resetCalls();
  await get(statusPath);
  await get(`/fx/2/thread/${IDS.threadRoot}`);
  await get(`/syndication/tweet-result?id=${IDS.threadRoot}&token=x`);
  await withFault({ target: 'fxtwitter', kind: 'status', times: 1 }, async () => {
    await get(statusPath);
  });
  await get('/nowhere');
  assert.equal(sim().calls(), 4);
  assert.equal(sim().calls({ target: 'fxtwitter' }), 3);
  assert.equal(sim().calls({ target: 'syndication' }), 1);
  assert.equal(sim().calls({ path: '/2/status/' }), 2);
  assert.equal(sim().calls({ target: 'fxtwitter', path: 'thread' }), 1);
  sim().resetCalls();
  assert.equal(sim().calls(), 0);
});

test('HTTP control surface', async () => {
  const add = await get('/__sim/faults', {
    method: 'POST',
    body: JSON.stringify({ target: 'fxtwitter', kind: 'status', status: 418 }),
  });
  assert.equal(add.status, 201);
  assert.equal((await get(statusPath)).status, 418);
  assert.equal((await get('/__sim/faults', { method: 'DELETE' })).status, 204);
  assert.equal((await get(statusPath)).status, 200);
  const bad = await get('/__sim/faults', {
    method: 'POST',
    body: JSON.stringify({ target: 'fxtwitter', kind: 'explode' }),
  });
  assert.equal(bad.status, 400);
  assert.equal((await get('/__sim/faults', { method: 'POST', body: 'not json' })).status, 400);
  const calls = await (await get('/__sim/calls?target=fxtwitter')).json();
  assert.ok(calls.count >= 2);
  assert.ok(calls.calls.every((c: any) => typeof c.path === 'string' && typeof c.target === 'string'));
  await get('/__sim/faults', { method: 'POST', body: JSON.stringify({ target: '*', kind: 'status' }) });
  assert.equal((await get('/__sim/reset', { method: 'POST' })).status, 204);
  assert.equal((await get(statusPath)).status, 200, 'reset clears faults');
  assert.equal((await (await get('/__sim/calls')).json()).count, 1, 'reset clears calls');
  assert.equal((await get('/__sim/unknown')).status, 404);
});

test('close() returns even while a request is held by a timeout fault', async () => {
  const own = await startSimulator();
  own.addFault({ target: 'fxtwitter', kind: 'timeout' });
  const pending = fetch(`${own.fxtwitterUrl}/2/status/${IDS.threadRoot}`).catch((e: unknown) => e);
  await new Promise((r) => setTimeout(r, 50));
  const started = Date.now();
  await own.close();
  assert.ok(Date.now() - started < 1000);
  assert.ok((await pending) instanceof Error);
});

test('base URLs are derived from the listening address', () => {
  const s = sim();
  assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(s.fxtwitterUrl, `${s.url}/fx`);
  assert.equal(s.syndicationUrl, `${s.url}/syndication`);
  assert.equal(s.xApiUrl, `${s.url}/x/i/api`);
  assert.equal(s.port, Number(new URL(s.url).port));
});
