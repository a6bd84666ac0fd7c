// Every example of the README, docs/*.md and the /docs pages, run as written against the service and the platform
// simulator set up as `npm run demo` sets them up: each curl must answer 2xx or 304 and each command exit 0, so an
// example cannot rot unnoticed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GUIDES, guidePath } from '../../src/surface/docs/guide-pages.ts';
import { BIN, runProcess } from '../helpers/cli-bin.ts';
import { typeCheck } from '../helpers/consumer-tsc.ts';
import { aliceArchive, writeZip } from '../fixtures/archive/make-archive.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { openKeyStore } from '../../src/stores/index.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { until } from '../helpers/wait.ts';
import {
  DOCUMENTED_BASE,
  DOCUMENTED_CALLBACK,
  DOCUMENTED_SIM,
  examplesOf,
  htmlCodeBlocks,
  markdownShellBlocks,
  markdownTypeScriptBlocks,
  type Example,
} from '../helpers/doc-examples.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const MARKDOWN = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);
/** The generated pages; the guides (/docs/api, …) are docs/*.md, checked below to carry the same examples. */
const PAGES = ['/docs', '/docs/reliability', '/docs/versioning'];

/** A free loopback port, so the service's base URL (which oEmbed and the docs' examples carry) is its real one. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const addr = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof addr === 'object' && addr ? addr.port : 0;
}

let dir: string;
let stack: Stack;
let base: string;
let client = 0;
let receiver: Receiver;
/** What the demo's start-up output tells a reader to export (scripts/demo.ts), with this stack's values. */
let demoExports: Record<string, string>;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threadmark-doc-examples-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // The demo's set-up (scripts/demo.ts): every provider pointed at the simulator, one simulated X session.
  const sessions = join(dir, 'sessions.jsonl');
  writeFileSync(sessions, JSON.stringify({ username: 'demo', auth_token: 'demo_token', ct0: 'demo_ct0' }) + '\n');
  stack = await startStack(
    {
      THREADMARK_BASE_URL: base,
      THREADMARK_PROVIDERS: 'fxtwitter,syndication,x',
      THREADMARK_X_SESSIONS: sessions,
      // Each example is charged to an address of its own (see .curlrc below): a reader trying them over an
      // afternoon does not meet the per-minute allowances that running them all at once would.
      THREADMARK_TRUST_PROXY: 'true',
      // As the demo: callbacks on this machine accepted, watched sources read every few seconds.
      THREADMARK_WEBHOOK_ALLOW_PRIVATE: 'true',
      THREADMARK_WATCH_INTERVALS_MS: 'profile=2000,search=2000,thread=2000,list=2000',
    },
    { port },
  );
  receiver = await startReceiver();
  const store = await openKeyStore({ keysDb: stack.app.services.config.keysDb });
  const key = await store.keys.create({ name: 'demo' }).finally(() => store.close());
  demoExports = {
    THREADMARK_SERVER: DOCUMENTED_BASE,
    THREADMARK_MEDIA_HOSTS: stack.sim.mediaHosts,
    THREADMARK_API_KEY: key.key,
  };
});

after(async () => {
  await receiver?.close();
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs one example in bash as pasted (the documented base URL pointed at this service), in `cwd` with HOME there
 * too. curl reads a .curlrc that makes an HTTP error a failure (`--fail-with-body`) and gives the request its own
 * client address. `npx threadmark` is the clone's bin, which is what npx resolves it to in a clone.
 */
async function run(example: Example, cwd: string): Promise<string | undefined> {
  const curlHome = join(dir, `curl-${++client}`);
  mkdirSync(curlHome);
  writeFileSync(
    join(curlHome, '.curlrc'),
    `fail-with-body\nshow-error\nsilent\nheader = "X-Forwarded-For: 10.${client >> 8}.${client & 255}.1"\n`,
  );
  const script = [...example.setup, example.command]
    .map((l) =>
      l
        .replaceAll(DOCUMENTED_BASE, base)
        .replaceAll(DOCUMENTED_SIM, stack.sim.url)
        .replaceAll(DOCUMENTED_CALLBACK, receiver.url)
        .replace(/^npx threadmark /, `node '${BIN}' `),
    )
    .join('\n');
  // The reader has pasted the demo's export lines; a block's own assignments come after them.
  const exports = Object.fromEntries(
    Object.entries(demoExports).map(([k, v]) => [k, v.replaceAll(DOCUMENTED_BASE, base)]),
  );
  const r = await runProcess('bash', ['-o', 'pipefail', '-c', script], {
    cwd,
    env: { ...exports, HOME: cwd, CURL_HOME: curlHome, LOG_LEVEL: 'silent' },
    timeoutMs: 120_000,
  });
  if (r.code === 0) return undefined;
  return `${example.command}\n  exit ${r.code}: ${(r.stderr || r.stdout).trim().slice(0, 400)}`;
}

const CLIENT_SOURCE = join(ROOT, 'src/client/index.ts');

/**
 * A TypeScript example as a module of its own: `threadmark-client` is the clone's source, the documented base this
 * service. A preloaded module gives the program's requests a client address of their own, as .curlrc does for curl.
 */
function tsProgram(block: string): string {
  return block.replaceAll("'threadmark-client'", `'${CLIENT_SOURCE}'`).replaceAll(DOCUMENTED_BASE, base);
}

async function runTypeScript(blocks: { file: string; block: string }[]): Promise<void> {
  const cwd = mkdtempSync(join(dir, 'ts-'));
  const preload = join(cwd, 'address.mjs');
  writeFileSync(
    preload,
    `const ip = process.env.EXAMPLE_ADDRESS;\nconst f = globalThis.fetch;\n` +
      `globalThis.fetch = (input, init = {}) => { const h = new Headers(init.headers); h.set('x-forwarded-for', ip); return f(input, { ...init, headers: h }); };\n`,
  );
  const files = blocks.map(({ file, block }, i) => {
    const path = join(cwd, `${file.replace(/\W+/g, '-')}-${i + 1}.mts`);
    writeFileSync(path, tsProgram(block));
    return path;
  });
  // Type-checked as a reader's program would be, against the client's own types. The server's entry joins the
  // program for the Fastify declarations its route files rely on.
  const checked = await typeCheck(cwd, [...files, join(ROOT, 'src/server.ts')], {
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
  });
  assert.ok(checked.ok, `tsc\n${checked.output}`);
  const failures: string[] = [];
  for (const file of files) {
    const r = await runProcess(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(preload).href, file], {
      cwd: ROOT,
      env: { EXAMPLE_ADDRESS: `10.250.${++client & 255}.1` },
      timeoutMs: 120_000,
    });
    if (r.code !== 0) failures.push(`${file}\n  exit ${r.code}: ${(r.stderr || r.stdout).trim().slice(0, 600)}`);
  }
  assert.deepEqual(failures, [], `${failures.length} of ${files.length} TypeScript examples failed`);
}

async function runAll(examples: Example[], label: string): Promise<void> {
  const cwd = mkdtempSync(join(dir, 'cwd-'));
  // The archive `threadmark import` examples read: alice_dev's, as X's data export would hold it.
  await writeZip(aliceArchive(), join(cwd, 'twitter-archive.zip'));
  const failures: string[] = [];
  for (const example of examples) {
    const failure = await run(example, cwd);
    if (failure) failures.push(failure);
  }
  assert.deepEqual(failures, [], `${label}: ${failures.length} of ${examples.length} examples failed`);
}

// Well over a hundred examples, each a process of its own: more than the runner's five minutes on a loaded machine.
describe('the documentation examples run against the demo set-up', { timeout: 900_000 }, () => {
  for (const file of MARKDOWN) {
    const examples = markdownShellBlocks(readFileSync(join(ROOT, file), 'utf8')).flatMap(examplesOf);
    if (!examples.length) continue;
    test(`${file}: ${examples.length} examples`, () => runAll(examples, file));
  }

  const programs = MARKDOWN.flatMap((file) =>
    markdownTypeScriptBlocks(readFileSync(join(ROOT, file), 'utf8')).map((block) => ({ file, block })),
  );
  test(`${programs.length} TypeScript examples: type-checked, then run`, () => runTypeScript(programs));

  for (const path of PAGES) {
    test(`${path}: every example`, async () => {
      const res = await fetch(base + path);
      assert.equal(res.status, 200);
      const examples = htmlCodeBlocks(await res.text()).flatMap(examplesOf);
      assert.ok(path !== '/docs' || examples.length > 30, `${path}: the quick start and one example per route`);
      await runAll(examples, path);
    });
  }

  test('the guides served under /docs carry exactly the examples of their docs/*.md', async () => {
    for (const guide of GUIDES) {
      const res = await fetch(base + guidePath(guide.slug));
      assert.equal(res.status, 200);
      const served = htmlCodeBlocks(await res.text()).flatMap(examplesOf);
      const source = markdownShellBlocks(readFileSync(join(ROOT, 'docs', `${guide.slug}.md`), 'utf8'))
        .flatMap(examplesOf)
        .map((e) => ({
          setup: e.setup.map((l) => l.replaceAll(DOCUMENTED_BASE, base)),
          command: e.command.replaceAll(DOCUMENTED_BASE, base),
        }));
      assert.deepEqual(served, source, guide.slug);
    }
  });

  test("docs/cli.md's demo watch fired: the simulated post reached the watch's callback", async () => {
    const cli = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    assert.match(cli, /watch create \/alice_dev --callback http:\/\/127\.0\.0\.1:9099\/hook/);
    assert.match(cli, /__sim\/posts.*A new post/);
    await until(() => receiver.of('POST').some((r) => r.body.includes('A new post')), 'the webhook', {
      limitMs: 60_000,
      stepMs: 250,
    });
  });

  test('the README and the guides have examples to run', () => {
    for (const file of ['README.md', 'docs/api.md', 'docs/feeds.md', 'docs/cli.md', 'docs/mcp.md']) {
      const examples = markdownShellBlocks(readFileSync(join(ROOT, file), 'utf8')).flatMap(examplesOf);
      assert.ok(examples.length >= 2, `${file} has ${examples.length} examples`);
    }
    for (const file of ['README.md', 'docs/client.md']) {
      const blocks = markdownTypeScriptBlocks(readFileSync(join(ROOT, file), 'utf8'));
      assert.ok(
        blocks.some((b) => b.includes("from 'threadmark-client'")),
        `${file} shows the client`,
      );
    }
  });

  test('npx threadmark resolves to the clone’s own bin', async () => {
    const r = await runProcess('npx', ['--no-install', 'threadmark', '--version'], { cwd: ROOT, env: { HOME: dir } });
    assert.equal(r.code, 0, r.stderr);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(r.stdout.trim(), pkg.version);
  });
});
