// `thread=N` through the real server and simulator: the count is the contract's (posts in all), but the warning
// and the Markdown's closing line say in a reader's words which thread posts, earlier posts and replies were kept
// and left out, and link the whole read (the same options, without `thread`).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';

interface PostJson {
  markdown: string;
  thread: { id: string }[];
  conversation: { parents: unknown[]; replies: unknown[] };
  warnings: string[];
}

const rootUrl = `${TEST_BASE}/${HANDLES.alice}/status/${IDS.threadRoot}`;

describe('thread=N says what it cut', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(() => s.close());

  const read = async (id: string, query: string, handle: string = HANDLES.alice) => {
    const res = await s.get(`/${handle}/status/${id}?format=json&${query}`);
    assert.equal(res.status, 200);
    return { json: (await res.json()) as PostJson, headers: res.headers };
  };

  test('a 12-post thread with 16 replies cut to 3: the thread posts kept, the replies left out, the whole read', async () => {
    const { json, headers } = await read(IDS.threadRoot, 'thread=3');
    assert.equal(json.thread.length, 3);
    assert.equal(headers.get('x-post-count'), '3');
    const said =
      'truncated to 3 of 28 posts (thread=3): kept 3 of 12 thread posts and none of 16 replies; ' +
      `left out 9 thread posts and 16 replies; the whole read: ${rootUrl}`;
    assert.deepEqual(json.warnings, [said]);
    assert.equal(headers.get('x-warnings'), said);
    assert.match(json.markdown, /^# Thread by .* · 3 of 12 posts$/m);
    const closing = json.markdown.trimEnd().split('\n').at(-1)!;
    assert.equal(
      closing,
      `*Cut to 3 of 28 posts (thread=3): kept 3 of 12 thread posts and none of 16 replies; left out 9 thread posts ` +
        `and 16 replies.* [Read it all](${rootUrl})`,
    );
    const html = new MarkdownIt('commonmark').render(json.markdown);
    assert.ok(html.includes(`<a href="${rootUrl}">Read it all</a>`), 'the link is a link');
  });

  test('a cut that keeps the whole thread and some replies says so; the link keeps the other options', async () => {
    const { json } = await read(IDS.threadRoot, 'thread=15&replies=recent&userinfo=author');
    assert.equal(json.thread.length, 12);
    const url = `${rootUrl}?replies=recent&userinfo=author`;
    assert.deepEqual(json.warnings, [
      'truncated to 15 of 28 posts (thread=15): kept all 12 thread posts and 3 of 16 replies; ' +
        `left out 13 replies; the whole read: ${url}`,
    ]);
    assert.ok(json.markdown.trimEnd().endsWith(`[Read it all](${url})`), json.markdown.slice(-300));
  });

  test('earlier posts of the conversation are named as such', async () => {
    const { json } = await read(IDS.replies.bobToAlice, 'thread=2&replies=off', 'bob');
    assert.equal(json.conversation.parents.length, 1);
    assert.match(
      json.warnings[0]!,
      /^truncated to 2 of 4 posts \(thread=2\): kept the post and 1 of 3 earlier posts; left out 2 earlier posts; the whole read: /,
    );
  });

  test('nothing cut, nothing said', async () => {
    const { json } = await read(IDS.thread[11]!, 'thread=50&replies=off');
    assert.deepEqual(json.warnings, []);
    assert.doesNotMatch(json.markdown, /Read it all/);
  });
});
