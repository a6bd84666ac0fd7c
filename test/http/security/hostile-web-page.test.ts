// A hostile X web app, through the real server: a local fake of X's web origin serves a 5 MiB home page and
// 5 MiB scripts built to make backtracking patterns run for hours (with X's real markers at the very end), and
// /healthz on the same process keeps answering within 100 ms while a search reads them for signing. Script
// URLs the page names on another origin, directly or through a redirect, are never fetched.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { mainThreadCpuMs } from '../../helpers/thread-cpu.ts';
import { writeSessions } from '../../helpers/x-sessions.ts';
import { HANDLES, SEARCH_TERMS } from '../../../sim/corpus.ts';
import { homePage, mainScript, mainScriptName, onDemandScript, SIM_ONDEMAND_HASH } from '../../../sim/x-web-bundle.ts';
import type { XProvider } from '../../../src/providers/x/provider.ts';

const MIB5 = 5 * 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'tm-hostile-web-'));
const sessions = writeSessions(dir, 'hostile');

/** `parts` repeated in equal shares, then `tail`, exactly 5 MiB in all. */
function hostile(parts: string[], tail: string): string {
  const share = Math.floor((MIB5 - tail.length) / parts.length);
  const body = parts.map((p) => p.repeat(Math.ceil(share / p.length)).slice(0, share)).join('');
  return body.padEnd(MIB5 - tail.length, ' ') + tail;
}

// Each share defeats one of the patterns the readers replace: a digit run (the on-demand chunk), tags that
// never close (main script, verification key, animations), unfinished pairs (query ids, key indices).
// Encoded once: the fake origin shares the service's process, and its own work must not count as a stall.
const PAGE = Buffer.from(hostile(['1', '<meta ', '<svg ', '<script '], `\n${homePage()}`));
const MAIN = Buffer.from(hostile(['queryId:"', 'queryId : "a", operationName : "'], `\n${mainScript()}`));
const ON_DEMAND = Buffer.from(hostile(['(a[1],', '(a[1], '], `\n${onDemandScript()}`));

interface FakeOrigin {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

async function fakeOrigin(
  route: (path: string) => { status: number; body?: string | Buffer; location?: string },
): Promise<FakeOrigin> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const r = route(req.url ?? '');
    res.writeHead(r.status, {
      'content-type': r.status === 200 ? 'text/html; charset=utf-8' : 'text/plain',
      ...(r.location ? { location: r.location } : {}),
    });
    res.end(r.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const xOf = (s: Stack) => s.app.chain.providers.find((p) => p.name === 'x') as XProvider;
const env = (webUrl: string) => ({
  THREADMARK_PROVIDERS: 'x',
  THREADMARK_X_SESSIONS: sessions,
  THREADMARK_X_WEB_URL: webUrl,
  THREADMARK_CACHE_TTL_S: '0',
  // Reading three 5 MiB answers on a busy machine: the read must not be cut short by the upstream timeout.
  THREADMARK_UPSTREAM_TIMEOUT_MS: '20000',
});
const search = (s: Stack) => s.get(`/api/v1/search?q=${SEARCH_TERMS.caching}&feed=photos&format=json`);

let stray: FakeOrigin;
before(async () => {
  stray = await fakeOrigin(() => ({ status: 200, body: 'e.exports={queryId:"stolen",operationName:"Stolen"}' }));
});
after(async () => {
  await stray.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a hostile X web app', () => {
  test('a 5 MiB hostile page and scripts: /healthz answers within 100 ms throughout, and signing still works', async (t) => {
    assert.equal(PAGE.length, MIB5, 'ASCII: as many bytes as characters');
    const web = await fakeOrigin((path) => {
      if (path === '/home') return { status: 200, body: PAGE };
      if (path === `/client-web/${mainScriptName()}`) return { status: 200, body: MAIN };
      if (path === `/client-web/ondemand.s.${SIM_ONDEMAND_HASH}a.js`) return { status: 200, body: ON_DEMAND };
      return { status: 404 };
    });
    let s: Stack | undefined;
    try {
      s = await startStack(env(web.url));
      const stack = s;
      // Warm up, so that the timed part pays no first-call compilation: /healthz, and an X read that needs no
      // signature (the web app is not read for it).
      assert.equal((await stack.get('/healthz')).status, 200);
      assert.equal((await stack.get(`/${HANDLES.alice}?format=json`)).status, 200);
      assert.deepEqual(web.hits, []);

      let read = false;
      const answer = search(stack).then(async (res) => ({ status: res.status, body: await res.text() }));
      const waits: Array<{ wall: number; cpu: number }> = [];
      const started = performance.now();
      while (!read) {
        const t = performance.now();
        const cpu = mainThreadCpuMs();
        const res = await stack.get('/healthz');
        await res.arrayBuffer();
        waits.push({ wall: performance.now() - t, cpu: mainThreadCpuMs() - cpu });
        assert.equal(res.status, 200);
        read = xOf(stack).webStatus()?.signing !== 'not_read';
        assert.ok(performance.now() - started < 60_000, 'the bundle read did not end within a minute');
        await new Promise((r) => setTimeout(r, 5));
      }
      const res = await answer;
      assert.equal(res.status, 200, res.body);
      assert.equal(xOf(stack).webStatus()?.signing, 'ready', 'the markers after 5 MiB of noise were found');
      assert.deepEqual(web.hits, [
        '/home',
        `/client-web/${mainScriptName()}`,
        `/client-web/ondemand.s.${SIM_ONDEMAND_HASH}a.js`,
      ]);
      assert.ok(waits.length >= 3, `only ${waits.length} /healthz requests during the read`);
      // What stood in front of each /healthz: its wall-clock wait, unless the process was waiting for a CPU
      // (the machine running the suite may be shared and busy), in which case the CPU time the event loop's
      // thread used meanwhile, which is all the work it could have done in front of it (the whole process's
      // time would add the collector's helper threads, which run beside the loop). A read that held the event
      // loop shows in both.
      const stalls = waits.map((w) => Math.min(w.wall, w.cpu));
      const worst = Math.max(...stalls);
      const wall = Math.round(Math.max(...waits.map((w) => w.wall)));
      t.diagnostic(`${waits.length} /healthz during the read: behind at most ${Math.round(worst)} ms, wall ${wall} ms`);
      assert.ok(worst < 100, `/healthz waited behind ${Math.round(worst)} ms of work (wall up to ${wall} ms)`);
    } finally {
      await s?.close();
      await web.close();
    }
  });

  test('a main script on another origin is refused without a fetch, as a failed read', async () => {
    const web = await fakeOrigin((path) =>
      path === '/home'
        ? { status: 200, body: `<script src="${stray.url}/client-web/main.abc.js"></script>` }
        : { status: 404 },
    );
    let s: Stack | undefined;
    try {
      s = await startStack(env(web.url));
      const res = await search(s);
      await res.arrayBuffer();
      assert.equal(res.status, 503);
      // The page is read again after X refuses the unsigned search; the script is never asked for.
      assert.ok(web.hits.length > 0 && web.hits.every((h) => h === '/home'), web.hits.join());
      assert.equal(stray.hits.length, 0, 'the other origin was asked');
      const status = xOf(s).webStatus();
      assert.equal(status?.signing, 'unavailable');
      assert.match(status?.lastError ?? '', /not on THREADMARK_X_WEB_URL's origin or X's static hosts; not fetched/);
    } finally {
      await s?.close();
      await web.close();
    }
  });

  test('a main script that redirects to another origin is not followed there', async () => {
    const web = await fakeOrigin((path) => {
      if (path === '/home') return { status: 200, body: '<script src="/client-web/main.abc.js"></script>' };
      if (path === '/client-web/main.abc.js') return { status: 302, location: `${stray.url}/client-web/main.abc.js` };
      return { status: 404 };
    });
    let s: Stack | undefined;
    try {
      s = await startStack(env(web.url));
      const res = await search(s);
      await res.arrayBuffer();
      assert.equal(res.status, 503);
      assert.ok(web.hits.includes('/client-web/main.abc.js'), web.hits.join());
      assert.equal(stray.hits.length, 0, 'the redirect was followed to the other origin');
      assert.match(
        xOf(s).webStatus()?.lastError ?? '',
        /redirected to http:\/\/127\.0\.0\.1:\d+, which this read may not/,
      );
    } finally {
      await s?.close();
      await web.close();
    }
  });

  test('/docs/reliability says which hosts the web app is read from and how much of it', async () => {
    let s: Stack | undefined;
    try {
      s = await startStack();
      const html = await (await s.get('/docs/reliability')).text();
      const section = /<section id="x-web-app">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
      assert.match(section, /THREADMARK_X_WEB_URL/);
      assert.match(section, /abs\.twimg\.com/);
      assert.match(section, /5 MiB/);
    } finally {
      await s?.close();
    }
  });
});
