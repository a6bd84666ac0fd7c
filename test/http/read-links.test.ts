// The links rendered reads carry to the newer reads, through the real server against the simulator: a profile links
// its media, Articles and about tabs (Markdown compact and expanded, HTML, and JSON's markdown member); an expanded
// post links its quotes and reposts from their counts; every link followed answers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(async () => {
  await s.close();
});

const alice = HANDLES.alice;
const ROOT = IDS.threadRoot;

async function text(path: string, accept = 'text/markdown'): Promise<string> {
  const res = await s.get(path, { headers: { accept } });
  const body = await res.text();
  assert.equal(res.status, 200, `${path}: ${body.slice(0, 300)}`);
  return body;
}

/** A link of this service's, followed: its path must answer. */
async function follows(href: string, shows: RegExp): Promise<void> {
  assert.ok(href.startsWith(TEST_BASE), href);
  assert.match(await text(href.slice(TEST_BASE.length)), shows, href);
}

test('a profile links its followers, following, media, Articles and about reads, in every representation', async () => {
  const tabs = ['followers', 'following', 'media', 'articles', 'about'].map((t) => `${TEST_BASE}/${alice}/${t}`);
  const line = `[Profile on X](https://x.com/${alice}) · [Followers](${tabs[0]}) · [Following](${tabs[1]}) · [Media](${tabs[2]}) · [Articles](${tabs[3]}) · [About](${tabs[4]})`;
  for (const path of [`/${alice}`, `/${alice}?full=true`, `/api/v1/profiles/${alice}`]) {
    const md = await text(path);
    assert.ok(md.split('\n').includes(line), `${path}:\n${md}`);
  }
  const json = JSON.parse(await text(`/${alice}?format=json`, 'application/json')) as { markdown: string };
  assert.ok(json.markdown.includes(line));
  const html = await text(`/${alice}`, 'text/html');
  for (const href of tabs) assert.ok(html.includes(`href="${href}"`), href);
  await follows(tabs[2]!, /^# Media of /);
  await follows(tabs[3]!, /^# Articles of /);
  await follows(tabs[4]!, /Based in: Portugal/);
});

test('an expanded post links its quotes and reposts from their counts; compact shows neither', async () => {
  const full = await text(`/${alice}/status/${ROOT}?thread=off&replies=off&full=true`);
  const reposts = new RegExp(`\\[[0-9]+ reposts?\\]\\((${TEST_BASE}/${alice}/status/${ROOT}/reposts)\\)`).exec(full);
  const quotes = new RegExp(`\\[[0-9]+ quotes?\\]\\((${TEST_BASE}/${alice}/status/${ROOT}/quotes)\\)`).exec(full);
  assert.ok(reposts && quotes, full);
  await follows(reposts[1]!, /^# Reposts of @alice_dev's post/);
  await follows(quotes[1]!, /^# Quotes of @alice_dev's post/);
  const compact = await text(`/${alice}/status/${ROOT}?thread=off&replies=off`);
  assert.doesNotMatch(compact, /\/(quotes|reposts)\)/);
  // The HTML page and the Obsidian note of the expanded read carry the same links.
  const html = await text(`/${alice}/status/${ROOT}?thread=off&replies=off&full=true`, 'text/html');
  assert.ok(html.includes(`href="${reposts[1]}"`) && html.includes(`href="${quotes[1]}"`));
  const note = await text(`/${alice}/status/${ROOT}?thread=off&replies=off&full=true&format=obsidian`);
  assert.ok(note.includes(`(${reposts[1]})`) && note.includes(`(${quotes[1]})`), note);
});

test("url= reads posts: a link to a post's quotes reads the post; a link to another read names its page here", async () => {
  const quotes = await s.get(
    `/api/v1/posts?url=${encodeURIComponent(`https://x.com/${alice}/status/${ROOT}/quotes`)}&format=json`,
  );
  assert.equal(quotes.status, 200);
  assert.equal(((await quotes.json()) as { post: { id: string } }).post.id, ROOT);
  const tag = await s.get(`/api/v1/posts?url=${encodeURIComponent('https://x.com/hashtag/caching?src=hashtag_click')}`);
  assert.equal(tag.status, 400);
  const problem = (await tag.json()) as { code: string; detail: string };
  assert.equal(problem.code, 'invalid_path');
  assert.match(problem.detail, /read at \/hashtag\/caching on this service/);
});
