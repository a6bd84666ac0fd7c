// The shipped edge for real: varnishd with deploy/varnish.vcl in front of HAProxy with deploy/haproxy.cfg in
// front of the service, all on loopback. A public read is fetched once and then answered by Varnish; an expired
// copy is revalidated with the service (a 304 passes through and refreshes it); crawlers and everyone else get
// their own copies whatever their User-Agent string; keyed answers, problems and 429s are never stored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { LINK_PREVIEW_CRAWLERS } from '../../src/contract/link-preview.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import {
  haproxyFor,
  startHaproxy,
  startVarnish,
  vclFor,
  VCL_PATH,
  type Edge,
  type VarnishEdge,
} from '../helpers/edge.ts';
import { until } from '../helpers/wait.ts';

const ADMIN = 'admin-token-for-varnish-tests';
const TTL_S = 2;
const SBIN = { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin` };
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const DISCORD = 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';

describe('the shipped configurations, checked by the daemons themselves', () => {
  test('varnishd compiles the VCL and haproxy accepts its configuration', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-edge-check-'));
    try {
      writeFileSync(join(dir, 'v.vcl'), vclFor({ host: '127.0.0.1', port: 8080 }));
      execFileSync('varnishd', ['-C', '-j', 'none', '-n', join(dir, 'n'), '-f', join(dir, 'v.vcl')], {
        env: SBIN,
        stdio: 'pipe',
      });
      writeFileSync(join(dir, 'h.cfg'), haproxyFor(8080, [{ host: '127.0.0.1', port: 8081 }]));
      execFileSync('haproxy', ['-c', '-q', '-f', join(dir, 'h.cfg')], { env: SBIN, stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the VCL recognises exactly the crawlers the service recognises', () => {
    const vcl = readFileSync(VCL_PATH, 'utf8');
    const m = /req\.http\.User-Agent ~ "\(\?i\)\(([^"]+)\)"/.exec(vcl);
    assert.ok(m, 'the crawler pattern');
    assert.deepEqual(
      m[1]!.split('|'),
      LINK_PREVIEW_CRAWLERS.map((c) => c.token),
    );
  });
});

describe('Varnish in front of HAProxy in front of the service', () => {
  let s: Stack;
  let lb: Edge;
  let cdn: VarnishEdge;
  before(async () => {
    s = await startStack({ THREADMARK_CACHE_TTL_S: String(TTL_S), THREADMARK_ADMIN_TOKEN: ADMIN });
    lb = await startHaproxy([{ host: '127.0.0.1', port: Number(new URL(s.url).port) }]);
    cdn = await startVarnish({ host: '127.0.0.1', port: lb.port });
  });
  after(async () => {
    await cdn?.close();
    await lb?.close();
    await s?.close();
  });

  async function get(path: string, headers: Record<string, string> = {}): Promise<Response & { text_: string }> {
    const res = await fetch(cdn.url + path, { headers });
    return Object.assign(res, { text_: await res.text() });
  }

  test('a public read is fetched once, then answered by Varnish without the per-client fields', async () => {
    const path = `/${HANDLES.alice}/status/${IDS.threadRoot}?thread=off`;
    const first = await get(path);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-cdn-cache'), 'miss');
    assert.ok(first.headers.get('ratelimit'), 'the client that filled the copy sees its allowance');
    const before = (await cdn.counters())['MAIN.backend_req'] ?? 0;
    for (let i = 0; i < 3; i++) {
      const hit = await get(path);
      assert.equal(hit.status, 200);
      assert.equal(hit.headers.get('x-cdn-cache'), 'hit');
      assert.equal(hit.text_, first.text_);
      assert.equal(hit.headers.get('etag'), first.headers.get('etag'));
      assert.equal(hit.headers.get('ratelimit'), null, 'another client was charged nothing');
      assert.equal(hit.headers.get('x-request-id'), null);
    }
    assert.equal((await cdn.counters())['MAIN.backend_req'] ?? 0, before, 'no request reached the service');
  });

  test("a client's conditional request is answered 304 from the copy", async () => {
    const path = `/api/v1/profiles/${HANDLES.bob}`;
    const full = await get(path);
    assert.equal(full.status, 200);
    const etag = full.headers.get('etag')!;
    const cond = await get(path, { 'if-none-match': etag });
    assert.equal(cond.status, 304);
    assert.equal(cond.headers.get('etag'), etag);
  });

  test('an expired copy is revalidated with the service: its 304 passes through and refreshes the copy', async () => {
    const path = `/${HANDLES.carol}`;
    const full = await get(path, { accept: 'application/json' });
    assert.equal(full.status, 200);
    const etag = full.headers.get('etag')!;
    const start = (await cdn.counters())['MAIN.fetch_304'] ?? 0;
    // Past s-maxage Varnish answers from grace (stale-while-revalidate) and asks the service If-None-Match.
    await until(
      async () => {
        const res = await get(path, { accept: 'application/json' });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('etag'), etag, 'the same representation throughout');
        return ((await cdn.counters())['MAIN.fetch_304'] ?? 0) > start;
      },
      'a 304 from the service to a revalidation',
      { limitMs: 20_000, stepMs: 250 },
    );
    const again = await get(path, { accept: 'application/json', 'if-none-match': etag });
    assert.equal(again.status, 304);
  });

  test('crawlers share one copy (the HTML page), everyone else another, whatever the User-Agent string', async () => {
    const path = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`;
    const slack = await get(path, { 'user-agent': SLACK });
    assert.match(slack.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(slack.headers.get('x-cdn-cache'), 'miss');
    assert.match(slack.headers.get('cache-control') ?? '', /^public, /, 'keyed on X-Link-Preview: shareable');
    const discord = await get(path, { 'user-agent': DISCORD, accept: '*/*' });
    assert.match(discord.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(discord.headers.get('x-cdn-cache'), 'hit', "another crawler's User-Agent: the same copy");

    const firefox = await get(path, { 'user-agent': FIREFOX });
    assert.match(firefox.headers.get('content-type') ?? '', /^text\/markdown/);
    assert.equal(firefox.headers.get('x-cdn-cache'), 'miss');
    const curl = await get(path, { 'user-agent': 'curl/8.5.0', 'x-link-preview': '1' });
    assert.match(curl.headers.get('content-type') ?? '', /^text\/markdown/, 'a client-sent X-Link-Preview is replaced');
    assert.equal(curl.headers.get('x-cdn-cache'), 'hit');
  });

  test('keyed reads are passed to the service and never stored; anonymous readers never see them', async () => {
    const issued = await fetch(`${s.url}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'varnish' }),
    });
    assert.equal(issued.status, 201);
    const { key } = (await issued.json()) as { key: string };
    const path = `/api/v1/profiles/${HANDLES.dave}/followers`;
    for (let i = 0; i < 2; i++) {
      const keyed = await get(path, { authorization: `Bearer ${key}` });
      assert.equal(keyed.status, 200);
      assert.equal(keyed.headers.get('x-api-key-status'), 'valid');
      assert.equal(keyed.headers.get('cache-control'), 'private, no-store');
      assert.equal(keyed.headers.get('x-cdn-cache'), 'pass');
    }
    const anonymous = await get(path);
    assert.equal(anonymous.headers.get('x-api-key-status'), 'anonymous');
    assert.equal(anonymous.headers.get('x-cdn-cache'), 'miss');
  });

  test('problems and 429s are never stored', async () => {
    const missing = `/api/v1/profiles/${HANDLES.missing}`;
    for (let i = 0; i < 2; i++) {
      const res = await get(missing, { accept: 'application/json' });
      assert.equal(res.status, 404);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.notEqual(res.headers.get('x-cdn-cache'), 'hit');
    }
    // Anonymous live searches: 5 a minute per client (search-ip); each new query is one, through the cache.
    let limitedPath: string | undefined;
    for (let i = 0; i < 8 && !limitedPath; i++) {
      const path = `/api/v1/search?q=varnishlimit${i}`;
      const res = await get(path, { accept: 'application/json' });
      if (res.status === 429) {
        assert.ok(Number(res.headers.get('retry-after')) >= 1);
        assert.equal(res.headers.get('cache-control'), 'no-store');
        limitedPath = path;
      }
    }
    assert.ok(limitedPath, 'search-ip refused a live lookup');
    const again = await get(limitedPath, { accept: 'application/json' });
    assert.equal(again.status, 429, 'answered by the service again, not from a stored 429');
    assert.notEqual(again.headers.get('x-cdn-cache'), 'hit');
  });
});
