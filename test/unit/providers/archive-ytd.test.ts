// The window.YTD splitter: elements found whatever the chunk boundaries (inside strings, escapes, nesting), and
// anything but the one assignment of an array refused without evaluating it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ytdElements } from '../../../src/providers/archive/ytd.ts';
import { ArchiveError } from '../../../src/providers/archive/errors.ts';
import { ThreadAssembler, ThreadIndex } from '../../../src/cli/import-threads.ts';
import type { Post } from '../../../src/domain/models.ts';

async function* chunked(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function all(text: string, size = text.length || 1): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const e of ytdElements(chunked(text, size), 'data/tweets.js')) out.push(e);
  return out;
}

const ELEMENTS = [
  { tweet: { id_str: '1', full_text: 'a "quoted" } ] brace in text \\ and a backslash', n: ['1', '2'] } },
  { tweet: { id_str: '2', full_text: 'emoji 🧵 and \u2028 separators', nested: [[{}], { a: [] }] } },
  [1, 2],
];

describe('window.YTD data files', () => {
  const file = `window.YTD.tweets.part0 = ${JSON.stringify(ELEMENTS, null, 2)};\n`;

  test('every element, whatever the chunk size', async () => {
    for (const size of [1, 2, 3, 7, 64, file.length])
      assert.deepEqual(await all(file, size), ELEMENTS, `chunks of ${size}`);
  });

  test('an empty array and the compact layout', async () => {
    assert.deepEqual(await all('window.YTD.note_tweet.part0 = []'), []);
    assert.deepEqual(await all('window.YTD.tweets.part3=[{"a":1},{"b":2}]'), [{ a: 1 }, { b: 2 }]);
  });

  const refused: Array<[string, string]> = [
    ['a script', 'alert(1); window.YTD.tweets.part0 = []'],
    ['another global', 'window.evil.part0 = []'],
    ['no array', 'window.YTD.tweets.part0 = {"a":1}'],
    ['a call in the array', 'window.YTD.tweets.part0 = [ alert(1) ]'],
    ['code after the array', 'window.YTD.tweets.part0 = [] ; alert(1)'],
    ['an element that is not JSON', 'window.YTD.tweets.part0 = [ {a: 1} ]'],
    ['an array cut off', 'window.YTD.tweets.part0 = [ {"a": "b'],
    ['nothing at all', ''],
    ['no assignment in the first bytes', 'x'.repeat(500)],
  ];
  for (const [what, text] of refused) {
    test(`refuses ${what}`, async () => {
      await assert.rejects(
        all(text, 5),
        (e: unknown) => e instanceof ArchiveError && e.problem === 'invalid_archive_file',
      );
    });
  }
});

describe('self-threads of an archive', () => {
  const post = (id: string, minute: number): Post => ({
    id,
    url: `https://x.com/a/status/${id}`,
    author: { id: '1', handle: 'a', name: 'A' },
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
    text: id,
    segments: [],
    media: [],
    metrics: {},
  });

  test('a thread is whole once its last post is read, in any order; a post alone at once', () => {
    const index = new ThreadIndex();
    // 11 → 12 → 13 is a thread; 14 continues a post outside the import (it starts its own); 20 is alone.
    for (const [id, parent] of [
      ['13', '12'],
      ['20', undefined],
      ['11', undefined],
      ['14', '99'],
      ['12', '11'],
    ] as const)
      assert.ok(index.add(id, parent));
    assert.equal(index.add('20', undefined), false, 'a post listed twice is one post');
    index.seal();
    const threads = new ThreadAssembler(index);
    const done: string[][] = [];
    for (const [id, minute] of [
      ['12', 2],
      ['20', 5],
      ['14', 4],
      ['13', 3],
      ['11', 1],
    ] as const) {
      assert.ok(index.take(id));
      done.push(...threads.add(post(id, minute)).map((t) => t.map((p) => p.id)));
    }
    assert.deepEqual(done, [['20'], ['14'], ['11', '12', '13']]);
    assert.deepEqual(threads.drain(), []);
    assert.equal(index.take('20'), false, 'the second listing is skipped');
  });
});
