// Fixed-window counters for one policy in a few flat typed arrays: 16 bytes per client, no object, string or
// timer per client. A flood of distinct client addresses costs memory in proportion to the clients of the
// current window, up to a fixed bound, and nothing is left behind once their windows have passed.
//
// Each slot holds a 64-bit keyed hash of the partition key (two 32-bit halves, seeded per process so
// nobody can aim keys at one probe chain), the points consumed and the end of the window in ms after `base`.
// Open addressing with linear probing; a slot whose window has ended is free for reuse, and the table is
// rebuilt without them when it fills up (growing only when the live clients need the room).
import { randomBytes } from 'node:crypto';

export interface WindowTableOptions {
  windowMs: number;
  /** Upper bound on slots (a power of two); 16 bytes each. */
  maxSlots?: number;
  now?: () => number;
}

/** Outcome of a charge or a look: the points consumed in the current window and when it ends. */
export interface WindowState {
  allowed: boolean;
  consumed: number;
  /** Epoch ms at which the window ends. */
  endsAt: number;
}

/**
 * 2^21 slots (32 MB) keep every client exact up to about 1.5 million clients per window per policy; past
 * that the least-charged of a few neighbouring clients is forgotten to make room (see `#place`).
 */
export const DEFAULT_MAX_SLOTS = 1 << 21;
const MIN_SLOTS = 1 << 10;
const MAX_LOAD = 0.75;
/** Window ends are stored as u32 ms after `base`; the base moves forward long before they could overflow. */
const REBASE_AFTER_MS = 2 ** 31;
const EVICTION_PROBES = 8;
/** Past this load (at the bound) one-shot clients give up their slots to new ones. */
const PACKED_LOAD = 0.85;
/** Past this load any client may give up its slot: lookups must still end quickly. */
const FULL_LOAD = 0.97;

export class WindowTable {
  readonly #windowMs: number;
  readonly #maxSlots: number;
  readonly #now: () => number;
  readonly #seed1: number;
  readonly #seed2: number;
  #base: number;
  #mask = 0;
  #h1 = new Uint32Array(0);
  #h2 = new Uint32Array(0);
  #count = new Uint32Array(0);
  /** 0 = never used; otherwise the window's end, ms after #base (≤ now = ended, reusable). */
  #ends = new Uint32Array(0);
  /** Slots ever filled since the last rebuild (ended ones included): the probe chains' real load. */
  #used = 0;
  /** The longest distance of any key from its home slot since the last rebuild. */
  #longest = 0;
  /** When a table at its bound may next be swept for ended windows (ms after #base). */
  #nextSweep = 0;
  // The last hash, kept in fields so hashing allocates nothing.
  #k1 = 0;
  #k2 = 0;

  constructor(opts: WindowTableOptions) {
    this.#windowMs = opts.windowMs;
    this.#maxSlots = Math.max(MIN_SLOTS, opts.maxSlots ?? DEFAULT_MAX_SLOTS);
    this.#now = opts.now ?? Date.now;
    const seed = randomBytes(8);
    this.#seed1 = seed.readUInt32LE(0);
    this.#seed2 = seed.readUInt32LE(4);
    this.#base = this.#now() - 1;
    this.#allocate(MIN_SLOTS);
  }

  /**
   * Charges `points` against `quota`. A refused charge is still counted, as the Redis counters count it (a
   * client over its quota stays over it), unless `onlyIfAllowed` is set: then a refusal changes nothing.
   */
  consume(key: string, points: number, quota: number, onlyIfAllowed = false): WindowState {
    const now = this.#rel();
    let slot = this.#find(key, now);
    if (slot < 0) {
      if (onlyIfAllowed && points > quota)
        return { allowed: false, consumed: 0, endsAt: this.#abs(now + this.#windowMs) };
      slot = this.#place(now);
      this.#h1[slot] = this.#k1;
      this.#h2[slot] = this.#k2;
      this.#count[slot] = 0;
      this.#ends[slot] = now + this.#windowMs;
    }
    const consumed = Math.min(0xffffffff, this.#count[slot]! + points);
    const endsAt = this.#abs(this.#ends[slot]!);
    const allowed = consumed <= quota;
    if (!allowed && onlyIfAllowed) return { allowed, consumed: this.#count[slot]!, endsAt };
    this.#count[slot] = consumed;
    return { allowed, consumed, endsAt };
  }

  /** The current window's state without charging; undefined when the key has no live window. */
  peek(key: string): { consumed: number; endsAt: number } | undefined {
    const slot = this.#find(key, this.#rel());
    return slot < 0 ? undefined : { consumed: this.#count[slot]!, endsAt: this.#abs(this.#ends[slot]!) };
  }

  /** Gives `points` back to the window that ends at `endsAt`, and to no other. Returns whether it did. */
  refund(key: string, points: number, endsAt: number): boolean {
    const slot = this.#find(key, this.#rel());
    if (slot < 0 || this.#abs(this.#ends[slot]!) !== endsAt) return false;
    this.#count[slot] = Math.max(0, this.#count[slot]! - points);
    return true;
  }

  delete(key: string): void {
    const slot = this.#find(key, this.#rel());
    // Ended, not emptied: the probe chains through this slot stay intact.
    if (slot >= 0) this.#ends[slot] = 1;
  }

  /** Clients with a live window. */
  get size(): number {
    const now = this.#rel();
    let n = 0;
    for (let i = 0; i <= this.#mask; i++) if (this.#ends[i]! > now) n++;
    return n;
  }

  get slots(): number {
    return this.#mask + 1;
  }

  /** Bytes held by the arrays. */
  get bytes(): number {
    return this.slots * 16;
  }

  #rel(): number {
    let rel = this.#now() - this.#base;
    if (rel >= REBASE_AFTER_MS) {
      this.#rebuild(this.#mask + 1, rel - 1);
      rel = this.#now() - this.#base;
    }
    return rel;
  }

  #abs(rel: number): number {
    return this.#base + rel;
  }

  #hash(key: string): number {
    let a = this.#seed1 ^ 0xdeadbeef;
    let b = this.#seed2 ^ 0x41c6ce57;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      a = Math.imul(a ^ c, 2654435761);
      b = Math.imul(b ^ c, 1597334677);
    }
    a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
    b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
    this.#k1 = a >>> 0;
    this.#k2 = b >>> 0;
    return (this.#k1 ^ Math.imul(this.#k2, 0x9e3779b1)) >>> 0;
  }

  /** The slot holding `key`'s live window, or -1 (the hash stays in #k1/#k2 for #place). */
  #find(key: string, now: number): number {
    let i = this.#hash(key) & this.#mask;
    // No key sits further than #longest from its home slot, so a miss never walks the whole table.
    for (let probes = 0; probes <= this.#longest; probes++) {
      const end = this.#ends[i]!;
      if (end === 0) return -1;
      if (end > now && this.#h1[i] === this.#k1 && this.#h2[i] === this.#k2) return i;
      i = (i + 1) & this.#mask;
    }
    return -1;
  }

  /**
   * A slot for a new key (hash in #k1/#k2): the first ended or empty slot on its probe chain. Once the table is
   * as large as it may get and nearly full, a client gives up its slot instead: the least-charged one found on
   * the chain, and one that has made more than a single request only when the table is all but full. A flood of
   * one-shot addresses thus recycles its own slots while the clients that keep coming back stay exact.
   */
  #place(now: number): number {
    const cap = () => this.#mask + 1;
    if (this.#used + 1 > cap() * MAX_LOAD && (cap() < this.#maxSlots || now >= this.#nextSweep)) this.#makeRoom(now);
    const packed = this.#used + 1 > cap() * PACKED_LOAD;
    const home = (this.#k1 ^ Math.imul(this.#k2, 0x9e3779b1)) & this.#mask;
    let i = home;
    let victim = -1;
    for (let probes = 0; ; probes++) {
      const end = this.#ends[i]!;
      if (end === 0) {
        const spare = this.#used + 1 < cap() * FULL_LOAD && (victim < 0 || this.#count[victim]! > 1);
        if (packed && victim >= 0 && !spare) return this.#take(victim, home);
        this.#used++;
        return this.#take(i, home);
      }
      if (end <= now) return this.#take(i, home);
      if (victim < 0 || this.#count[i]! < this.#count[victim]!) victim = i;
      if (packed && probes + 1 >= EVICTION_PROBES && this.#count[victim]! <= 1) return this.#take(victim, home);
      i = (i + 1) & this.#mask;
    }
  }

  #take(slot: number, home: number): number {
    this.#longest = Math.max(this.#longest, (slot - home) & this.#mask);
    return slot;
  }

  /** Rebuilds without ended windows, twice as large when the live clients need it (up to the bound). */
  #makeRoom(now: number): void {
    let live = 0;
    for (let i = 0; i <= this.#mask; i++) if (this.#ends[i]! > now) live++;
    let slots = MIN_SLOTS;
    while (slots < this.#maxSlots && live + 1 > slots * (MAX_LOAD / 2)) slots *= 2;
    this.#rebuild(slots, 0);
    // At the bound a sweep frees only windows that have ended since the last one: not on every new client.
    this.#nextSweep = now + Math.max(1, this.#windowMs >> 3);
  }

  /** Copies the live windows into `slots` slots (never fewer than they need), moving the base forward by `shift` ms. */
  #rebuild(slots: number, shift: number): void {
    const now = this.#now() - this.#base;
    const [h1, h2, count, ends, mask] = [this.#h1, this.#h2, this.#count, this.#ends, this.#mask];
    this.#allocate(slots);
    this.#base += shift;
    this.#nextSweep -= shift;
    for (let i = 0; i <= mask; i++) {
      const end = ends[i]!;
      if (end <= now) continue;
      let j = (h1[i]! ^ Math.imul(h2[i]!, 0x9e3779b1)) & this.#mask;
      let probes = 0;
      while (this.#ends[j] !== 0) {
        j = (j + 1) & this.#mask;
        probes++;
      }
      this.#longest = Math.max(this.#longest, probes);
      this.#h1[j] = h1[i]!;
      this.#h2[j] = h2[i]!;
      this.#count[j] = count[i]!;
      this.#ends[j] = end - shift;
      this.#used++;
    }
  }

  #allocate(slots: number): void {
    this.#mask = slots - 1;
    this.#h1 = new Uint32Array(slots);
    this.#h2 = new Uint32Array(slots);
    this.#count = new Uint32Array(slots);
    this.#ends = new Uint32Array(slots);
    this.#used = 0;
    this.#longest = 0;
  }
}
