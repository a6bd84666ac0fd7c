// `threadmark hashtag` and `threadmark cashtag` against a running service: the named searches, with the sign people
// type accepted, and a bad tag reported in the command's terms.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRANSLATED_HANDLES as TH, TRANSLATED_IDS as TI } from '../../sim/corpus-translations.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { runBin } from '../helpers/cli-bin.ts';

let stack: Stack;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threadmark-tags-'));
  stack = await startStack();
});
after(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

const srv = (...args: string[]) => runBin([...args, '--server', stack.url], { cwd: dir });

test('hashtag and cashtag read the tag pages, with or without the sign', async () => {
  const tag = await srv('hashtag', '#flashsale', '--format', 'json');
  assert.equal(tag.code, 0, tag.stderr);
  const body = JSON.parse(tag.stdout) as { q: string; items: { post: { id: string } }[] };
  assert.equal(body.q, '#flashsale');
  assert.deepEqual(
    body.items.map((i) => i.post.id),
    [TI.cashtags],
  );
  const cash = await srv('cashtag', '$tsla', '--feed', 'top');
  assert.equal(cash.code, 0, cash.stderr);
  assert.match(cash.stdout, new RegExp(`@${TH.owen}`));
});

test('a bad tag is invalid_hashtag, exit 2', async () => {
  const r = await srv('hashtag', 'foo-bar');
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^threadmark: invalid_hashtag: /);
});
