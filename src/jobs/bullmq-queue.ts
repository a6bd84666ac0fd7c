// Distributed mode's job queue: BullMQ over the deployment's Redis. Each watched source has one job scheduler (its
// id derived from the source), so however many instances run, the source is read once per interval by whichever
// worker takes that turn's job; a job whose instance dies is found stalled and taken over by another worker.
// Delivery attempts are delayed jobs, one id per (delivery, attempt), so a retry is never queued twice.
import { engines } from '../engines.ts';
import { createHash } from 'node:crypto';
import type { ConnectionOptions, Queue, Worker } from 'bullmq';
import type { RedisTarget } from '../stores/redis/connect.ts';
import type { JobHandlers, JobQueue } from './queue.ts';

export interface BullQueueOptions {
  /** The deployment's Redis: one node, a Sentinel-watched master or a cluster. */
  target: RedisTarget;
  /** Root of the queue's Redis keys (the deployment's THREADMARK_REDIS_PREFIX). */
  prefix: string;
  /** How long a worker holds a job before another may take it over if it stops renewing the lock. */
  lockMs: number;
  onError: (err: unknown) => void;
}

const READS = 'watch-reads';
/** Longest a close waits for the queue's own shutdown. */
const CLOSE_WAIT_MS = 5000;
const DELIVERIES = 'watch-deliveries';

/** A lost connection to Redis: the stores already report the outage once, so the queue's own copies stay quiet. */
function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  return (
    (typeof code === 'string' &&
      ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code)) ||
    /ECONNREFUSED|Connection is closed|connect ETIMEDOUT|ECONNRESET/.test(message)
  );
}

const bullmq = engines.bullmq;

/** BullMQ's workers block on Redis, so their connections must never give up on a command. */
function connectionOf(target: RedisTarget): ConnectionOptions {
  if ('cluster' in target) {
    const { Cluster } = engines.ioredis();
    return new Cluster(target.cluster, { redisOptions: { maxRetriesPerRequest: null } });
  }
  if ('sentinels' in target) return { sentinels: target.sentinels, name: target.name, maxRetriesPerRequest: null };
  return { url: target.url, maxRetriesPerRequest: null };
}

/** Scheduler ids must not hold ':' (BullMQ's own key separator): a digest of the source key instead. */
const schedulerId = (sourceKey: string) => `src-${createHash('sha256').update(sourceKey).digest('hex').slice(0, 32)}`;

export class BullQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  readonly #connection: ConnectionOptions;
  readonly #prefix: string;
  readonly #opts: BullQueueOptions;
  #queues?: { reads: Queue; deliveries: Queue };
  readonly #workers: Worker[] = [];

  constructor(opts: BullQueueOptions) {
    this.#opts = { ...opts, onError: (err) => (isConnectionError(err) ? undefined : opts.onError(err)) };
    this.#connection = connectionOf(opts.target);
    // The hash tag keeps every key of a queue in one slot, as BullMQ's scripts need on a cluster.
    this.#prefix = `{${opts.prefix}bull}`;
  }

  /** The queues connect on first use: an instance that never schedules or delivers keeps no connection for them. */
  #q(): { reads: Queue; deliveries: Queue } {
    if (!this.#queues) {
      const { Queue } = bullmq();
      const reads = new Queue(READS, { connection: this.#connection, prefix: this.#prefix });
      const deliveries = new Queue(DELIVERIES, { connection: this.#connection, prefix: this.#prefix });
      reads.on('error', this.#opts.onError);
      deliveries.on('error', this.#opts.onError);
      this.#queues = { reads, deliveries };
    }
    return this.#queues;
  }

  async start(handlers: JobHandlers): Promise<void> {
    // A start that failed (Redis unreachable) is retried: the workers made then are waited for, not made again.
    if (this.#workers.length > 0) {
      await Promise.all(this.#workers.map((w) => w.waitUntilReady()));
      return;
    }
    const common = {
      connection: this.#connection,
      prefix: this.#prefix,
      lockDuration: this.#opts.lockMs,
      stalledInterval: Math.max(50, Math.floor(this.#opts.lockMs / 2)),
      concurrency: 8,
    };
    const { Worker } = bullmq();
    const reads = new Worker<{ sourceKey: string }>(READS, (job) => handlers.read(job.data.sourceKey), {
      ...common,
      removeOnComplete: { count: 100 },
      removeOnFail: { count: 100 },
    });
    const deliveries = new Worker<{ id: string }>(DELIVERIES, (job) => handlers.deliver(job.data.id), {
      ...common,
      removeOnComplete: { count: 100 },
      removeOnFail: { count: 100 },
    });
    for (const w of [reads, deliveries]) {
      w.on('error', this.#opts.onError);
      this.#workers.push(w);
    }
    await Promise.all(this.#workers.map((w) => w.waitUntilReady()));
  }

  async schedule(sourceKey: string, everyMs: number): Promise<void> {
    await this.#q().reads.upsertJobScheduler(
      schedulerId(sourceKey),
      { every: everyMs },
      { name: 'read', data: { sourceKey }, opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } } },
    );
  }

  async unschedule(sourceKey: string): Promise<void> {
    await this.#q().reads.removeJobScheduler(schedulerId(sourceKey));
  }

  async enqueueDelivery(deliveryId: string, attempt: number, delayMs: number): Promise<void> {
    await this.#q().deliveries.add(
      'deliver',
      { id: deliveryId },
      { jobId: `${deliveryId}-${attempt}`, delay: delayMs, removeOnComplete: true, removeOnFail: { count: 100 } },
    );
  }

  /** Waits for the jobs running here, but not for a Redis that does not answer (at most CLOSE_WAIT_MS). */
  async close(): Promise<void> {
    const closing = (async () => {
      await Promise.allSettled(this.#workers.map((w) => w.close()));
      const q = this.#queues;
      if (q) await Promise.allSettled([q.reads.close(), q.deliveries.close()]);
    })();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
    await Promise.race([closing, waited]);
    clearTimeout(timer);
    if (!(await Promise.race([closing.then(() => true), Promise.resolve(false)]))) {
      const q = this.#queues;
      for (const c of [...this.#workers, ...(q ? [q.reads, q.deliveries] : [])])
        void c.disconnect().catch(() => undefined);
    }
  }
}
