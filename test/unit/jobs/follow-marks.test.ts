// Two reads of one source that overlap (distributed mode: a turn still running when the next starts on another
// instance) must hand each new post to each follower once: the mark decides which read delivers what. A follower
// that comes while a read is under way gets what that read finds.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { PostSource } from '../../../src/domain/read-post.ts';
import type { Post } from '../../../src/domain/models.ts';
import { Follow } from '../../../src/jobs/follow.ts';
import type { JobQueue } from '../../../src/jobs/queue.ts';
import { SqliteWatchStore } from '../../../src/stores/watches/sqlite.ts';
import type { WatchStore } from '../../../src/stores/watches/types.ts';
import { watchOf } from '../stores/watch-store.contract.ts';
import { author, post } from '../feeds/posts.ts';
import { fakeLists } from '../domain/fake-lists.ts';
import { FREE_PAYER } from '../../helpers/payer.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-follow-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SOURCE = 'profile:alice_dev:posts';
const quiet = { warn: () => undefined, info: () => undefined };

/** The first `n` mark reads after `hold()` wait for each other: both readers see the mark before either moves it. */
function holdMarks(store: WatchStore): (n: number) => void {
  let waiting: Array<() => void> = [];
  let held = 0;
  const getMark = store.getMark.bind(store);
  store.getMark = async (key) => {
    const mark = await getMark(key);
    if (held > 0) {
      held -= 1;
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (held === 0) for (const r of waiting.splice(0)) r();
      });
    }
    return mark;
  };
  return (n) => {
    held = n;
    waiting = [];
  };
}

async function setUp(name: string) {
  const base = new SqliteWatchStore(join(dir, `${name}.db`));
  const hold = holdMarks(base);
  const timeline: Post[] = [post('1900000000000000001', 'alice_dev', 1)];
  const { lists } = fakeLists({ profiles: { alice_dev: author('alice_dev') }, timelines: { alice_dev: timeline } });
  const queue: JobQueue = {
    kind: 'bullmq',
    start: async () => undefined,
    schedule: async () => undefined,
    unschedule: async () => undefined,
    enqueueDelivery: async () => undefined,
    close: async () => undefined,
  };
  const follow = new Follow(
    base,
    queue,
    { lists, posts: {} as PostSource },
    {
      intervalsMs: { profile: 400, search: 400, thread: 400, list: 400 },
      attempts: 3,
      backoffMs: 20,
      push: { timeoutMs: 1000, allowPrivate: true, userAgent: 'test' },
      maxBodyBytes: 1 << 20,
      hubUrl: 'http://threadmark.test/hub',
    },
    quiet,
    async () => undefined,
    { ofKey: async () => FREE_PAYER, ofAddress: () => FREE_PAYER },
  );
  const watches = [watchOf(), watchOf(), watchOf()];
  for (const w of watches) await base.addWatch(w);
  await follow.readSource(SOURCE);
  assert.equal(await base.getMark(SOURCE), '1900000000000000001', 'the first read only sets the mark');
  const delivered = async (watchId: string) =>
    (await base.recentDeliveries(watchId, 20)).flatMap((d) => d.postIds).sort();
  return { base, follow, hold, timeline, watches, delivered };
}

test('two reads that find the same new post at once: each follower gets it once', async () => {
  const { base, follow, hold, timeline, watches, delivered } = await setUp('same');
  timeline.unshift(post('1900000000000000002', 'alice_dev', 2));
  hold(2);
  await Promise.all([follow.readSource(SOURCE), follow.readSource(SOURCE)]);
  for (const w of watches) assert.deepEqual(await delivered(w.id), ['1900000000000000002']);
  assert.equal(await base.getMark(SOURCE), '1900000000000000002');
  await base.close();
});

test('overlapping reads that saw different posts: every new post delivered once, none lost', async () => {
  const { base, follow, hold, timeline, watches, delivered } = await setUp('different');
  timeline.unshift(post('1900000000000000002', 'alice_dev', 2));
  hold(2);
  const first = follow.readSource(SOURCE);
  // The second read's upstream answer already holds a later post.
  await new Promise((r) => setImmediate(r));
  timeline.unshift(post('1900000000000000003', 'alice_dev', 3));
  const second = follow.readSource(SOURCE);
  await Promise.all([first, second]);
  for (const w of watches)
    assert.deepEqual(await delivered(w.id), ['1900000000000000002', '1900000000000000003'], w.id);
  assert.equal(await base.getMark(SOURCE), '1900000000000000003');
  await base.close();
});

test('a watch added while a read is under way gets what that read finds', async () => {
  const { base, follow, timeline, watches, delivered } = await setUp('joined');
  timeline.unshift(post('1900000000000000002', 'alice_dev', 2));
  // The read has taken the source's followers and its upstream answer when the new watch is added.
  const late = watchOf();
  const getMark = base.getMark.bind(base);
  base.getMark = async (key) => {
    base.getMark = getMark;
    await base.addWatch(late);
    return getMark(key);
  };
  await follow.readSource(SOURCE);
  for (const w of [...watches, late]) assert.deepEqual(await delivered(w.id), ['1900000000000000002'], w.id);
  await base.close();
});
