// Hostile corpus entries (mallory_md's post, name, bio and location) and hostile search terms, through HTTP in every
// representation. Markdown is rendered by a permissive consumer (raw HTML on) and parsed with a real HTML parser:
// nothing but the renderer's own structure and links may appear. The HTML page is parsed the same way and must carry
// nothing executable. JSON must parse and give the text back byte for byte.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { parse, parseFragment } from 'parse5';
import { getCorpus, HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';

interface Node {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  content?: Node;
  value?: string;
}

function* walk(node: Node): Generator<Node> {
  yield node;
  for (const child of node.childNodes ?? []) yield* walk(child);
  if (node.content) yield* walk(node.content);
}
const elements = (root: Node) => [...walk(root)].filter((n) => n.tagName !== undefined);
const textOf = (node: Node): string =>
  [...walk(node)].map((n) => (n.nodeName === '#text' ? (n.value ?? '') : '')).join('');
const attr = (n: Node, name: string) => n.attrs?.find((a) => a.name === name)?.value;

// What a permissive Markdown consumer would make of our output: raw HTML passes straight through.
const consumer = new MarkdownIt({ html: true, linkify: false });
consumer.validateLink = () => true;

/** Elements plain Markdown syntax produces; anything else could only come from raw HTML in the content. */
const MARKDOWN_ELEMENTS = new Set([
  'p',
  'a',
  'strong',
  'em',
  'code',
  'pre',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'hr',
  'br',
  'img',
]);
/** Links the renderer itself makes: the platform's permalinks and this service's own pages. */
const OWN_LINK = new RegExp(
  `^(https://(x\\.com|twitter\\.com|pbs\\.twimg\\.com|video\\.twimg\\.com)/|${TEST_BASE.replace(/\./g, '\\.')}(/|$))`,
);
const corpus = getCorpus();
const hostilePost = corpus.posts.get(IDS.hostile)!;
const mallory = corpus.usersByHandle.get(HANDLES.hostile)!;

/** Words of the hostile text that must stay text: no heading, quote, list, table, emphasis or code made of them. */
function assertMarkdownInert(markdown: string, where: string): void {
  const root = parseFragment(consumer.render(markdown)) as unknown as Node;
  for (const el of elements(root)) {
    assert.ok(MARKDOWN_ELEMENTS.has(el.tagName!), `<${el.tagName}> injected through Markdown in ${where}`);
    for (const a of el.attrs ?? []) assert.doesNotMatch(a.name, /^on/i, `${a.name} attribute in ${where}`);
    if (el.tagName === 'a')
      assert.match(attr(el, 'href') ?? '', OWN_LINK, `foreign link ${attr(el, 'href')} in ${where}`);
    if (el.tagName === 'img')
      assert.match(attr(el, 'src') ?? '', /^https:\/\//, `image ${attr(el, 'src')} in ${where}`);
    const text = textOf(el);
    if (/^h[1-6]$/.test(el.tagName!))
      assert.doesNotMatch(text, /^(heading injection|not a heading)/, `heading made from content in ${where}`);
    if (el.tagName === 'blockquote')
      assert.doesNotMatch(text, /fake quote|quoted\?/, `quote made from content in ${where}`);
    if (el.tagName === 'li') assert.doesNotMatch(text, /^not a list/, `list made from content in ${where}`);
    if (el.tagName === 'code' || el.tagName === 'pre') assert.fail(`code span made from content in ${where}: ${text}`);
    if (el.tagName === 'strong' || el.tagName === 'em')
      assert.doesNotMatch(text, /^(bold|under|Mallory)$/, `emphasis made from content in ${where}`);
  }
  // The hostile words are all still there, as text.
  const visible = textOf(root);
  for (const literal of ['<script>alert(1)</script>', '[click](javascript:alert(1))', 'heading injection'].filter((l) =>
    markdown.includes(l.slice(1, 8)),
  )) {
    assert.ok(visible.includes(literal), `${literal} shown as text in ${where}`);
  }
}

/** The page may carry its own stylesheet and nothing that runs, loads or navigates on its own. */
function assertPageInert(html: string, where: string): Node {
  const doc = parse(html) as unknown as Node;
  const els = elements(doc);
  for (const el of els) {
    assert.ok(
      !['script', 'iframe', 'object', 'embed', 'base', 'form', 'frame', 'frameset', 'applet', 'svg', 'math'].includes(
        el.tagName!,
      ),
      `<${el.tagName}> in ${where}`,
    );
    for (const a of el.attrs ?? []) {
      assert.doesNotMatch(a.name, /^on/i, `${a.name} attribute in ${where}`);
      if (['href', 'src', 'action', 'formaction', 'poster', 'srcset', 'data'].includes(a.name)) {
        assert.doesNotMatch(a.value.trim(), /^(javascript|data|vbscript):/i, `${a.name}=${a.value} in ${where}`);
      }
    }
    if (el.tagName === 'meta')
      assert.notEqual(attr(el, 'http-equiv')?.toLowerCase(), 'refresh', `meta refresh in ${where}`);
    if (el.tagName === 'a')
      assert.match(attr(el, 'href') ?? '', OWN_LINK, `foreign link ${attr(el, 'href')} in ${where}`);
  }
  const styles = els.filter((e) => e.tagName === 'style');
  assert.ok(styles.length <= 1, `extra <style> in ${where}`);
  for (const s of styles)
    assert.doesNotMatch(textOf(s), /alert|mallory|javascript/i, `content inside <style> in ${where}`);
  const csp = els.find(
    (e) => e.tagName === 'meta' && attr(e, 'http-equiv')?.toLowerCase() === 'content-security-policy',
  );
  assert.match(attr(csp!, 'content') ?? '', /default-src 'none'/, `CSP in ${where}`);
  // Only elements the renderer makes; raw tags from the content (<b>, <img onerror>) would show up here.
  for (const el of els.filter((e) =>
    ['b', 'i', 'u', 'font', 'marquee', 'input', 'button', 'textarea', 'select', 'link'].includes(e.tagName!),
  )) {
    if (el.tagName === 'link')
      assert.match(attr(el, 'href') ?? '', OWN_LINK, `<link> to ${attr(el, 'href')} in ${where}`);
    else assert.fail(`<${el.tagName}> from content in ${where}`);
  }
  return doc;
}

describe('hostile content through HTTP', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(async () => {
    await s.close();
  });

  const post = `/${HANDLES.hostile}/status/${IDS.hostile}`;
  const markdownPaths = [
    post,
    `${post}?full=true&userinfo=all`,
    `${post}?format=obsidian`,
    `/api/v1/posts?url=${encodeURIComponent(`https://x.com/${HANDLES.hostile}/status/${IDS.hostile}`)}&userinfo=all`,
    `/${HANDLES.hostile}`,
    `/api/v1/profiles/${HANDLES.hostile}?full=true`,
    `/search?q=${encodeURIComponent('heading injection')}`,
    `/search?q=${encodeURIComponent('<script>alert(1)</script> [x](javascript:alert(1)) # h')}`,
  ];

  for (const path of markdownPaths) {
    test(`Markdown cannot inject links or HTML: ${path}`, async () => {
      const res = await s.get(path);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/markdown/);
      const text = await res.text();
      // Obsidian front matter is YAML: every value a double-quoted (JSON-compatible) scalar, so no key can be injected.
      const body = text.startsWith('---\n') ? text.slice(text.indexOf('\n---\n', 4) + 5) : text;
      if (body !== text) {
        for (const line of text.slice(4, text.indexOf('\n---\n', 4)).split('\n')) {
          const m = /^([a-z_]+): (.*)$/.exec(line);
          assert.ok(m, `front matter line ${JSON.stringify(line)}`);
          assert.doesNotThrow(() => JSON.parse(m[2]!), `front matter value ${m[2]}`);
        }
        const nameLine = text.split('\n').find((l) => l.startsWith('author_name: '));
        assert.equal(JSON.parse(nameLine!.slice('author_name: '.length)), mallory.name);
      }
      assertMarkdownInert(body, path);
    });
  }

  for (const path of [
    post,
    `${post}?userinfo=all&thread=conversation`,
    `/${HANDLES.hostile}`,
    `/api/v1/search?q=${encodeURIComponent('heading injection')}`,
    `/search?q=${encodeURIComponent('"><script>alert(1)</script><img src=x onerror=alert(2)>')}`,
  ]) {
    test(`the HTML page runs nothing from the content: ${path}`, async () => {
      const res = await s.get(path, { headers: { accept: 'text/html' } });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      const doc = assertPageInert(await res.text(), path);
      const visible = textOf(doc);
      assert.ok(visible.includes('<script>alert(1)</script>'), 'the hostile text is shown, as text');
    });
  }

  test('the HTML page shows the name, bio and location as text', async () => {
    const res = await s.get(`/${HANDLES.hostile}`, { headers: { accept: 'text/html' } });
    const doc = assertPageInert(await res.text(), 'profile page');
    const visible = textOf(doc);
    assert.ok(visible.includes(mallory.name), 'name shown literally');
    assert.ok(visible.includes('<b>nowhere</b>'), 'location shown literally');
    const h1 = elements(doc).find((e) => e.tagName === 'h1')!;
    assert.ok(textOf(h1).includes(mallory.name), 'the heading shows the name literally');
  });

  test('JSON always parses and gives the hostile text back exactly', async () => {
    const read = (await (await s.get(`${post}?format=json&userinfo=all`)).json()) as {
      post: { text: string; author: { name: string; bio?: string; location?: string } };
    };
    assert.equal(read.post.text, hostilePost.text);
    assert.equal(read.post.author.name, mallory.name);
    const profile = (await (await s.get(`/api/v1/profiles/${HANDLES.hostile}?format=json`)).json()) as {
      profile: { name: string; bio: string; location: string };
    };
    assert.deepEqual(
      [profile.profile.name, profile.profile.bio, profile.profile.location],
      [mallory.name, mallory.bio, mallory.location],
    );
    const q = '"}]}\u2028\u2029\u0000</script>';
    const search = await s.get(`/api/v1/search?q=${encodeURIComponent(q)}&format=json`);
    const parsed = JSON.parse(await search.text()) as { q: string };
    assert.equal(parsed.q, q.trim().replace(/\s+/g, ' '));
  });

  test('the oEmbed html snippet carries nothing executable', async () => {
    const res = await s.get(
      `/api/v1/oembed?url=${encodeURIComponent(`${TEST_BASE}/${HANDLES.hostile}/status/${IDS.hostile}`)}`,
    );
    assert.equal(res.status, 200);
    const { html } = (await res.json()) as { html: string };
    const frag = parseFragment(html) as unknown as Node;
    for (const el of elements(frag)) {
      assert.notEqual(el.tagName, 'script');
      assert.notEqual(el.tagName, 'img', 'no image element made from the name');
      for (const a of el.attrs ?? []) {
        assert.doesNotMatch(a.name, /^on/i);
        assert.doesNotMatch(a.value, /^\s*javascript:/i);
      }
    }
    assert.ok(textOf(frag).includes('<script>alert(1)</script>'), 'the hostile text is shown, as text');
  });
});
