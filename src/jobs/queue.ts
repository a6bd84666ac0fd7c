// The two kinds of job the push side runs: reading a watched source once per interval, and one delivery attempt.
// Embedded mode runs them on timers in this process (in-process-queue.ts); distributed mode on a BullMQ queue over
// Redis shared by every instance (bullmq-queue.ts), so each source is read once per interval by exactly one of them.

export interface JobHandlers {
  read(sourceKey: string): Promise<void>;
  deliver(deliveryId: string): Promise<void>;
}

export interface JobQueue {
  readonly kind: 'in-process' | 'bullmq';
  start(handlers: JobHandlers): Promise<void>;
  /** Reads `sourceKey` now and then every `everyMs`; idempotent (a second call changes nothing but the interval). */
  schedule(sourceKey: string, everyMs: number): Promise<void>;
  unschedule(sourceKey: string): Promise<void>;
  /** One attempt of a delivery after `delayMs`; `attempt` keeps two attempts of one delivery apart. */
  enqueueDelivery(deliveryId: string, attempt: number, delayMs: number): Promise<void>;
  /** Stops taking work; waits for the jobs running here. */
  close(): Promise<void>;
}
