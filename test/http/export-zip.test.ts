// format=zip of the export route: Obsidian notes streamed into an archive, with media=local each file once under
// attachments/ and embedded by its notes, export.json last with the end line and what was skipped.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { startStack, type Stack } from '../helpers/stack.ts';
import { readZip } from '../helpers/zip.ts';
import { clientKey } from '../../src/stores/limits/client-key.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

const EXPORT = '/api/v1/profiles/alice_dev/posts?max_posts=30';

async function archive(query: string): Promise<Map<string, Buffer>> {
  const res = await s.get(`${EXPORT}&${query}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/zip');
  return readZip(Buffer.from(await res.arrayBuffer()));
}

test('media=local: notes and attachments, each file once by content hash and embedded by its notes', async () => {
  s.sim.addFault({ target: 'media', match: '/twimg/video/', kind: 'status', status: 404 });
  let zip: Map<string, Buffer>;
  try {
    zip = await archive('format=zip&media=local');
  } finally {
    s.sim.clearFaults();
  }
  const notes = [...zip].filter(([n]) => n.endsWith('.md'));
  const files = [...zip].filter(([n]) => n.startsWith('attachments/'));
  assert.ok(notes.length >= 20, `${notes.length} notes`);
  assert.ok(files.length >= 6, `${files.length} files`);
  for (const [name, bytes] of files) {
    assert.match(name, /^attachments\/[0-9a-f]{32}\.png$/);
    assert.equal(createHash('sha256').update(bytes).digest('hex').slice(0, 32), name.slice(12, 44));
    assert.ok(
      notes.some(([, body]) => body.toString('utf8').includes(`![[${name}]]`)),
      `${name} is embedded by a note`,
    );
  }
  for (const [name, body] of notes) {
    assert.match(name, /^alice_dev \d+( .*)?\.md$/);
    const fm = /^---\n([\s\S]*?)\n---\n/.exec(body.toString('utf8'));
    assert.equal((parseYaml(fm![1]!) as { author: string }).author, 'alice_dev');
  }
  const summary = JSON.parse(zip.get('export.json')!.toString('utf8')) as {
    end: { type: string; posts: number };
    media: { skipped: Array<{ url: string; reason: string }> };
  };
  assert.equal(summary.end.type, 'end');
  assert.deepEqual(
    summary.media.skipped.map((k) => [k.reason, new URL(k.url).host]),
    [['gone', 'video.twimg.com']],
  );
  const video = notes.find(([n]) => n.startsWith('alice_dev 1900000000000000004 '))![1].toString('utf8');
  assert.match(video, /\[▶ Video 0:33\]\(https:\/\/video\.twimg\.com\//, 'the gone video keeps its original URL');
});

test('format=zip alone links X; media without format=zip, or another value, is 400 invalid_media', async () => {
  const zip = await archive('format=zip');
  assert.equal([...zip.keys()].filter((n) => n.startsWith('attachments/')).length, 0);
  const thread = [...zip].find(([n]) => n.startsWith('alice_dev 1900000000000000002 '))![1].toString('utf8');
  assert.match(thread, /!\[[^\]]*\]\(https:\/\/pbs\.twimg\.com\/media\//);
  for (const q of ['media=local', 'format=ndjson&media=local', 'format=zip&media=everything']) {
    const res = await s.get(`${EXPORT}&${q}`);
    assert.equal(res.status, 400, q);
    assert.equal(((await res.json()) as { code: string }).code, 'invalid_media', q);
  }
});

test("media=local charges the caller's media-ip per file: with it used up, the files are left out, named as refused", async () => {
  const calls = s.sim.calls({ target: 'media' });
  const limiter = s.app.services.stores.limiter;
  const partition = clientKey('127.0.0.1');
  const left = (await limiter.peek('media-ip', partition)).remaining;
  await limiter.consume('media-ip', partition, left);
  const zip = await archive('format=zip&media=local');
  assert.equal([...zip.keys()].filter((n) => n.startsWith('attachments/')).length, 0);
  const summary = JSON.parse(zip.get('export.json')!.toString('utf8')) as {
    media: { skipped: Array<{ reason: string; detail: string }> };
  };
  assert.ok(summary.media.skipped.length >= 6);
  for (const k of summary.media.skipped) {
    assert.equal(k.reason, 'failed');
    assert.match(k.detail, /media-ip allowance is used up/);
  }
  assert.equal(s.sim.calls({ target: 'media' }), calls, 'nothing fetched');
});
