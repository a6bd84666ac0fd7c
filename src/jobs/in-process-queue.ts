// Embedded mode's job queue: a timer per watched source and one per pending delivery attempt, in this process.
// A source is never read twice at once: a read still running when its next turn comes skips that turn.
import type { JobHandlers, JobQueue } from './queue.ts';

/** Delivery attempts in flight at once: a source with thousands of followers does not open thousands of sockets. */
const DELIVERY_CONCURRENCY = 32;

export class InProcessQueue implements JobQueue {
  readonly kind = 'in-process' as const;
  #handlers?: JobHandlers;
  readonly #sources = new Map<string, { everyMs: number; timer: NodeJS.Timeout }>();
  readonly #deliveries = new Set<NodeJS.Timeout>();
  readonly #running = new Set<Promise<void>>();
  readonly #reading = new Set<string>();
  #closed = false;
  #inFlight = 0;
  readonly #due: string[] = [];
  readonly #onError: (err: unknown) => void;

  constructor(onError: (err: unknown) => void) {
    this.#onError = onError;
  }

  async start(handlers: JobHandlers): Promise<void> {
    this.#handlers = handlers;
  }

  async schedule(sourceKey: string, everyMs: number): Promise<void> {
    if (this.#closed) return;
    const known = this.#sources.get(sourceKey);
    if (known && known.everyMs === everyMs) return;
    if (known) clearInterval(known.timer);
    const timer = setInterval(() => this.#read(sourceKey), everyMs);
    timer.unref();
    this.#sources.set(sourceKey, { everyMs, timer });
    if (!known) setImmediate(() => this.#read(sourceKey));
  }

  async unschedule(sourceKey: string): Promise<void> {
    const known = this.#sources.get(sourceKey);
    if (known) clearInterval(known.timer);
    this.#sources.delete(sourceKey);
  }

  async enqueueDelivery(deliveryId: string, _attempt: number, delayMs: number): Promise<void> {
    if (this.#closed) return;
    const timer = setTimeout(() => {
      this.#deliveries.delete(timer);
      this.#due.push(deliveryId);
      this.#drain();
    }, delayMs);
    timer.unref();
    this.#deliveries.add(timer);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const { timer } of this.#sources.values()) clearInterval(timer);
    this.#sources.clear();
    for (const t of this.#deliveries) clearTimeout(t);
    this.#deliveries.clear();
    await Promise.allSettled([...this.#running]);
  }

  #read(sourceKey: string): void {
    if (this.#closed || !this.#handlers || this.#reading.has(sourceKey) || !this.#sources.has(sourceKey)) return;
    this.#reading.add(sourceKey);
    this.#track(() => this.#handlers!.read(sourceKey).finally(() => this.#reading.delete(sourceKey)));
  }

  #drain(): void {
    while (!this.#closed && this.#handlers && this.#inFlight < DELIVERY_CONCURRENCY && this.#due.length > 0) {
      const id = this.#due.shift()!;
      this.#inFlight += 1;
      this.#track(() =>
        this.#handlers!.deliver(id).finally(() => {
          this.#inFlight -= 1;
          this.#drain();
        }),
      );
    }
  }

  #track(run: () => Promise<void>): void {
    if (this.#closed) return;
    const p = run().catch(this.#onError);
    this.#running.add(p);
    void p.finally(() => this.#running.delete(p));
  }
}
