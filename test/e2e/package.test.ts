// The published packages as a user gets them: `npm pack` of `threadmark` (its prepack builds the bundles) and of
// `threadmark-client` (packages/client; its prepack builds the client's module and declarations) from a copy of
// the sources. The service's tarball is installed into an empty folder with npm's cache, then the installed
// `threadmark` reads against the simulator in-process and `threadmark serve` answers `threadmark --server` and the
// installed client. The client's tarball is installed into another empty folder as a user would, on whatever Node
// runs this file: no warning, one package, no install script, declarations that import no package and type-check a
// consumer program. Installing builds nothing native (see below), so the file's time is bounded by the packs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { simEnv } from '../helpers/instance.ts';
import { upstreamEnv } from '../helpers/stack.ts';
import { typeCheck } from '../helpers/consumer-tsc.ts';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
let sim: Simulator;
let dir: string;
let app: string;
let clientApp: string;
let tarball: string;
let files: string[];
let clientFiles: string[];
let clientInstall: string;

/** What `npm pack` needs of the repository: the sources it builds from, not the tests, benchmarks or simulator. */
const PACKED_FROM = [
  'package.json',
  'README.md',
  'tsconfig.json',
  'tsconfig.types.json',
  'bin',
  'packages',
  'scripts',
  'src',
  'docs',
];

before(
  async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'threadmark-package-'));
    // A copy, so the build does not rewrite the dist/ other tests run from.
    const src = join(dir, 'src-copy');
    for (const entry of PACKED_FROM) cpSync(join(ROOT, entry), join(src, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(src, 'node_modules'));
    const pack = async (cwd: string) => {
      const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd, maxBuffer: 1 << 24 });
      const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as [
        { filename: string; size: number; files: { path: string }[] },
      ];
      return { tarball: join(dir, info.filename), files: info.files.map((f) => f.path) };
    };
    ({ tarball, files } = await pack(src));
    const client = await pack(join(src, 'packages/client'));
    clientFiles = client.files;
    clientApp = join(dir, 'client-app');
    mkdirSync(clientApp);
    writeFileSync(join(clientApp, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // As a user installs it: nothing of this test's npm environment (npm test's npm_config_*), an empty home.
    const home = join(dir, 'client-home');
    mkdirSync(home);
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', client.tarball], {
      cwd: clientApp,
      env: { PATH: process.env.PATH ?? '', HOME: home },
    });
    clientInstall = installed.stdout + installed.stderr;
    app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // npm's cache, no install scripts: better-sqlite3's native build is npm's and that package's own business. Node 24
    // and later use node:sqlite; older lines get the binding the repository built for this very Node.
    await run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball], {
      cwd: app,
      maxBuffer: 1 << 24,
    });
    const sqlite = join(app, 'node_modules/better-sqlite3');
    const version = (p: string) =>
      (JSON.parse(readFileSync(join(p, 'package.json'), 'utf8')) as { version: string }).version;
    const built = join(ROOT, 'node_modules/better-sqlite3');
    if (existsSync(join(built, 'build')) && version(built) === version(sqlite)) {
      cpSync(join(built, 'build'), join(sqlite, 'build'), { recursive: true });
    }
  },
  { timeout: 600_000 },
);

after(async () => {
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const bin = () => join(app, 'node_modules/.bin/threadmark');
const env = () => ({ PATH: process.env.PATH ?? '', HOME: dir, THREADMARK_KEYS_DB: join(dir, `keys-${Date.now()}.db`) });

test('the tarball holds the bundles and the guides; no tests, benchmarks, simulator or client build', () => {
  for (const f of ['bin/threadmark.mjs', 'dist/cli.mjs', 'docs/api.md']) assert.ok(files.includes(f), f);
  const stray = files.filter((f) =>
    /^(test|bench|sim|src|scripts|deploy|skills|packages)\/|^dist\/(client|types)|\.map$|node_modules/.test(f),
  );
  assert.deepEqual(stray, []);
});

/** Every file under `dir`, relative to it. */
const walk = (dir: string, at = ''): string[] =>
  readdirSync(join(dir, at), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(dir, join(at, e.name)) : [join(at, e.name)],
  );

test('threadmark-client installs into an empty project alone, with no warning and no install script', () => {
  assert.doesNotMatch(clientInstall, /warn|ERR!|deprecated/i, clientInstall);
  assert.match(clientInstall, /added 1 package\b/, clientInstall);
  assert.deepEqual(
    readdirSync(join(clientApp, 'node_modules')).filter((f) => !f.startsWith('.')),
    ['threadmark-client'],
  );
  const root = join(clientApp, 'node_modules/threadmark-client');
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(manifest.dependencies, undefined);
  assert.equal(manifest.peerDependencies, undefined);
  const scripts = (manifest.scripts ?? {}) as Record<string, string>;
  for (const s of ['preinstall', 'install', 'postinstall', 'prepare']) assert.equal(scripts[s], undefined, s);
  assert.deepEqual(
    clientFiles.filter((f) => !/^(package\.json|README\.md|dist\/index\.mjs|dist\/types\/.+\.d\.ts)$/.test(f)),
    [],
  );
  assert.doesNotMatch(readFileSync(join(root, 'dist/index.mjs'), 'utf8'), /\bnode:|\bfrom\s*['"][^'"./]/);
  for (const file of walk(join(root, 'dist/types'))) {
    const text = readFileSync(join(root, 'dist/types', file), 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
      assert.ok(m[1]!.startsWith('.'), `${file} imports ${m[1]}`);
    }
    assert.doesNotMatch(text, /zod|Zod/, file);
  }
});

test(
  'the installed threadmark reads a post in-process against the simulator, without dev dependencies',
  { timeout: 120_000 },
  async () => {
    assert.ok(!existsSync(join(app, 'node_modules/tsx')) && !existsSync(join(app, 'node_modules/typescript')));
    const { stdout } = await run(bin(), ['read', `${HANDLES.alice}/status/${IDS.threadRoot}`, '--thread', 'off'], {
      cwd: app,
      env: { ...env(), ...upstreamEnv(sim) },
    });
    assert.match(stdout, new RegExp(`@${HANDLES.alice}`));
  },
);

test('threadmark serve answers the installed typed client and threadmark --server', { timeout: 180_000 }, async () => {
  const child = spawn(bin(), ['serve'], {
    cwd: app,
    env: { ...env(), ...simEnv(sim) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  try {
    const deadline = Date.now() + 120_000;
    let port: number | undefined;
    while (port === undefined) {
      const m = /"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/.exec(out);
      if (m) port = Number(m[1]);
      else if (child.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not listen: ${out}`);
      else await sleep(100);
    }
    const base = `http://127.0.0.1:${port}`;
    const entry = join(clientApp, 'node_modules/threadmark-client/dist/index.mjs');
    const { createClient } = (await import(pathToFileURL(entry).href)) as typeof import('../../src/client/index.ts');
    const client = createClient({ baseUrl: base });
    const read = await client.post({ handle: HANDLES.alice, id: IDS.threadRoot, thread: 'off' });
    assert.equal(read.post.id, IDS.threadRoot);
    const { stdout } = await run(bin(), ['profile', HANDLES.alice, '--server', base], { cwd: app, env: env() });
    assert.match(stdout, new RegExp(`@${HANDLES.alice}`));
  } finally {
    const exited = child.exitCode === null ? once(child, 'exit') : Promise.resolve();
    child.kill('SIGTERM');
    await exited;
  }
});

test(
  'a consumer program type-checks against the installed declarations, and wrong uses do not',
  { timeout: 240_000 },
  async () => {
    writeFileSync(
      join(clientApp, 'main.ts'),
      `import { createClient, ThreadmarkError, type ErrorCode } from 'threadmark-client';
const client = createClient({ baseUrl: 'http://localhost:8080', retry: { retries: 3 } });
const { post, thread } = await client.post({ handle: 'alice_dev', id: '1900000000000000001', thread: 'full' });
const handle: string = post.author.handle;
const ids: string[] = thread.map((p) => p.id);
for await (const account of client.followers('alice_dev', { limit: 5 })) console.log(account.handle, handle, ids);
const page = await client.search('caching', { feed: 'latest', since_id: '1' }).page();
const next: string | undefined = page.nextCursor;
const exported = client.export('alice_dev', { max_posts: 10 });
for await (const p of exported) console.log(p.createdAt, next);
const reason: string | undefined = exported.end?.reason;
try {
  await client.profile('nobody_here_404').page();
} catch (e) {
  if (e instanceof ThreadmarkError) {
    const code: ErrorCode = e.code;
    console.log(code === 'not_found', e.status, e.resolution, reason, client.rateLimit?.remaining);
  }
}
// @ts-expect-error: not a parameter of the followers read
client.followers('alice_dev', { bogus: 1 });
// @ts-expect-error: a post's text is a string
export const n: number = post.text;
// @ts-expect-error: not a catalog code
export const c: ErrorCode = 'no_such_code';
`,
    );
    const checked = await typeCheck(clientApp, ['main.ts'], {
      skipLibCheck: false,
      types: [],
      lib: ['ES2022', 'DOM', 'DOM.AsyncIterable'],
    });
    assert.ok(checked.ok, `tsc\n${checked.output}`);
  },
);
