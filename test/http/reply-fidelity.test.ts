// Replies as the upstreams really send them, through the real server against the simulator:
// - FxTwitter does not keep X's ranking inside a conversation page: the read ranks replies itself (likes for `top`,
//   newest first for `recent`), whatever order the page lists them in.
// - A reply whose parent handle X left out nests under its parent where the payload still has the parent's id
//   (X, syndication), stays top level where it has nothing (FxTwitter v2), and never reads "Replying to @".
// - A GIF in a reply keeps its alt text; an app/website "unified card" links to its real destination.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { IDS } from '../../sim/corpus.ts';
import { fxConversationOrder } from '../../sim/routes/fxtwitter.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { writeSessions } from '../helpers/x-sessions.ts';
import { mcpCall } from '../helpers/mcp.ts';

interface Node {
  post: { id: string; replyTo?: { id?: string; handle: string }; media: { altText?: string }[] };
  children: Node[];
}
interface PostJson {
  markdown: string;
  post: { card?: { url: string; title?: string; domain?: string } };
  conversation: { replies: Node[] };
}

const dir = mkdtempSync(join(tmpdir(), 'threadmark-replies-'));
let sim: Simulator;
const stacks = new Map<string, Stack>();

before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  const sessions = writeSessions(dir, 'rf');
  for (const order of ['fxtwitter', 'x', 'syndication'])
    stacks.set(
      order,
      await startStack({ THREADMARK_PROVIDERS: order, THREADMARK_X_SESSIONS: sessions }, { sim, fastPath: false }),
    );
});
afterEach(() => {
  fxConversationOrder.scrambled = false;
});
after(async () => {
  for (const s of stacks.values()) await s.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

async function read(order: string, handle: string, id: string, query = ''): Promise<PostJson> {
  const res = await stacks.get(order)!.get(`/${handle}/status/${id}?format=json${query}`);
  const text = await res.text();
  assert.equal(res.status, 200, `${order}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as PostJson;
}

const ROOT = ['reader_0421', IDS.fidelityRoot] as const;
const ids = (nodes: Node[]) => nodes.map((n) => n.post.id);
/** "Replying to @" with no handle after it, as text or as a link. */
const NO_HANDLE = /Replying to \[?@(?!\w)/;

describe('reply order from FxTwitter is ours, not the page order', () => {
  test('top ranks by likes and recent by time, with the upstream page served in reverse', async () => {
    fxConversationOrder.scrambled = true;
    // The reply without its parent's handle is top level on FxTwitter (1 like, latest): left out of the pair.
    const pair = (nodes: Node[]) => ids(nodes).filter((id) => id !== IDS.handlelessReply);
    const top = await read('fxtwitter', ...ROOT, '&replies=top');
    assert.deepEqual(pair(top.conversation.replies), [IDS.gifReply, IDS.lateReply], 'top: 50 likes before 40');
    const recent = await read('fxtwitter', ...ROOT, '&replies=recent');
    assert.deepEqual(pair(recent.conversation.replies), [IDS.lateReply, IDS.gifReply], 'recent: newest first');
    assert.ok(
      recent.markdown.indexOf(`/status/${IDS.lateReply}`) < recent.markdown.indexOf(`/status/${IDS.gifReply}`),
      'the Markdown lists them in that order too',
    );
  });
});

describe('a reply whose parent handle X left out', () => {
  for (const order of ['x', 'fxtwitter']) {
    test(`is placed by its parent id where the payload has one (${order})`, async () => {
      const body = await read(order, ...ROOT, '&replies=top');
      const gif = body.conversation.replies.find((n) => n.post.id === IDS.gifReply);
      assert.ok(gif, `${order}: the GIF reply is listed`);
      const nested = ids(gif.children).includes(IDS.handlelessReply);
      const topLevel = ids(body.conversation.replies).includes(IDS.handlelessReply);
      // X still sends the parent's id; FxTwitter's v2 reply object is null without the handle.
      assert.equal(nested, order === 'x', `${order}: nested under the GIF reply`);
      assert.equal(topLevel, order !== 'x', `${order}: top level when the parent is unknown`);
      assert.ok(!NO_HANDLE.test(body.markdown), body.markdown);
    });
  }

  for (const order of ['x', 'syndication']) {
    test(`read on its own, it walks up to its parent by id and never says "Replying to @" (${order})`, async () => {
      const body = await read(order, 'reader_0424', IDS.handlelessReply);
      assert.ok(body.markdown.includes(`/status/${IDS.gifReply}`), `${order}: the parent is shown`);
      assert.ok(!NO_HANDLE.test(body.markdown), body.markdown);
      const alone = await read(order, 'reader_0424', IDS.handlelessReply, '&thread=off');
      assert.ok(
        alone.markdown.includes(`Replying to [a post](https://x.com/i/status/${IDS.gifReply})`),
        alone.markdown,
      );
    });
  }
});

// FxTwitter serves a GIF in its video shape, which carries no alt text (FxEmbed's processMedia sets `altText` only
// on photos and transcoded GIFs): there is none to keep.
describe('alt text of a GIF in a reply', () => {
  for (const order of ['x', 'syndication']) {
    test(`is kept in the reply line and the JSON (${order})`, async () => {
      const body = await read(order, 'reader_0422', IDS.gifReply, '&thread=off');
      assert.ok(body.markdown.includes('A cat pushing a glass off a table'), `${order}: ${body.markdown}`);
    });
  }

  for (const order of ['x']) {
    test(`is kept among the replies of the conversation (${order})`, async () => {
      const body = await read(order, ...ROOT);
      const gif = body.conversation.replies.find((n) => n.post.id === IDS.gifReply)!;
      assert.equal(gif.post.media[0]?.altText, 'A cat pushing a glass off a table');
      assert.ok(body.markdown.includes('GIF: A cat pushing a glass off a table'), body.markdown);
    });
  }
});

describe('an app/website unified card', () => {
  for (const order of ['x', 'syndication']) {
    test(`links to its real destination, not https://twitter.com (${order})`, async () => {
      const body = await read(order, 'reader_0425', IDS.websiteCard, '&thread=off');
      assert.deepEqual(
        { url: body.post.card?.url, title: body.post.card?.title, domain: body.post.card?.domain },
        { url: 'https://status.example.net/?utm_source=x', title: 'Example status page', domain: 'status.example.net' },
      );
      assert.ok(body.markdown.includes('(https://status.example.net/?utm_source=x)'), body.markdown);
      assert.ok(!body.markdown.includes('(https://twitter.com)'), body.markdown);
      const mcp = await mcpCall(stacks.get(order)!.url, 'read_post', {
        handle: 'reader_0425',
        id: IDS.websiteCard,
        thread: 'off',
      });
      assert.ok(mcp.includes('https://status.example.net/?utm_source=x'), mcp);
    });
  }
});
