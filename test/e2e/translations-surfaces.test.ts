// `translate` through the CLI (`threadmark read --translate`, in-process and against a running service; `--lang`
// still works and says it is deprecated; the list commands and export take it too), the MCP tools over both
// transports (HTTP /mcp and `threadmark mcp` on stdio) and the typed client.
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
import { createClient } from '../../src/client/index.ts';

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
const ROOT_EN = "Today I'll talk about caching. First, add jitter to your TTLs.";
const env = () => ({ ...upstreamEnv(stack.sim), THREADMARK_KEYS_DB: join(dir, 'keys.db'), LOG_LEVEL: 'silent' });

describe('CLI', () => {
  test('read --translate against a running service and in-process', async () => {
    const remote = await runBin(['read', POST, '--thread', 'off', '--translate', 'en', '--server', stack.url], {
      cwd: dir,
    });
    assert.equal(remote.code, 0, remote.stderr);
    assert.match(remote.stdout, LABEL);
    assert.equal(remote.stderr, '');
    const local = await runBin(['read', POST, '--thread', 'off', '--translate', 'en', '--format', 'json'], {
      cwd: dir,
      env: env(),
    });
    assert.equal(local.code, 0, local.stderr);
    const body = JSON.parse(local.stdout) as { post: { translation?: { text: string; from: string } } };
    assert.equal(body.post.translation?.from, 'ja');
  });

  test('--lang still translates a post, and says it is deprecated', async () => {
    const r = await runBin(['read', POST, '--thread', 'off', '--lang', 'en', '--server', stack.url], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, LABEL);
    assert.match(r.stderr, /--lang is deprecated: use --translate/);
  });

  test('a bad --translate names the flag and exits 2 with invalid_lang', async () => {
    const r = await runBin(['read', POST, '--translate', '../../etc', '--server', stack.url], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^threadmark: invalid_lang: .*--translate/);
  });

  test('profile --translate and export --translate', async () => {
    const profile = await runBin(['profile', TH.kenji, '--translate', 'en', '--server', stack.url], { cwd: dir });
    assert.equal(profile.code, 0, profile.stderr);
    assert.match(profile.stdout, LABEL);
    const exported = await runBin(['export', TH.kenji, '--translate', 'en', '--server', stack.url], { cwd: dir });
    assert.equal(exported.code, 0, exported.stderr);
    const root = exported.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: string; translation?: { text: string } })
      .find((p) => p.id === TI.jaRoot);
    assert.equal(root?.translation?.text, ROOT_EN);
  });
});

describe('typed client', () => {
  test('the reads that list posts take translate, typed', async () => {
    const c = createClient({ baseUrl: stack.url });
    const page = await c.profile(TH.kenji, { translate: 'en' }).page();
    assert.equal(page.items.find((p) => p.id === TI.jaRoot)?.translation?.text, ROOT_EN);
    const post = await c.post({ handle: TH.kenji, id: TI.jaRoot, thread: 'off', translate: 'en' });
    assert.equal(post.post.translation?.text, ROOT_EN);
  });
});

describe('MCP', () => {
  test('read_post and read_profile take translate over HTTP /mcp', async () => {
    const text = await mcpCall(stack.url, 'read_post', {
      handle: TH.kenji,
      id: TI.jaRoot,
      thread: 'off',
      translate: 'en',
    });
    assert.match(text, LABEL);
    assert.match(await mcpCall(stack.url, 'read_profile', { handle: TH.kenji, translate: 'en' }), LABEL);
  });

  test('read_post takes translate over stdio (threadmark mcp)', async () => {
    const client = await stdioMcpClient(env(), dir, 'threadmark-xlate-test');
    try {
      const r = (await client.callTool({
        name: 'read_post',
        arguments: { url: `https://x.com/${POST}`, thread: 'off', translate: 'en' },
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
        arguments: { url: `https://x.com/${POST}`, translate: 'x'.repeat(140) },
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
