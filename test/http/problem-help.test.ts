// Problem documents whose code is shared with other cases (a feed of too many handles, an X List that is not
// there, an oEmbed request for an x.com address) still say what was wrong here and what is accepted.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { LIST_IDS } from '../../sim/corpus-lists.ts';
import { CATALOG } from '../../src/problems/catalog.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';

let s: Stack;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threadmark-problem-help-'));
  const sessions = join(dir, 'sessions.jsonl');
  writeFileSync(sessions, JSON.stringify({ username: 'help', auth_token: 'help_tok', ct0: 'help_ct0' }) + '\n');
  s = await startStack({ THREADMARK_PROVIDERS: 'fxtwitter,syndication,x', THREADMARK_X_SESSIONS: sessions });
});
after(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const eleven = Array.from({ length: 11 }, (_, i) => `reader_${String(i + 1).padStart(4, '0')}`).join(',');

for (const path of [`/${eleven}/rss`, `/api/v1/profiles/${eleven}/feed`]) {
  test(`too many handles (${path.startsWith('/api') ? 'v1 feed' : 'RSS permalink'}): the detail counts them`, async () => {
    const res = await s.get(path);
    assert.equal(res.status, 400);
    const p = await problemOf(res);
    assert.equal(p.code, 'too_many_handles');
    assert.doesNotMatch(String(p.detail), /Invalid path segment/);
    assert.match(String(p.detail), /`handle` names 11 accounts/);
    assert.match(String(p.detail), /at most 10/);
  });
}

test('an X List that is not there: the resolution is about lists, not posts or profiles', async () => {
  for (const path of [`/api/v1/lists/1900000000000099999`, `/api/v1/lists/${LIST_IDS.private}/members`]) {
    const res = await s.get(`${path}?format=json`);
    assert.equal(res.status, 404, path);
    const p = await problemOf(res);
    assert.equal(p.code, 'not_found');
    assert.notEqual(p.resolution, CATALOG.not_found.resolution, path);
    assert.match(String(p.resolution), /List/);
    assert.match(String(p.resolution), /\/i\/lists\/\{id\}/);
  }
});

test("oEmbed for an x.com address: the resolution says to use this service's permalink", async () => {
  const url = `https://x.com/${HANDLES.alice}/status/${IDS.threadRoot}`;
  const res = await s.get(`/api/v1/oembed?url=${encodeURIComponent(url)}`);
  assert.equal(res.status, 404);
  const p = await problemOf(res);
  assert.equal(p.code, 'not_found');
  assert.notEqual(p.resolution, CATALOG.not_found.resolution);
  assert.ok(
    String(p.resolution).includes(`${TEST_BASE}/${HANDLES.alice}/status/${IDS.threadRoot}`),
    p.resolution as string,
  );
});
