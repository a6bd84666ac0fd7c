// The service's root through the real server: a page for browsers (with a form that converts without JavaScript),
// the API index for JSON clients, a short Markdown guide for everyone else; everything echoed is escaped.
import { Script } from 'node:vm';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'parse5';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

interface Node {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
}
function* walk(node: Node): Generator<Node> {
  yield node;
  for (const child of node.childNodes ?? []) yield* walk(child);
}
const attr = (n: Node, name: string) => n.attrs?.find((a) => a.name === name)?.value;
const textOf = (n: Node): string =>
  n.nodeName === '#text' ? (n.value ?? '') : (n.childNodes ?? []).map(textOf).join('');
const byId = (doc: Node, id: string) => [...walk(doc)].find((n) => attr(n, 'id') === id);

describe('GET /', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(async () => {
    await s.close();
  });

  test("every link of the page that reads from this service answers on the simulator (the demo's corpus)", async () => {
    const res = await s.get('/', { headers: { accept: BROWSER_ACCEPT } });
    const doc = parse(await res.text()) as unknown as Node;
    const own = [...walk(doc)]
      .map((n) => (n.tagName === 'a' ? attr(n, 'href') : undefined))
      .filter((h): h is string => h !== undefined && (h.startsWith(TEST_BASE) || h.startsWith('/')))
      .map((h) => (h.startsWith(TEST_BASE) ? h.slice(TEST_BASE.length) || '/' : h));
    const reads = own.filter((p) => /status\//.test(p));
    assert.ok(reads.length >= 2, own.join(' '));
    for (const path of own) {
      const r = await s.get(path);
      assert.equal(r.status, 200, path);
      await r.arrayBuffer();
    }
  });

  test('a browser gets the page: a labelled form, no inline script or style, a strict CSP, cacheable', async () => {
    const res = await s.get('/', { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(res.headers.get('cache-control') ?? '', /^public, max-age=\d+/);
    assert.ok(res.headers.get('etag'));
    assert.match(res.headers.get('vary') ?? '', /Accept/);
    const doc = parse(await res.text()) as Node;
    const nodes = [...walk(doc)];
    const form = nodes.find((n) => n.tagName === 'form')!;
    assert.equal(attr(form, 'method'), 'get');
    for (const id of ['url', 'format', 'thread']) {
      assert.ok(byId(doc, id), id);
      assert.ok(
        nodes.some((n) => n.tagName === 'label' && attr(n, 'for') === id),
        `label for ${id}`,
      );
    }
    const formats = nodes.filter((n) => n.tagName === 'option').map((n) => attr(n, 'value'));
    for (const f of ['compact', 'expanded', 'obsidian', 'json']) assert.ok(formats.includes(f), f);
    // Scripts only from this service's own files; no inline script, style or event handler.
    for (const n of nodes) {
      if (n.tagName === 'script') assert.match(attr(n, 'src') ?? '', /^\/assets\//);
      assert.notEqual(n.tagName, 'style');
      for (const a of n.attrs ?? []) assert.doesNotMatch(a.name, /^on/);
    }
    const links = nodes.filter((n) => n.tagName === 'a').map((n) => attr(n, 'href') ?? '');
    assert.ok(links.some((h) => h.endsWith('/docs')));
    const body = textOf(doc);
    assert.match(body, /MCP/);
    assert.match(body, /rss/);
  });

  test('the assets are served with their types and cached', async () => {
    for (const [path, type] of [
      ['/assets/home.js', /^text\/javascript/],
      ['/assets/home.css', /^text\/css/],
    ] as const) {
      const res = await s.get(path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', type);
      assert.match(res.headers.get('cache-control') ?? '', /^public/);
      const etag = res.headers.get('etag')!;
      const again = await s.get(path, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
    }
  });

  test('JSON clients get the index /api serves; Markdown and plain-text clients a short guide', async () => {
    const json = await s.get('/', { headers: { accept: 'application/json' } });
    assert.equal(json.status, 200);
    const api = (await (await s.get('/api')).json()) as Record<string, unknown>;
    const root = (await json.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(root).sort(), Object.keys(api).sort());
    assert.deepEqual(root.links, api.links);
    const llms = await (await s.get('/llms.txt')).text();
    for (const accept of ['text/markdown', 'text/plain', undefined, '*/*']) {
      const res = await s.get('/', accept ? { headers: { accept } } : {});
      assert.equal(res.status, 200, String(accept));
      const text = await res.text();
      assert.match(res.headers.get('content-type') ?? '', accept === 'text/plain' ? /^text\/plain/ : /^text\/markdown/);
      assert.ok(text.startsWith(llms.split('\n').slice(0, 3).join('\n')), 'starts with llms.txt');
      assert.match(text, /\/https:\/\/x\.com\//);
    }
    const refused = await s.get('/', { headers: { accept: 'image/png' } });
    assert.equal(refused.status, 406);
  });

  test('without JavaScript, the form answers the page with the Markdown and the permalink', async () => {
    const link = `https://x.com/${HANDLES.alice}/status/${IDS.threadPhoto}`;
    const res = await s.get(`/?url=${encodeURIComponent(link)}&format=obsidian&thread=off`, {
      headers: { accept: BROWSER_ACCEPT },
    });
    assert.equal(res.status, 200);
    const doc = parse(await res.text()) as Node;
    const direct = await (await s.get(`/${HANDLES.alice}/status/${IDS.threadPhoto}?format=obsidian&thread=off`)).text();
    assert.equal(textOf(byId(doc, 'output')!), direct);
    assert.equal(
      attr(byId(doc, 'permalink')!, 'href'),
      `/${HANDLES.alice}/status/${IDS.threadPhoto}?format=obsidian&thread=off`,
    );
    assert.equal(attr(byId(doc, 'url')!, 'value'), link);
    // A handle is a profile.
    const profile = await s.get(`/?url=%40${HANDLES.bob}`, { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(profile.status, 200);
    const pdoc = parse(await profile.text()) as Node;
    assert.equal(textOf(byId(pdoc, 'output')!), await (await s.get(`/${HANDLES.bob}`)).text());
  });

  test("the form reads the newer links: a hashtag, a post's reposts, a profile tab, the trends", async () => {
    const cases: Array<[string, string]> = [
      ['https://x.com/hashtag/caching?src=hashtag_click', '/hashtag/caching'],
      [
        `https://x.com/${HANDLES.alice}/status/${IDS.threadRoot}/retweets`,
        `/${HANDLES.alice}/status/${IDS.threadRoot}/reposts`,
      ],
      [`https://nitter.net/${HANDLES.alice}/about`, `/${HANDLES.alice}/about`],
      ['https://x.com/explore/tabs/trending', '/trends'],
    ];
    for (const [link, permalink] of cases) {
      const res = await s.get(`/?url=${encodeURIComponent(link)}`, { headers: { accept: BROWSER_ACCEPT } });
      assert.equal(res.status, 200, link);
      const doc = parse(await res.text()) as Node;
      assert.equal(attr(byId(doc, 'permalink')!, 'href'), permalink, link);
      assert.equal(textOf(byId(doc, 'output')!), await (await s.get(permalink)).text(), link);
    }
  });

  test('a refused or failing conversion answers the page with the reason and the problem’s status', async () => {
    const cases: Array<[string, number, RegExp]> = [
      ['https://example.com/a/status/1', 400, /x\.com, twitter\.com/],
      ['https://x.com/alice/likes', 404, /`likes` is a tab of @alice's profile this service does not read/],
      ['not a link at all', 400, /This is not a link\. Paste a link to a post, a profile, .*Nitter.* Or type a handle/],
    ];
    for (const [link, status, detail] of cases) {
      const res = await s.get(`/?url=${encodeURIComponent(link)}`, { headers: { accept: BROWSER_ACCEPT } });
      assert.equal(res.status, status, link);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      const doc = parse(await res.text()) as Node;
      const alert = [...walk(doc)].find((n) => attr(n, 'role') === 'alert');
      assert.ok(alert, link);
      assert.match(textOf(alert), detail, link);
    }
    // With JavaScript the form reads anything but a handle as a prefix read with a scheme: the reader's words again.
    const scripted = await s.get(`/${encodeURIComponent('https://not a link at all')}`);
    const refused = (await scripted.json()) as { detail: string };
    assert.match(refused.detail, /^This is not a link\. Paste a link to a post/);
    const js = await (await s.get(`/assets/home.js`)).text();
    assert.doesNotThrow(() => new Script(js), 'the script parses');
    assert.ok(js.includes("encodeURIComponent(/^https?:\\/\\//i.test(v) ? v : 'https://' + v)"), 'the page sends that');
    // A route that answers its own 404 page (a missing account): that page is the result, with the route's status.
    const missing = await s.get(`/?url=${encodeURIComponent(`https://x.com/${HANDLES.missing}`)}`, {
      headers: { accept: BROWSER_ACCEPT },
    });
    const direct = await s.get(`/${HANDLES.missing}`, { headers: { accept: 'text/markdown' } });
    assert.equal(missing.status, direct.status);
    assert.equal(textOf(byId(parse(await missing.text()) as Node, 'output')!), await direct.text());
    // A hand-made query with a value the form never offers: the catalog's code for that parameter, and its words.
    for (const [query, code] of [
      ['format=pdf', 'invalid_format'],
      ['thread=7', 'invalid_thread'],
    ] as const) {
      const bad = await s.get(`/?${query}`, { headers: { accept: BROWSER_ACCEPT } });
      assert.equal(bad.status, 400, query);
      const problem = (await bad.json()) as { code: string; resolution: string };
      assert.equal(problem.code, code, query);
      assert.doesNotMatch(problem.resolution, /handle/, query);
    }
  });

  test('/docs describes the page and the prefix reads, with every accepted host', async () => {
    const docs = await (await s.get('/docs')).text();
    assert.match(docs, /id="home-page"/);
    assert.match(docs, /id="prefix-reads"/);
    for (const host of ['x.com', 'twitter.com', 'fxtwitter.com', 'vxtwitter.com', 'nitter.*'])
      assert.ok(docs.includes(`<code>${host}</code>`), host);
  });

  test('a hostile pasted value is shown as text, never as markup', async () => {
    const hostile = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
    const res = await s.get(`/?url=${encodeURIComponent(hostile)}`, { headers: { accept: BROWSER_ACCEPT } });
    const html = await res.text();
    assert.ok(!html.includes('<script>alert'), 'no live script');
    assert.ok(!html.includes('<img src=x'), 'no live img');
    const doc = parse(html) as Node;
    assert.equal(attr(byId(doc, 'url')!, 'value'), hostile);
    const nodes = [...walk(doc)];
    assert.equal(nodes.filter((n) => n.tagName === 'script' && !attr(n, 'src')).length, 0);
    assert.equal(nodes.filter((n) => n.tagName === 'img').length, 0);
  });
});
