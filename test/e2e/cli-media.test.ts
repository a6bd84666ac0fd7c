// `threadmark export --vault … --media` and `read --out … --media` as the real bin, in-process against the
// simulator, whose media routes stand for X's media hosts: each file stored once and linked from its notes, a
// second run fetching only what is missing, size limits, media that are gone, and the manifest surviving edits.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliVaults } from '../helpers/notes.ts';

const v = cliVaults('threadmark-cli-media-');
const run = (args: string[]) => v.run(args);
const notes = (vault: string) => v.notes(vault);
const sim = {
  resetCalls: () => v.sim.resetCalls(),
  calls: (f?: { target?: string }) => v.sim.calls(f),
  addFault: (f: Parameters<typeof v.sim.addFault>[0]) => v.sim.addFault(f),
  clearFaults: () => v.sim.clearFaults(),
};
const exportTo = (vault: string, ...more: string[]) =>
  run(['export', 'alice_dev', '--max-posts', '30', '--vault', vault, '--media', ...more]);

const attachments = (vault: string) => readdirSync(join(v.dir, vault, 'attachments')).filter((n) => !n.startsWith('.'));
const mediaCalls = () => sim.calls({ target: 'media' });
const THREAD_NOTE = /^alice_dev 1900000000000000001 /;

describe('threadmark export --media', { concurrency: 1 }, () => {
  test('saves each file once under attachments/ by content hash, and every note embeds what it holds', async () => {
    sim.resetCalls();
    const r = await exportTo('v1');
    assert.equal(r.code, 0, r.stderr);
    const files = attachments('v1');
    assert.ok(files.length >= 8, files.join(', '));
    for (const f of files) {
      assert.match(f, /^[0-9a-f]{32}\.(png|mp4)$/);
      const hash = createHash('sha256')
        .update(readFileSync(join(v.dir, 'v1', 'attachments', f)))
        .digest('hex');
      assert.equal(hash.slice(0, 32), f.split('.')[0], 'named by its content hash');
    }
    assert.equal(mediaCalls(), files.length, 'every file fetched exactly once');
    const all = notes('v1');
    for (const f of files) {
      assert.ok(
        all.some((n) => n.body.includes(`![[attachments/${f}]]`)),
        `${f} is embedded by a note`,
      );
    }
    // The author's avatar is in every note but stored once.
    const avatar =
      /!\[\[attachments\/([0-9a-f]{32}\.png)\]\] · \[Avatar\]\(https:\/\/pbs\.twimg\.com\/profile_images\/1461000001\//;
    const avatars = new Set(all.map((n) => avatar.exec(n.body)?.[1]));
    assert.equal(avatars.size, 1, 'one avatar file for all of them');
    assert.ok(!avatars.has(undefined), 'every note embeds the avatar');
    const thread = all.find((n) => THREAD_NOTE.test(n.name))!.body;
    assert.match(
      thread,
      /!\[\[attachments\/[0-9a-f]{32}\.png\]\] · \[original\]\(https:\/\/pbs\.twimg\.com\/media\/[^)]+\)/,
    );
    assert.match(
      thread,
      /!\[\[attachments\/[0-9a-f]{32}\.mp4\]\] · \[▶ Video 0:33\]\(https:\/\/video\.twimg\.com\/ext_tw_video\/[^)]+\.mp4\?tag=12\)/,
    );
    assert.match(r.stderr, new RegExp(`threadmark: media: ${files.length} fetched \\(`));
    assert.doesNotMatch(r.stderr, /skipped/);
  });

  test('a run after an interrupted one fetches only the files missing or damaged', async () => {
    const first = await run(['export', 'alice_dev', '--max-posts', '3', '--vault', 'v2', '--media']);
    assert.equal(first.code, 0, first.stderr);
    const early = attachments('v2');
    assert.ok(early.length >= 2);
    // One file lost, one cut short (as a run stopped mid-write leaves it).
    unlinkSync(join(v.dir, 'v2', 'attachments', early[0]!));
    writeFileSync(join(v.dir, 'v2', 'attachments', early[1]!), 'partial');
    sim.resetCalls();
    const second = await exportTo('v2');
    assert.equal(second.code, 0, second.stderr);
    const now = attachments('v2');
    const added = now.filter((f) => !early.includes(f)).length;
    assert.equal(mediaCalls(), added + 2, 'the new files and the two damaged ones, nothing else');
    assert.match(second.stderr, new RegExp(`media: ${added + 2} fetched .*, ${early.length - 2} already in`));
    sim.resetCalls();
    const third = await exportTo('v2');
    assert.equal(third.code, 0, third.stderr);
    assert.equal(mediaCalls(), 0, 'a complete vault fetches nothing');
    assert.deepEqual(attachments('v2').sort(), now.sort());
  });

  test('per-file and per-run limits skip files, report why, and the notes keep the original URLs', async () => {
    const small = await exportTo('v3', '--media-max-file', '1KB');
    assert.equal(small.code, 0, small.stderr);
    assert.ok(
      attachments('v3').every((f) => f.endsWith('.png')),
      'the video is over 1 KB',
    );
    assert.match(small.stderr, /media: 1 skipped: over the per-file limit: https:\/\/video\.twimg\.com\//);
    const thread = notes('v3').find((n) => THREAD_NOTE.test(n.name))!.body;
    assert.match(thread, /\[▶ Video 0:33\]\(https:\/\/video\.twimg\.com\/[^)]+\)/);
    assert.doesNotMatch(thread, /\.mp4\]\]/);

    sim.resetCalls();
    const capped = await exportTo('v4', '--media-max-total', '300');
    assert.equal(capped.code, 0, capped.stderr);
    assert.match(capped.stderr, /media: \d+ skipped: the per-run limit was reached: /);
    const saved = attachments('v4');
    const bytes = saved.reduce((n, f) => n + readFileSync(join(v.dir, 'v4', 'attachments', f)).length, 0);
    assert.ok(bytes <= 300, `${bytes} bytes saved`);
    assert.ok(mediaCalls() <= saved.length + 1, 'after the limit nothing more is fetched');
    assert.equal(notes('v4').length, notes('v1').length, 'every note is still written');
  });

  test('a file gone from X (404) leaves its note with the original URL and a warning', async () => {
    sim.addFault({ target: 'media', match: '/twimg/video/', kind: 'status', status: 404 });
    try {
      const r = await exportTo('v5');
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        /threadmark: warning: https:\/\/video\.twimg\.com\/\S+ is gone; the note keeps its original URL/,
      );
      assert.match(r.stderr, /media: 1 skipped: gone from X \(404\)/);
      const thread = notes('v5').find((n) => THREAD_NOTE.test(n.name))!.body;
      assert.match(thread, /\[▶ Video 0:33\]\(https:\/\/video\.twimg\.com\/[^)]+\)/);
      assert.match(thread, /!\[\[attachments\/[0-9a-f]{32}\.png\]\] · \[original\]/, 'the photos are saved still');
    } finally {
      sim.clearFaults();
    }
  });

  test('--media without --vault, or a size that is none, is a usage error before any request', async () => {
    sim.resetCalls();
    const noVault = await run(['export', 'alice_dev', '--media']);
    assert.equal(noVault.code, 2);
    assert.match(noVault.stderr, /--media needs --vault/);
    const badSize = await run(['export', 'alice_dev', '--vault', 'v6', '--media', '--media-max-file', 'lots']);
    assert.equal(badSize.code, 2);
    assert.match(badSize.stderr, /--media-max-file takes a size such as 500KB/);
    assert.equal(sim.calls(), 0);
  });
});

test('threadmark read --out --media saves the media of every post of the thread into its note', async () => {
  const r = await run([
    'read',
    'alice_dev/status/1900000000000000001',
    '--format',
    'obsidian',
    '--out',
    'r1',
    '--media',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const all = notes('r1');
  assert.equal(all.length, 1, 'the thread is one note');
  const video = all[0]!.body;
  assert.match(video, /!\[\[attachments\/[0-9a-f]{32}\.mp4\]\] · \[▶ Video 0:33\]\(https:\/\/video\.twimg\.com\//);
  assert.ok(attachments('r1').some((f) => f.endsWith('.mp4')));
});
