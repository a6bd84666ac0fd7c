// In-process, nothing listens at the service's default address (http://localhost:8080), so the CLI and the stdio MCP
// server link to X's canonical permalinks unless THREADMARK_BASE_URL names where the service really is.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES } from '../../sim/corpus.ts';
import { upstreamEnv } from '../helpers/stack.ts';
import { runBin } from '../helpers/cli-bin.ts';
import { stdioMcpClient } from '../helpers/mcp-stdio.ts';

let sim: Simulator;
let dir: string;
before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'threadmark-links-'));
});
after(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The simulator's upstreams, and no THREADMARK_BASE_URL: the service's address is left to its default. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  const { THREADMARK_BASE_URL: _unset, ...upstreams } = upstreamEnv(sim);
  return { ...upstreams, THREADMARK_KEYS_DB: join(dir, 'keys.db'), LOG_LEVEL: 'silent', ...extra };
}

test('CLI in-process: profile and followers link to x.com, not to a localhost nothing listens on', async () => {
  const profile = await runBin(['profile', HANDLES.bob, '--limit', '3'], { cwd: dir, env: env() });
  assert.equal(profile.code, 0, profile.stderr);
  assert.doesNotMatch(profile.stdout, /localhost/);
  assert.ok(profile.stdout.includes(`(https://x.com/${HANDLES.bob}/followers)`), profile.stdout);
  const followers = await runBin(['followers', HANDLES.bob, '--limit', '3'], { cwd: dir, env: env() });
  assert.equal(followers.code, 0, followers.stderr);
  assert.doesNotMatch(followers.stdout, /localhost/);
  assert.match(followers.stdout, /\]\(https:\/\/x\.com\/\w+\)/);
  // The next page is the service's, not X's: the command says how to ask for it instead of linking x.com/api/….
  const paged = await runBin(['followers', HANDLES.big, '--limit', '2'], { cwd: dir, env: env() });
  assert.equal(paged.code, 0, paged.stderr);
  assert.doesNotMatch(paged.stdout, /x\.com\/api\//);
  const next = /^Continue → --cursor (\S+)$/m.exec(paged.stdout);
  assert.ok(next, paged.stdout);
  const second = await runBin(['followers', HANDLES.big, '--limit', '2', '--cursor', next[1]!], {
    cwd: dir,
    env: env(),
  });
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /Page 2/);
});

test('CLI in-process with THREADMARK_BASE_URL links there', async () => {
  const r = await runBin(['profile', HANDLES.bob, '--limit', '3'], {
    cwd: dir,
    env: env({ THREADMARK_BASE_URL: 'https://reader.example' }),
  });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes(`(https://reader.example/${HANDLES.bob}/followers)`), r.stdout);
});

test('stdio MCP in-process: a profile links to x.com permalinks', async () => {
  const client = await stdioMcpClient(env(), dir, 'threadmark-links-test');
  try {
    const r = (await client.callTool({
      name: 'read_profile',
      arguments: { handle: HANDLES.alice, limit: 3 },
    })) as { isError?: boolean; content: Array<{ text?: string }> };
    assert.ok(!r.isError, r.content[0]?.text);
    const text = r.content[0]!.text!;
    assert.doesNotMatch(text, /localhost/);
    assert.ok(text.includes(`(https://x.com/${HANDLES.alice}/followers)`), text);
    // The next page is this service's, not X's: the tool's own cursor argument, never a link to x.com/api/….
    assert.doesNotMatch(text, /x\.com\/api\//);
    const next = /^Continue → pass cursor=`([^`]+)`$/m.exec(text);
    assert.ok(next, text);
    const page2 = (await client.callTool({
      name: 'read_profile',
      arguments: { handle: HANDLES.alice, limit: 3, cursor: next[1] },
    })) as { isError?: boolean; content: Array<{ text?: string }> };
    assert.ok(!page2.isError, page2.content[0]?.text);
  } finally {
    await client.close();
  }
});
