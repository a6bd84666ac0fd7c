// An X Article renders whole whichever provider serves it: the X provider reads the body from the article's
// content blocks as the FxTwitter adapter does, the links X keeps in each block's `data` (URLs, mentions,
// hashtags) are links, and the post's JSON `text` is the article's title and preview, not its bare link.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { writeSessions } from '../helpers/x-sessions.ts';
import { mcpCall } from '../helpers/mcp.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-articles-'));
let sim: Simulator;
const stacks = new Map<string, Stack>();

before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  const sessions = writeSessions(dir, 'art');
  for (const order of ['fxtwitter', 'x', 'syndication'])
    stacks.set(order, await startStack({ THREADMARK_PROVIDERS: order, THREADMARK_X_SESSIONS: sessions }, { sim }));
});
after(async () => {
  for (const s of stacks.values()) await s.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const path = `/${HANDLES.alice}/status/${IDS.article}`;
const TITLE = 'A field guide to cache invalidation';
const PREVIEW = 'Caching is easy until the data changes. This guide is opinionated and practical.';

async function read(order: string, query = ''): Promise<string> {
  const res = await stacks.get(order)!.get(`${path}?thread=off${query}`);
  const body = await res.text();
  assert.equal(res.status, 200, `${order}: ${body.slice(0, 300)}`);
  return body;
}

for (const order of ['fxtwitter', 'x']) {
  describe(`an Article served by ${order}`, () => {
    test('renders its whole body with the links of its blocks, in Markdown and through MCP', async () => {
      const md = await read(order);
      for (const shown of [
        'Why invalidation is hard',
        'Three strategies',
        'Coalesce concurrent misses',
        'cache.set(key, hit, { ttl: 300 });',
      ])
        assert.ok(md.includes(shown), `${order}: "${shown}" in\n${md}`);
      assert.ok(
        md.includes('(https://martinfowler.com/bliki/TwoHardThings.html)'),
        `${order}: the URL in block data is a link`,
      );
      assert.ok(md.includes('(https://x.com/alice_dev)'), `${order}: the mention is a link`);
      assert.ok(md.includes(`(${TEST_BASE}/hashtag/caching)`), `${order}: the hashtag links to its page here`);
      const mcp = await mcpCall(stacks.get(order)!.url, 'read_post', {
        handle: HANDLES.alice,
        id: IDS.article,
        thread: 'off',
      });
      assert.ok(mcp.includes('Coalesce concurrent misses'), `${order}: MCP gets the body`);
    });
  });
}

for (const order of ['fxtwitter', 'x']) {
  test(`bold that ends in punctuation before a letter renders bold, and the Article is linked on x.com (${order})`, async () => {
    const md = await read(order);
    const html = new MarkdownIt('commonmark').render(md);
    assert.ok(html.includes('<strong>برای Linux/macOS/WSL2</strong>:این دستور'), `${order}: ${md}`);
    assert.ok(html.includes(`<a href="https://x.com/i/article/${IDS.articleEntity}">`), `${order}: ${md}`);
  });
}

for (const order of ['fxtwitter', 'x', 'syndication']) {
  test(`the JSON text of an Article post is its title and preview (${order})`, async () => {
    const body = JSON.parse(await read(order, '&format=json')) as { post: { text: string } };
    assert.equal(body.post.text, `${TITLE}\n\n${PREVIEW}`);
  });
}
