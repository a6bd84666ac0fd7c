// The push side assembled for the composition root: the job queue of the mode (timers in process, or BullMQ over
// the deployment's Redis), the follow service that reads sources and delivers, and the WebSub hub.
import type { WatchSources } from '../domain/watch.ts';
import type { WatchStore } from '../stores/watches/types.ts';
import { BullQueue } from './bullmq-queue.ts';
import { Follow, type FollowLog, type FollowSettings, type TopicRenderer } from './follow.ts';
import { Hub } from './hub.ts';
import { InProcessQueue } from './in-process-queue.ts';
import type { JobQueue } from './queue.ts';
import type { FollowerPayers } from './payers.ts';
import type { RedisTarget } from '../stores/redis/connect.ts';

export type { Follow } from './follow.ts';
export type { Hub } from './hub.ts';

export interface PushOptions {
  store: WatchStore;
  sources: WatchSources;
  settings: FollowSettings;
  log: FollowLog & { error(obj: object, msg: string): void };
  renderTopic: TopicRenderer;
  /** Who pays for each follower's share of the background reads. */
  payers: FollowerPayers;
  /** Distributed mode: the shared queue lives here, under this prefix. */
  redis?: { target: RedisTarget; prefix: string };
}

export interface Push {
  follow: Follow;
  hub: Hub;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A job lock twice the shortest interval (at least 2 s): a dead instance's turn is taken over within it. */
function lockMs(settings: FollowSettings): number {
  return Math.max(2000, 2 * Math.min(...Object.values(settings.intervalsMs)));
}

export function createPush(opts: PushOptions): Push {
  const onError = (err: unknown) => opts.log.error({ err: (err as Error)?.message ?? String(err) }, 'push job failed');
  const queue: JobQueue = opts.redis
    ? new BullQueue({ target: opts.redis.target, prefix: opts.redis.prefix, lockMs: lockMs(opts.settings), onError })
    : new InProcessQueue(onError);
  const follow = new Follow(opts.store, queue, opts.sources, opts.settings, opts.log, opts.renderTopic, opts.payers);
  const hub = new Hub(follow);
  return {
    follow,
    hub,
    start: () => follow.start(),
    async close() {
      await hub.close();
      await follow.close();
    },
  };
}
