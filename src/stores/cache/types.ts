/** A cached upstream read. The caller compares the timestamps with its clock to tell fresh from stale. */
export interface CacheEntry {
  value: unknown;
  storedAt: number;
  /** Until this instant (epoch ms) the entry is served as a hit. */
  freshUntil: number;
  /** Until this instant the entry is kept for stale-if-error; the backend drops it afterwards. */
  staleUntil: number;
}

/**
 * Holds domain data (never rendered bytes) so every representation of a read shares one entry.
 * Backends never throw on a store failure: they answer a miss and report through `onDegraded`.
 */
export interface Cache {
  get(key: string): Promise<CacheEntry | undefined>;
  /** `freshMs`: lifetime as a hit; `staleMs`: how much longer the copy is kept after it stops being fresh. */
  set(key: string, value: unknown, freshMs: number, staleMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export type DegradedListener = (err: Error, op: string) => void;

export function makeEntry(value: unknown, freshMs: number, staleMs: number, now = Date.now()): CacheEntry {
  const freshUntil = now + Math.max(0, freshMs);
  return { value, storedAt: now, freshUntil, staleUntil: freshUntil + Math.max(0, staleMs) };
}
