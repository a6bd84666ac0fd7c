// A reply read in its conversation (context=full): the ancestors from the root down to the direct parent,
// across authors, in every representation and whichever provider serves the post. Providers that give only
// the parent's id are walked up with single-post reads; a deleted ancestor ends the walk with a placeholder;
// a chain deeper than the cap keeps its root and the nearest ancestors and says how many were left out.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const ORDERS = ['fxtwitter', 'syndication', 'x', 'fxtwitter,syndication,x'] as const;

interface PostJson {
  markdown: string;
  post: { id: string };
  thread: { id: string }[];
  conversation: { parents: { id: string }[]; parentsOmitted?: number; earlier?: string; replies: unknown[] };
  warnings: string[];
}

const dir = mkdtempSync(join(tmpdir(), 'threadmark-context-'));
let sim: Simulator;
const stacks = new Map<string, Stack>();

before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  const sessions = join(dir, 'sessions.jsonl');
  writeFileSync(
    sessions,
    [0, 1, 2, 3]
      .map((i) => JSON.stringify({ username: `ctx${i}`, auth_token: `ctx${i}_token`, ct0: `ct0_${i}` }))
      .join('\n') + '\n',
  );
  for (const order of ORDERS) {
    const s = await startStack(
      { THREADMARK_PROVIDERS: order, THREADMARK_X_SESSIONS: sessions, THREADMARK_TRUST_PROXY: 'true' },
      { sim },
    );
    stacks.set(order, { ...s, get: (path, init) => s.get(path, fromFreshAddress(init)) });
  }
});
after(async () => {
  for (const s of stacks.values()) await s.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const stack = (order: string) => stacks.get(order)!;

let ipSeq = 0;
/** Every call made with an X session costs the client's account allowance: each read comes from its own address. */
function fromFreshAddress(init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  headers.set('x-forwarded-for', `10.70.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`);
  return { ...init, headers };
}

async function json(order: string, path: string): Promise<{ body: PostJson; headers: Headers }> {
  const res = await stack(order).get(`${path}${path.includes('?') ? '&' : '?'}format=json`);
  const text = await res.text();
  assert.equal(res.status, 200, `${order} ${path}: ${text.slice(0, 300)}`);
  return { body: JSON.parse(text) as PostJson, headers: res.headers };
}

async function mcpRead(order: string, handle: string, id: string): Promise<string> {
  const client = new Client({ name: 'threadmark-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack(order).url}/mcp`)));
  try {
    const r = (await client.callTool({ name: 'read_post', arguments: { handle, id } })) as {
      isError?: boolean;
      content: { text?: string }[];
    };
    assert.ok(!r.isError, r.content[0]?.text);
    return r.content[0]!.text!;
  } finally {
    await client.close();
  }
}

/** Every representation of one read, as text: compact and expanded Markdown, Obsidian, HTML, JSON's Markdown, MCP. */
async function representations(order: string, handle: string, id: string): Promise<Record<string, string>> {
  const path = `/${handle}/status/${id}`;
  const out: Record<string, string> = {};
  for (const [name, query, accept] of [
    ['markdown', '', undefined],
    ['full', '?full=true', undefined],
    ['obsidian', '?format=obsidian', undefined],
    ['html', '', 'text/html'],
  ] as const) {
    const res = await stack(order).get(path + query, accept ? { headers: { accept } } : undefined);
    assert.equal(res.status, 200, `${order} ${name}`);
    out[name] = await res.text();
  }
  out.json = (await json(order, path)).body.markdown;
  out.mcp = await mcpRead(order, handle, id);
  return out;
}

/** The ancestors' permalinks appear in order, all before the requested post's own (last) permalink. */
function assertInOrder(text: string, ancestors: string[], requested: string, label: string): void {
  const at = ancestors.map((id) => text.indexOf(`/status/${id}`));
  for (const [i, pos] of at.entries()) assert.ok(pos >= 0, `${label}: ancestor ${ancestors[i]} shown`);
  assert.deepEqual(
    at,
    [...at].sort((a, b) => a - b),
    `${label}: ancestors root first`,
  );
  assert.ok(
    at.every((pos) => pos < text.lastIndexOf(`/status/${requested}`)),
    `${label}: ancestors before the post`,
  );
}

for (const order of ORDERS) {
  describe(`context=full with providers ${order}`, () => {
    test('a reply to a reply shows its whole conversation above it, across three authors', async () => {
      const cases = [
        { handle: HANDLES.dave, id: IDS.replies.daveToCarol, parents: [IDS.threadRoot, IDS.replies.carolTop] },
        { handle: HANDLES.bob, id: IDS.bobReplyToCarol, parents: [IDS.daveRoot, IDS.carolReplyToDave] },
      ];
      for (const c of cases) {
        const { body } = await json(order, `/${c.handle}/status/${c.id}`);
        assert.equal(body.post.id, c.id);
        assert.deepEqual(
          body.conversation.parents.map((p) => p.id),
          c.parents,
          `${order}: parents of ${c.id}`,
        );
        assert.equal(body.conversation.earlier, undefined);
      }
      const reps = await representations(order, HANDLES.dave, IDS.replies.daveToCarol);
      for (const [name, text] of Object.entries(reps)) {
        assertInOrder(text, [IDS.threadRoot, IDS.replies.carolTop], IDS.replies.daveToCarol, `${order} ${name}`);
      }
      assert.match(reps.markdown!, /## Context · 2 earlier posts/);
    });

    test('a deleted ancestor ends the walk with a placeholder, not an error', async () => {
      const { body, headers } = await json(order, `/reader_0403/status/${IDS.gapReply}`);
      assert.equal(body.post.id, IDS.gapReply);
      assert.deepEqual(body.conversation.parents, []);
      assert.equal(body.conversation.earlier, 'unavailable');
      assert.match(headers.get('x-warnings') ?? '', /an earlier post in this conversation is unavailable/);
      const reps = await representations(order, 'reader_0403', IDS.gapReply);
      for (const [name, text] of Object.entries(reps)) {
        assert.match(text, /an earlier post in this conversation is unavailable/i, `${order} ${name}`);
        assert.ok(!text.includes(`/status/${IDS.gapRoot}`), `${order} ${name}: nothing above the gap`);
      }
    });

    test('a chain 25 deep keeps the root and the 19 nearest ancestors and says 4 were left out', async () => {
      const chain = IDS.deepChain;
      const last = chain[chain.length - 1]!;
      const { body, headers } = await json(order, `/reader_0411/status/${last}`);
      const expected = [chain[0]!, ...chain.slice(5, 24)];
      assert.deepEqual(
        body.conversation.parents.map((p) => p.id),
        expected,
      );
      assert.equal(body.conversation.parentsOmitted, 4);
      assert.match(headers.get('x-warnings') ?? '', /4 earlier posts of the conversation left out/);
      const reps = await representations(order, 'reader_0411', last);
      for (const [name, text] of Object.entries(reps)) {
        if (name === 'html') continue; // the same Markdown, checked for order below
        assert.match(text, /4 more posts of the conversation left out/, `${order} ${name}`);
        for (const gone of chain.slice(1, 5))
          assert.ok(!text.includes(`/status/${gone}`), `${order} ${name}: ${gone} left out`);
      }
      assertInOrder(reps.html!, expected, last, `${order} html`);
      assert.match(reps.markdown!, /## Context · 20 of 24 earlier posts/);
    });

    test('context=thread and thread=off show no other authors; thread=N counts ancestors', async () => {
      const path = `/${HANDLES.dave}/status/${IDS.replies.daveToCarol}`;
      for (const q of ['context=thread', 'thread=off']) {
        const { body } = await json(order, `${path}?${q}`);
        assert.deepEqual(body.conversation.parents, [], q);
        assert.deepEqual(
          body.thread.map((p) => p.id),
          [IDS.replies.daveToCarol],
          q,
        );
      }
      const two = await json(order, `${path}?thread=2&replies=off`);
      assert.deepEqual(
        two.body.conversation.parents.map((p) => p.id),
        [IDS.replies.carolTop],
        'the nearest parent is kept',
      );
      assert.match(two.headers.get('x-warnings') ?? '', /truncated to 2 of 3 posts/);
      const deep = await json(order, `/reader_0411/status/${IDS.deepChain[24]}?thread=5&replies=off`);
      assert.deepEqual(
        deep.body.conversation.parents.map((p) => p.id),
        IDS.deepChain.slice(20, 24),
      );
      assert.equal(deep.body.conversation.parentsOmitted, undefined, 'the truncation says it all');
    });
  });
}

describe('the walk goes through the read path', () => {
  test('ancestors read one by one are cached: a second read of the chain asks the upstream nothing', async () => {
    const s = stack('syndication');
    const path = `/${HANDLES.dave}/status/${IDS.replies.daveToCarol}?format=json&replies=off&thread=full`;
    const first = await s.get(path);
    assert.equal(first.status, 200);
    const before = sim.calls({ target: 'syndication' });
    const again = await s.get(`${path}&userinfo=all`);
    assert.equal(again.status, 200);
    assert.equal(sim.calls({ target: 'syndication' }), before);
  });
});

describe('the X provider alone', () => {
  test('thread=off is served from x: the focal post of its conversation answer', async () => {
    const res = await stack('x').get(`/${HANDLES.dave}/status/${IDS.daveRoot}?thread=off&format=json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-source'), 'x');
    assert.equal(((await res.json()) as PostJson).post.id, IDS.daveRoot);
  });

  test('a failed conversation read falls back to a single-post read, and the walk still finds the ancestors', async () => {
    const s = stack('x');
    // Only the conversation asks for the Recency ranking; the single-post reads ask for the default one.
    sim.addFault({ target: 'x', kind: 'status', status: 500, match: 'Recency' });
    const res = await s.get(`/${HANDLES.bob}/status/${IDS.bobReplyToCarol}?format=json&replies=recent`);
    sim.clearFaults();
    assert.equal(res.status, 200, await res.clone().text());
    const body = (await res.json()) as PostJson;
    assert.equal(body.post.id, IDS.bobReplyToCarol);
    assert.deepEqual(
      body.conversation.parents.map((p) => p.id),
      [IDS.daveRoot, IDS.carolReplyToDave],
    );
    assert.ok(
      body.warnings.some((w) => /thread unavailable from x/.test(w)),
      body.warnings.join('; '),
    );
  });
});

describe('the ancestors are documented', () => {
  test('OpenAPI describes conversation.parents, parentsOmitted and earlier; /docs explains the walk and the quote rule', async () => {
    const s = stack('fxtwitter');
    const doc = (await (await s.get('/openapi.json')).json()) as {
      paths: Record<
        string,
        {
          get: {
            responses: {
              '200': {
                content: Record<
                  string,
                  { schema: { properties: Record<string, { properties?: Record<string, unknown> }> } }
                >;
              };
            };
          };
        }
      >;
    };
    const schema = doc.paths['/api/v1/posts']!.get.responses['200'].content['application/json']!.schema;
    const conv = schema.properties.conversation!.properties!;
    for (const k of ['parents', 'parentsOmitted', 'earlier', 'replies']) assert.ok(conv[k], k);
    const html = await (await s.get('/docs')).text();
    assert.match(html, /id="conversations"/);
    assert.match(html, /An earlier post in this conversation is unavailable/);
    assert.match(html, /a quote inside a quoted post is a link naming its author/);
  });
});
