// `lang` through the CLI (`threadmark read --lang`, in-process and against a running service) and the MCP
// `read_post` tool over both transports (HTTP /mcp and `threadmark mcp` on stdio).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRANSLATED_HANDLES as TH, TRANSLATED_IDS as TI } from '../../sim/corpus-translations.ts';
import { startStack, upstreamEnv, type Stack } from '../helpers/stack.ts';
import { runBin } from '../helpers/cli-bin.ts';
import { stdioMcpClient } from '../helpers/mcp-stdio.ts';
import { mcpCall } from '../helpers/mcp.ts';

let stack: Stack;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threadmark-xlate-'));
  stack = await startStack();
});
after(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

const POST = `${TH.kenji}/status/${TI.jaRoot}`;
const LABEL = /Translated from Japanese \(ja → en\) by Grok via fxtwitter:\*\* Today I'll talk about caching\./;
const env = () => ({ ...upstreamEnv(stack.sim), THREADMARK_KEYS_DB: join(dir, 'keys.db'), LOG_LEVEL: 'silent' });

describe('CLI', () => {
  test('read --lang against a running service and in-process', async () => {
    const remote = await runBin(['read', POST, '--thread', 'off', '--lang', 'en', '--server', stack.url], { cwd: dir });
    assert.equal(remote.code, 0, remote.stderr);
    assert.match(remote.stdout, LABEL);
    const local = await runBin(['read', POST, '--thread', 'off', '--lang', 'en', '--format', 'json'], {
      cwd: dir,
      env: env(),
    });
    assert.equal(local.code, 0, local.stderr);
    const body = JSON.parse(local.stdout) as { post: { translation?: { text: string; from: string } } };
    assert.equal(body.post.translation?.from, 'ja');
  });

  test('a bad --lang names the flag and exits 2 with invalid_lang', async () => {
    const r = await runBin(['read', POST, '--lang', '../../etc', '--server', stack.url], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^threadmark: invalid_lang: .*--lang/);
  });
});

describe('MCP', () => {
  test('read_post takes lang over HTTP /mcp', async () => {
    const text = await mcpCall(stack.url, 'read_post', { handle: TH.kenji, id: TI.jaRoot, thread: 'off', lang: 'en' });
    assert.match(text, LABEL);
  });

  test('read_post takes lang over stdio (threadmark mcp)', async () => {
    const client = await stdioMcpClient(env(), dir, 'threadmark-xlate-test');
    try {
      const r = (await client.callTool({
        name: 'read_post',
        arguments: { url: `https://x.com/${POST}`, thread: 'off', lang: 'en' },
      })) as {
        isError?: boolean;
        content: { text?: string }[];
        structuredContent?: { post: { translation?: unknown } };
      };
      assert.ok(!r.isError, r.content[0]?.text);
      assert.match(r.content[0]!.text!, LABEL);
      assert.ok(r.structuredContent?.post.translation, 'the structured result carries the translation');
      const bad = (await client.callTool({
        name: 'read_post',
        arguments: { url: `https://x.com/${POST}`, lang: 'x'.repeat(140) },
      })) as {
        isError?: boolean;
        content: { text?: string }[];
      };
      assert.ok(bad.isError);
      assert.match(bad.content[0]!.text!, /invalid_lang/);
    } finally {
      await client.close();
    }
  });
});
