// The CLI and stdio MCP run in-process as a desktop agent starts them: from any directory, with no service. Their
// state (keys, watches, secrets) goes to the user's state directory, not the working directory, and their problem
// documents link documentation that exists: the packaged docs/reliability.md by default, THREADMARK_DOCS_URL when set.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { upstreamEnv } from '../helpers/stack.ts';
import { runBin } from '../helpers/cli-bin.ts';
import { stdioMcpClient } from '../helpers/mcp-stdio.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
let sim: Simulator;
let dir: string;

before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'threadmark-in-process-state-'));
});
after(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The simulator's upstreams, and no THREADMARK_BASE_URL: in-process output links X, as for a user. */
function env(extra: Record<string, string>): Record<string, string> {
  const { THREADMARK_BASE_URL: _base, ...upstreams } = upstreamEnv(sim);
  return { ...upstreams, ...extra };
}

function fresh(name: string): { cwd: string; home: string } {
  const cwd = join(dir, name, 'cwd');
  const home = join(dir, name, 'home');
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  return { cwd, home };
}

test('an in-process read keeps its state in ~/.local/state/threadmark, not the working directory', async () => {
  const { cwd, home } = fresh('home-state');
  const r = await runBin(['read', `${HANDLES.alice}/status/${IDS.threadRoot}`, '--thread', 'off'], {
    cwd,
    env: env({ HOME: home }),
    timeoutMs: 60_000,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readdirSync(cwd), []);
  assert.ok(existsSync(join(home, '.local/state/threadmark/keys.db')));
});

test('XDG_STATE_HOME moves it; THREADMARK_KEYS_DB still wins', async () => {
  const { cwd, home } = fresh('xdg-state');
  const xdg = join(dir, 'xdg-state', 'xdg');
  const r = await runBin(['about', HANDLES.alice], { cwd, env: env({ HOME: home, XDG_STATE_HOME: xdg }) });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(xdg, 'threadmark/keys.db')));
  const keys = join(dir, 'xdg-state', 'mine', 'keys.db');
  mkdirSync(join(dir, 'xdg-state', 'mine'));
  const mine = await runBin(['about', HANDLES.alice], {
    cwd,
    env: env({ HOME: home, XDG_STATE_HOME: xdg, THREADMARK_KEYS_DB: keys }),
  });
  assert.equal(mine.code, 0, mine.stderr);
  assert.ok(existsSync(keys));
  assert.deepEqual(readdirSync(cwd), []);
});

interface ToolResult {
  isError?: boolean;
  content: { text?: string }[];
}

async function missingPostProblem(extra: Record<string, string>, name: string): Promise<Record<string, string>> {
  const { cwd, home } = fresh(name);
  const client = await stdioMcpClient(env({ HOME: home, ...extra }), cwd, name);
  try {
    const r = (await client.callTool({
      name: 'read_post',
      arguments: { url: `https://x.com/${HANDLES.alice}/status/1900000000000009999` },
    })) as ToolResult;
    assert.equal(r.isError, true);
    return JSON.parse(r.content[0]!.text!) as Record<string, string>;
  } finally {
    await client.close();
  }
}

test('stdio MCP in-process: a problem links the packaged reliability reference, which holds its entry', async () => {
  const problem = await missingPostProblem({}, 'mcp-default');
  assert.equal(problem.code, 'not_found');
  const docs = new URL('docs/reliability.md', `file://${ROOT}`).href;
  assert.equal(problem.type, `${docs}#not-found`);
  assert.equal(problem.documentation_url, problem.type);
  const page = readFileSync(fileURLToPath(docs), 'utf8');
  assert.match(page, /<a id="not-found"><\/a>/);
});

test('THREADMARK_DOCS_URL names where problems link; a value that is no URL is refused at start', async () => {
  const problem = await missingPostProblem({ THREADMARK_DOCS_URL: 'https://docs.example/threadmark/' }, 'mcp-set');
  assert.equal(problem.type, 'https://docs.example/threadmark/reliability#not-found');
  const { cwd, home } = fresh('bad-docs');
  const r = await runBin(['about', HANDLES.alice], {
    cwd,
    env: env({ HOME: home, THREADMARK_DOCS_URL: 'docs.example' }),
  });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /THREADMARK_DOCS_URL/);
});
