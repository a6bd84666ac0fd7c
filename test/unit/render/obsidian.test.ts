import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderPostObsidian, yamlString } from '../../../src/render/obsidian.ts';
import { renderPostMarkdown } from '../../../src/render/markdown/thread.ts';
import * as c from '../../fixtures/render/corpus.ts';
import { matchSnapshot } from './snapshot.ts';

const opts = { full: false, userinfo: 'author' as const, baseUrl: c.BASE };

/** Front matter as key → raw value (our values are JSON-compatible YAML scalars or block lists). */
function frontMatter(doc: string): Record<string, unknown> {
  assert.ok(doc.startsWith('---\n'));
  const end = doc.indexOf('\n---\n', 4);
  const out: Record<string, unknown> = {};
  let listKey: string | undefined;
  for (const line of doc.slice(4, end).split('\n')) {
    const item = /^ {2}- (.*)$/.exec(line);
    if (item && listKey) {
      (out[listKey] as unknown[]).push(JSON.parse(item[1]!));
      continue;
    }
    const m = /^([a-z_]+):(?: (.*))?$/.exec(line);
    assert.ok(m, `front matter line: ${line}`);
    listKey = m[2] === undefined ? m[1] : undefined;
    out[m[1]!] = m[2] === undefined ? [] : JSON.parse(m[2]);
  }
  return out;
}

describe('renderPostObsidian', () => {
  test('thread snapshot', () => matchSnapshot('obsidian/thread.md', renderPostObsidian(c.threadRead(), opts)));
  test('conversation snapshot', () =>
    matchSnapshot('obsidian/conversation.md', renderPostObsidian(c.conversationRead, opts)));
  test('hostile snapshot', () =>
    matchSnapshot('obsidian/hostile.md', renderPostObsidian(c.singleRead(c.hostilePost), opts)));

  test('front matter has the documented keys with safely quoted values', () => {
    const fm = frontMatter(renderPostObsidian(c.threadRead(), opts));
    assert.deepEqual(fm, {
      id: '1900000000000000001',
      url: 'https://x.com/alice_dev/status/1900000000000000001',
      author: 'alice_dev',
      author_name: 'Alice Dev',
      created: '2026-01-01T00:01:00.000Z',
      thread_length: 6,
      tags: ['caching'],
      source: 'fxtwitter',
    });
    const hostile = frontMatter(renderPostObsidian(c.singleRead(c.hostilePost), opts));
    assert.equal(hostile.author_name, c.mallory.name);
    assert.deepEqual(hostile.tags, [], 'a hashtag that is not a valid Obsidian tag is left out');
  });

  test('YAML strings escape what YAML forbids raw', () => {
    assert.equal(yamlString('a"b\\c\nd'), '"a\\"b\\\\c\\nd"');
    assert.equal(yamlString('\u0085\u2028\u007f'), '"\\u0085\\u2028\\u007f"');
    assert.equal(yamlString('\ud800x'), '"\ufffdx"');
    assert.equal(yamlString('---\n: [x] # y'), '"---\\n: [x] # y"');
  });

  test('people are wiki links, hashtags native tags, one ## heading per post', () => {
    const doc = renderPostObsidian(c.conversationRead, opts);
    assert.ok(doc.includes('# Post by Alice Dev ([[@alice_dev]])'));
    assert.ok(doc.includes('#caching'));
    const h2 = doc.split('\n').filter((l) => l.startsWith('## '));
    assert.deepEqual(
      h2.slice(0, 2).map((h) => h.replace(/ · [^·]*UTC$/, '')),
      ['## Context · Carol ([[@carol]])', '## 2026-01-01 00:01 UTC'],
    );
    assert.ok(doc.includes('- **Bob** ([[@bob]])'));
  });

  test('hostile text cannot create wiki links, tags, embeds or highlights', () => {
    const doc = renderPostObsidian(c.singleRead(c.hostilePost), opts);
    const body = doc.slice(doc.indexOf('\n---\n', 4) + 5);
    assert.deepEqual(body.match(/\[\[[^\]]*\]\]/g), ['[[@mallory_x]]', '[[@mallory_x]]']);
    assert.ok(!/(^|[^\\])#h\b/.test(body));
    assert.ok(!/(^|[^\\])==/.test(body));
    assert.ok(!/(^|[^\\])\$[A-Z]/.test(body));
  });
});

describe('a reply to someone else', () => {
  const answer = c.post({
    id: '1900000000000000300',
    author: c.bob,
    text: 'Agreed.',
    replyTo: { id: '1900000000000000001', handle: 'alice_dev' },
  });

  test('a note links the post it answers on x.com; a read names the account only', () => {
    const note = renderPostObsidian(c.singleRead(answer), opts);
    assert.ok(
      note.includes('Replying to [[@alice_dev]] · [the post](https://x.com/alice_dev/status/1900000000000000001)'),
      note,
    );
    const md = renderPostMarkdown(c.singleRead(answer), opts);
    assert.match(md, /Replying to \[@alice_dev\]\(https:\/\/x\.com\/alice_dev\)\n/);
    assert.doesNotMatch(md, /the post/);
  });
});
