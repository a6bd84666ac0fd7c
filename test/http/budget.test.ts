// Output budgets through the real server against the simulator: the exact bound at several sizes on a long
// conversation and a long follower page, what gives way first, the warnings and closing line, JSON holding only
// what the Markdown kept, 400 on bad values, and the same through the MCP tools and the CLI.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { problemOf, startStack, type Stack, TEST_BASE } from '../helpers/stack.ts';
import { runCli } from '../../src/cli/program.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s?.close());

interface P {
  id: string;
  text: string;
  url: string;
}
interface Node {
  post: P;
  children: Node[];
}
interface PostBody {
  markdown: string;
  post: P;
  thread: P[];
  conversation: { parents: P[]; replies: Node[] };
  warnings: string[];
}

const chars = (t: string) => [...t].length;
const preorder = (ns: Node[]): string[] => ns.flatMap((n) => [n.post.id, ...preorder(n.children)]);

async function read(path: string): Promise<{ res: Response; md: string; json: PostBody }> {
  const res = await s.get(path);
  assert.equal(res.status, 200, path);
  const md = await res.text();
  const json = (await (await s.get(`${path}${path.includes('?') ? '&' : '?'}format=json`)).json()) as PostBody;
  return { res, md, json };
}

const postPath = (id: string, extra = '') =>
  `/api/v1/posts?url=${encodeURIComponent(`https://x.com/${HANDLES.alice}/status/${id}`)}${extra}`;

describe('budget on a long conversation', () => {
  let whole: PostBody;
  before(async () => {
    whole = (await read(postPath(IDS.threadRoot))).json;
    assert.ok(chars(whole.markdown) > 5000, 'a conversation long enough to cut');
    assert.ok(preorder(whole.conversation.replies).length >= 10);
  });

  for (const budget of [500, 900, 1500, 2500, 4000, 5500, 200000]) {
    test(`budget=${budget}: never over, the requested post whole, JSON = what the Markdown kept`, async () => {
      const { res, md, json } = await read(postPath(IDS.threadRoot, `&budget=${budget}`));
      assert.ok(chars(md) <= budget, `${chars(md)} > ${budget}`);
      assert.equal(json.markdown, md);
      // Never the requested post, never a post cut mid-text: every kept post's permalink and text are there.
      assert.equal(json.post.id, IDS.threadRoot);
      const kept = [...json.conversation.parents, ...json.thread];
      assert.ok(json.thread.some((p) => p.id === IDS.threadRoot));
      for (const p of kept) assert.ok(md.includes(p.url), `permalink of ${p.id}`);
      assert.equal(Number(res.headers.get('x-post-count')), kept.length + preorder(json.conversation.replies).length);
      // Replies kept are the best-ranked ones: a prefix of the rank order.
      const ranks = preorder(whole.conversation.replies);
      const keptReplies = preorder(json.conversation.replies);
      assert.deepEqual(keptReplies, ranks.slice(0, keptReplies.length));
      // Replies give way before any later post of the thread does.
      if (json.thread.length < whole.thread.length) assert.equal(keptReplies.length, 0);
      // The thread keeps its head: trailing posts give way from the end.
      assert.deepEqual(
        json.thread.map((p) => p.id),
        whole.thread.slice(0, json.thread.length).map((p) => p.id),
      );
      const warning = res.headers.get('x-warnings') ?? '';
      const cut = json.thread.length < whole.thread.length || keptReplies.length < ranks.length;
      if (cut) {
        assert.match(warning, new RegExp(`budget of ${budget} characters: left out`));
        assert.ok(json.warnings.some((w) => w.startsWith(`budget of ${budget} characters`)));
        const closing = md.trimEnd().split('\n').at(-1)!;
        assert.match(closing, /^\*Budget: left out .+\.\* \[Read it all\]\((.+)\)$/);
        const link = /\((http[^)]+)\)$/.exec(closing)![1]!;
        assert.equal(link, `${TEST_BASE}${postPath(IDS.threadRoot)}`, 'the unbudgeted read');
        const gone = ranks.length - keptReplies.length;
        if (gone) assert.match(closing, new RegExp(`${gone} repl(y|ies)`));
      } else {
        assert.equal(warning, 'none');
        assert.equal(md, whole.markdown);
      }
    });
  }

  test('the bound is exact: a budget of the unbudgeted size keeps everything, one less cuts', async () => {
    const size = chars(whole.markdown);
    const same = await read(postPath(IDS.threadRoot, `&budget=${size}`));
    assert.equal(same.md, whole.markdown);
    const less = await read(postPath(IDS.threadRoot, `&budget=${size - 1}`));
    assert.ok(chars(less.md) <= size - 1);
    assert.ok(preorder(less.json.conversation.replies).length < preorder(whole.conversation.replies).length);
  });

  test('ancestors give way oldest first, after the replies', async () => {
    // carol's reply to dave: one parent above, one reply below.
    const mid = await read(`/api/v1/posts?handle=carol&id=${IDS.carolReplyToDave}`);
    assert.equal(mid.json.conversation.parents.length, 1);
    assert.equal(preorder(mid.json.conversation.replies).length, 1);
    const size = chars(mid.md);
    const cut = await read(`/api/v1/posts?handle=carol&id=${IDS.carolReplyToDave}&budget=${Math.max(500, size - 1)}`);
    if (size - 1 >= 500) {
      assert.equal(preorder(cut.json.conversation.replies).length, 0, 'the reply goes first');
      assert.equal(cut.json.conversation.parents.length, 1, 'the parent stays while it can');
    }
    // bob's reply to carol: two ancestors (dave's root, carol's reply). The oldest gives way first.
    const deep = await read(`/api/v1/posts?handle=bob&id=${IDS.bobReplyToCarol}`);
    assert.deepEqual(
      deep.json.conversation.parents.map((p) => p.id),
      [IDS.daveRoot, IDS.carolReplyToDave],
    );
    const parentsAt = async (budget: number) =>
      (await read(`/api/v1/posts?handle=bob&id=${IDS.bobReplyToCarol}&budget=${budget}`)).json.conversation.parents.map(
        (p) => p.id,
      );
    const seen = new Set<string>();
    for (let b = chars(deep.md); b >= 500; b -= 40) seen.add(JSON.stringify(await parentsAt(b)));
    for (const ids of [...seen].map((x) => JSON.parse(x) as string[])) {
      assert.ok(
        ids.length === 2 || (ids.length === 1 && ids[0] === IDS.carolReplyToDave) || ids.length === 0,
        JSON.stringify(ids),
      );
    }
    // The author's own earlier posts of a long thread give way from the oldest, keeping the requested last post.
    const last = await read(postPath(IDS.threadLast, '&budget=1200'));
    assert.equal(last.json.thread.at(-1)!.id, IDS.threadLast);
    assert.ok(last.json.thread.length < 12);
    assert.match(last.res.headers.get('x-warnings') ?? '', /earlier posts/);
  });

  test('a requested post longer than the budget is 400 invalid_budget naming the size it needs, and that size works', async () => {
    const note = await read(`/api/v1/posts?handle=${HANDLES.alice}&id=${IDS.noteTweet}&thread=off`);
    assert.ok(chars(note.md) > 500);
    const res = await s.get(`/api/v1/posts?handle=${HANDLES.alice}&id=${IDS.noteTweet}&thread=off&budget=500`);
    assert.equal(res.status, 400);
    const problem = await problemOf(res);
    assert.equal(problem.code, 'invalid_budget');
    const needed = Number(/at least (\d+)/.exec(String(problem.detail))![1]);
    assert.equal(needed, chars(note.md));
    const ok = await read(`/api/v1/posts?handle=${HANDLES.alice}&id=${IDS.noteTweet}&thread=off&budget=${needed}`);
    assert.equal(ok.md, note.md);
  });
});

describe('budget on a long follower page', () => {
  interface ListBody {
    markdown: string;
    items: Array<{ handle: string }>;
    nextCursor?: string;
    warnings: string[];
    page: number;
    limit: number;
  }
  const path = `/api/v1/profiles/${HANDLES.big}/followers?limit=20`;

  for (const budget of [700, 777, 1200, 2000, 200000]) {
    test(`budget=${budget}: leading items that fit, never over, the envelope intact`, async () => {
      const whole = (await (await s.get(`${path}&format=json`)).json()) as ListBody;
      const res = await s.get(`${path}&budget=${budget}&format=json`);
      assert.equal(res.status, 200);
      const body = (await res.json()) as ListBody;
      assert.ok(chars(body.markdown) <= budget, `${chars(body.markdown)} > ${budget}`);
      assert.deepEqual(
        body.items.map((i) => i.handle),
        whole.items.slice(0, body.items.length).map((i) => i.handle),
      );
      assert.equal(body.page, 1);
      assert.equal(body.limit, 20);
      assert.ok(body.nextCursor, 'JSON keeps its full structure');
      assert.equal(res.headers.get('x-result-count'), String(body.items.length));
      for (const i of body.items) assert.ok(body.markdown.includes(`@${i.handle}`));
      const left = whole.items.length - body.items.length;
      if (left > 0) {
        assert.match(res.headers.get('x-warnings') ?? '', new RegExp(`left out ${left} accounts?`));
        assert.match(
          body.markdown,
          new RegExp(
            `\\*Budget: left out ${left} accounts?\\.\\* \\[Read it all\\]\\(${TEST_BASE}/api/v1/profiles/${HANDLES.big}/followers\\?limit=20\\)`,
          ),
        );
      } else {
        assert.doesNotMatch(body.markdown, /Budget: left out/);
        assert.equal(res.headers.get('x-warnings'), null);
      }
      const md = await s.get(`${path}&budget=${budget}`);
      assert.ok(chars(await md.text()) <= budget);
    });
  }
});

describe('a page frame larger than the budget', () => {
  test('is 400 invalid_budget naming the size it needs; that size is then enough', async () => {
    const path = `/api/v1/profiles/${HANDLES.big}/followers?limit=20`;
    const res = await s.get(`${path}&budget=500`);
    assert.equal(res.status, 400);
    const problem = await problemOf(res);
    assert.equal(problem.code, 'invalid_budget');
    const needed = Number(/at least (\d+)/.exec(String(problem.detail))![1]);
    assert.ok(needed > 500);
    const ok = await s.get(`${path}&budget=${needed}&format=json`);
    assert.equal(ok.status, 200);
    const body = (await ok.json()) as { markdown: string; items: unknown[]; nextCursor?: string };
    assert.ok(chars(body.markdown) <= needed);
    assert.deepEqual(body.items, []);
    assert.ok(body.nextCursor);
    assert.match(
      body.markdown.trimEnd().split('\n').at(-1)!,
      /^\[Continue →\]/,
      'the contract: a list with nextCursor ends with Continue',
    );
    assert.match(body.markdown, /\*Budget: left out 20 accounts\.\*/);
  });
});

describe('bad budgets', () => {
  for (const bad of ['499', '200001', '0', '-600', 'abc', '1e3', '600.5', '', '9999999']) {
    test(`budget=${JSON.stringify(bad)} is 400 invalid_budget everywhere`, async () => {
      for (const p of [
        postPath(IDS.threadRoot),
        `/${HANDLES.alice}/status/${IDS.threadRoot}`,
        `/api/v1/profiles/${HANDLES.alice}`,
        `/${HANDLES.big}/followers`,
        `/api/v1/profiles/${HANDLES.big}/following`,
        '/api/v1/search?q=caching',
      ]) {
        const res = await s.get(`${p}${p.includes('?') ? '&' : '?'}budget=${encodeURIComponent(bad)}`);
        assert.equal(res.status, 400, p);
        assert.equal((await problemOf(res)).code, 'invalid_budget', p);
      }
    });
  }
});

describe('budget in the MCP tools and the CLI', () => {
  test('every tool takes budget and honours it', async () => {
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      for (const t of tools) assert.ok(t.inputSchema.properties?.budget, t.name);
      const r = (await client.callTool({
        name: 'read_post',
        arguments: { handle: HANDLES.alice, id: IDS.threadRoot, budget: 1000 },
      })) as unknown as {
        content: Array<{ text: string }>;
        structuredContent: PostBody;
      };
      assert.ok(chars(r.content[0]!.text) <= 1000);
      // The Markdown is the text alone; the structured data carries the budget's verdict without repeating it.
      assert.equal(r.structuredContent.markdown, undefined);
      assert.match(r.content[0]!.text, /Budget: left out/);
      const bad = (await client.callTool({
        name: 'list_followers',
        arguments: { handle: HANDLES.big, budget: 10 },
      })) as { isError?: boolean; content: Array<{ text: string }> };
      assert.equal(bad.isError, true);
      assert.equal(JSON.parse(bad.content[0]!.text).code, 'invalid_budget');
    } finally {
      await client.close();
    }
  });

  test('threadmark read|followers --budget', async () => {
    let out = '';
    const io = { stdout: { write: (c: string) => (out += c) }, stderr: { write: () => true }, env: {} };
    assert.equal(
      await runCli(['read', `${HANDLES.alice}/status/${IDS.threadRoot}`, '--budget', '1500', '--server', s.url], io),
      0,
    );
    assert.ok(chars(out.replace(/\n$/, '')) <= 1500, String(chars(out)));
    assert.match(out, /Budget: left out/);
    out = '';
    assert.equal(await runCli(['followers', HANDLES.big, '--budget', '700', '--server', s.url], io), 0);
    assert.ok(chars(out.replace(/\n$/, '')) <= 700);
    assert.equal(await runCli(['followers', HANDLES.big, '--budget', '20', '--server', s.url], io), 2);
  });
});

describe('the discovery documents describe budget and since_id', () => {
  test('OpenAPI parameters, /docs, /docs/reliability and /llms.txt', async () => {
    const doc = (await (await s.get('/openapi.json')).json()) as {
      paths: Record<
        string,
        {
          get: {
            parameters: Array<{ name: string; description?: string }>;
            responses: Record<string, { 'x-problem-codes'?: string[] }>;
          };
        }
      >;
    };
    const params = (path: string) => doc.paths[path]!.get.parameters.map((p) => p.name);
    for (const path of [
      '/api/v1/posts',
      '/{handle}/status/{id}',
      '/api/v1/profiles/{handle}',
      '/api/v1/profiles/{handle}/followers',
      '/api/v1/profiles/{handle}/following',
      '/api/v1/search',
    ]) {
      assert.ok(params(path).includes('budget'), path);
      assert.ok(doc.paths[path]!.get.responses['400']!['x-problem-codes']!.includes('invalid_budget'), path);
    }
    for (const path of [
      '/api/v1/profiles/{handle}',
      '/{handle}',
      '/api/v1/search',
      '/search',
      '/api/v1/profiles/{handle}/feed',
      '/{handle}/rss',
    ]) {
      assert.ok(params(path).includes('since_id'), path);
      assert.ok(doc.paths[path]!.get.responses['400']!['x-problem-codes']!.includes('invalid_since_id'), path);
    }
    const docs = await (await s.get('/docs')).text();
    assert.match(docs, /budget/);
    assert.match(docs, /since_id/);
    const reliability = await (await s.get('/docs/reliability')).text();
    assert.match(reliability, /id="invalid-budget"/);
    assert.match(reliability, /id="invalid-since-id"/);
    const llms = await (await s.get('/llms.txt')).text();
    assert.match(llms, /`budget=<characters>`/);
    assert.match(llms, /`since_id`/);
  });
});

describe('OpenAPI describes the JSON bodies the MCP tools return', () => {
  test('each tool route carries its JSON body schema, and every reference in the document resolves', async () => {
    const raw = await (await s.get('/openapi.json')).text();
    const doc = JSON.parse(raw) as {
      paths: Record<
        string,
        {
          get: {
            responses: { '200': { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } };
          };
        }
      >;
      components: { schemas: Record<string, unknown> };
    };
    const bodyOf = (path: string) =>
      doc.paths[path]!.get.responses['200'].content['application/json']!.schema.properties ?? {};
    for (const [path, member] of [
      ['/api/v1/posts', 'conversation'],
      ['/{handle}/status/{id}', 'conversation'],
      ['/api/v1/profiles/{handle}', 'posts'],
      ['/api/v1/profiles/{handle}/followers', 'items'],
      ['/api/v1/search', 'items'],
    ] as const) {
      assert.ok(bodyOf(path).markdown, path);
      assert.ok(bodyOf(path)[member], `${path} ${member}`);
    }
    for (const [, ref] of raw.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g))
      assert.ok(doc.components.schemas[ref!], ref);
    assert.doesNotMatch(raw, /"#\/\$defs\//, 'no reference left relative to a nested schema');
  });
});
