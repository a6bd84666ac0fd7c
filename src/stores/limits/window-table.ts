// The in-process backend of the fixed window (window.ts): one policy's counters in flat typed arrays, 16 bytes
// per client, no object, string or timer per client. A flood of distinct client addresses costs memory in proportion to the clients of the
// current window, up to a fixed bound, and nothing is left behind once their windows have passed.
//
// Each slot holds a 64-bit keyed hash of the partition key (two 32-bit halves, seeded per process so
// nobody can aim keys at one probe chain), the points consumed and the end of the window in ms after `base`.
// Open addressing with linear probing; a slot whose window has ended is free for reuse, and a segment is
// rebuilt without them when it fills up (growing only when the live clients need the room).
//
// The slots are split into 16 segments by hash, each grown and rebuilt on its own, in place: a flood of new
// addresses never copies the whole table at once, so memory grows by a segment's copy at a time and the garbage
// collector sweeps a segment's worth, not the table's.
import { randomBytes } from 'node:crypto';
import type { WindowState } from './window.ts';

export interface WindowTableOptions {
  windowMs: number;
  /** Upper bound on slots (a power of two, at least 1,024); 16 bytes each. */
  maxSlots?: number;
  now?: () => number;
}

/**
 * 2^20 slots (16 MB) keep every client exact up to about 800,000 clients per window per policy; past that
 * the least-charged of a few neighbouring clients is forgotten to make room (see `Segment.place`): a client
 * that made one request first, so the ones that keep coming back stay exact.
 */
export const DEFAULT_MAX_SLOTS = 1 << 20;
const SEGMENT_BITS = 4;
const SEGMENTS = 1 << SEGMENT_BITS;
const MIN_SEGMENT_SLOTS = 64;
const MAX_LOAD = 0.75;
/** Window ends are stored as u32 ms after `base`; the base moves forward long before they could overflow. */
const REBASE_AFTER_MS = 2 ** 31;
const EVICTION_PROBES = 8;
/** Past this load (at the bound) one-shot clients give up their slots to new ones. */
const PACKED_LOAD = 0.85;
/** Past this load any client may give up its slot: lookups must still end quickly. */
const FULL_LOAD = 0.97;

function homeOf(k1: number, k2: number): number {
  return k1 ^ Math.imul(k2, 0x9e3779b1);
}

/** ArrayBuffer as ES2024 has it (Node 20 does): resizable in place up to a bound reserved, not committed. */
type Resizable = ArrayBuffer & { resize(bytes: number): void };
const Resizable = ArrayBuffer as unknown as new (bytes: number, opts: { maxByteLength: number }) => Resizable;

/** Live entries of a segment being rebuilt, four words each; one for every table, reused. */
let scratch = new Uint32Array(0);

function scratchFor(words: number): Uint32Array {
  if (scratch.length < words) scratch = new Uint32Array(Math.max(words, scratch.length * 2));
  return scratch;
}

/** Words per slot: the two hash halves, the points consumed, the window's end. */
const WORDS = 4;
const H1 = 0;
const H2 = 1;
const COUNT = 2;
const END = 3;

/**
 * One segment's slots; times are ms after the table's base. A slot's four words sit side by side in one array, so
 * a probe reads one cache line rather than one in each of four arrays (a table of many clients is far larger than
 * the CPU caches, so a new client's slot is a miss wherever it is). The array tracks a resizable buffer,
 * so growing, sweeping and rebasing happen in place: the live entries go to a shared scratch array and come back
 * rehashed. Nothing is left for the garbage collector: a flood's peak carries no dead copies of swept arrays.
 */
class Segment {
  readonly #maxSlots: number;
  readonly #windowMs: number;
  readonly #buffer: Resizable;
  mask = MIN_SEGMENT_SLOTS - 1;
  /**
   * Slot i is words i*4 … i*4+3: H1, H2, COUNT and END (0 = never used; otherwise the window's end, ms after the
   * base: ≤ now = ended, reusable).
   */
  readonly words: Uint32Array;
  /** Slots ever filled since the last rebuild (ended ones included): the probe chains' real load. */
  #used = 0;
  /** The longest distance of any key from its home slot since the last rebuild. */
  #longest = 0;
  /** When a segment at its bound may next be swept for ended windows (ms after the base). */
  #nextSweep = 0;

  constructor(maxSlots: number, windowMs: number) {
    this.#maxSlots = maxSlots;
    this.#windowMs = windowMs;
    this.#buffer = new Resizable(MIN_SEGMENT_SLOTS * WORDS * 4, { maxByteLength: maxSlots * WORDS * 4 });
    // Without a length the view tracks the buffer's: it sees every resize.
    this.words = new Uint32Array(this.#buffer);
  }

  /** The slot holding the key hashed to k1/k2 with a live window, or -1. */
  find(k1: number, k2: number, now: number): number {
    const w = this.words;
    let i = homeOf(k1, k2) & this.mask;
    // No key sits further than #longest from its home slot, so a miss never walks the whole segment.
    for (let probes = 0; probes <= this.#longest; probes++) {
      const at = i * WORDS;
      const end = w[at + END]!;
      if (end === 0) return -1;
      if (end > now && w[at + H1] === k1 && w[at + H2] === k2) return i;
      i = (i + 1) & this.mask;
    }
    return -1;
  }

  count(slot: number): number {
    return this.words[slot * WORDS + COUNT]!;
  }

  setCount(slot: number, count: number): void {
    this.words[slot * WORDS + COUNT] = count;
  }

  end(slot: number): number {
    return this.words[slot * WORDS + END]!;
  }

  setEnd(slot: number, end: number): void {
    this.words[slot * WORDS + END] = end;
  }

  /** Fills `slot` with a new key's window: no points yet, ending at `end`. */
  fill(slot: number, k1: number, k2: number, end: number): void {
    const at = slot * WORDS;
    const w = this.words;
    w[at + H1] = k1;
    w[at + H2] = k2;
    w[at + COUNT] = 0;
    w[at + END] = end;
  }

  /**
   * A slot for a new key: the first ended or empty slot on its probe chain. Once the segment is as large as it
   * may get and nearly full, a client gives up its slot instead: the least-charged one found on the chain, and
   * one that has made more than a single request only when the segment is all but full. A flood of one-shot
   * addresses thus recycles its own slots while the clients that keep coming back stay exact.
   */
  place(k1: number, k2: number, now: number): number {
    const cap = () => this.mask + 1;
    if (this.#used + 1 > cap() * MAX_LOAD && (cap() < this.#maxSlots || now >= this.#nextSweep)) this.#makeRoom(now);
    const packed = this.#used + 1 > cap() * PACKED_LOAD;
    const home = homeOf(k1, k2) & this.mask;
    let i = home;
    let victim = -1;
    for (let probes = 0; ; probes++) {
      const end = this.end(i);
      if (end === 0) {
        const spare = this.#used + 1 < cap() * FULL_LOAD && (victim < 0 || this.count(victim) > 1);
        if (packed && victim >= 0 && !spare) return this.#take(victim, home);
        this.#used++;
        return this.#take(i, home);
      }
      if (end <= now) return this.#take(i, home);
      if (victim < 0 || this.count(i) < this.count(victim)) victim = i;
      if (packed && probes + 1 >= EVICTION_PROBES && this.count(victim) <= 1) return this.#take(victim, home);
      i = (i + 1) & this.mask;
    }
  }

  #take(slot: number, home: number): number {
    this.#longest = Math.max(this.#longest, (slot - home) & this.mask);
    return slot;
  }

  /** Rebuilds without ended windows, twice as large when the live clients need it (up to the bound). */
  #makeRoom(now: number): void {
    let live = 0;
    for (let i = 0; i <= this.mask; i++) if (this.end(i) > now) live++;
    let slots = MIN_SEGMENT_SLOTS;
    while (slots < this.#maxSlots && live + 1 > slots * (MAX_LOAD / 2)) slots *= 2;
    this.rebuild(slots, now, 0);
    // At the bound a sweep frees only windows that have ended since the last one: not on every new client.
    this.#nextSweep = now + Math.max(1, this.#windowMs >> 3);
  }

  /**
   * Keeps only the live windows (ending after `now`), in `slots` slots (never fewer than they need; 0 keeps the
   * size), their times moved back by `shift` ms as the base moves forward by as much.
   */
  rebuild(slots: number, now: number, shift: number): void {
    const old = this.mask + 1;
    const tmp = scratchFor(old * WORDS);
    let w = this.words;
    let live = 0;
    for (let i = 0; i < old; i++) {
      const at = i * WORDS;
      if (w[at + END]! <= now) continue;
      const to = live * WORDS;
      tmp[to + H1] = w[at + H1]!;
      tmp[to + H2] = w[at + H2]!;
      tmp[to + COUNT] = w[at + COUNT]!;
      tmp[to + END] = w[at + END]! - shift;
      live++;
    }
    const size = slots || old;
    if (size !== old) this.#buffer.resize(size * WORDS * 4);
    w = this.words;
    w.fill(0);
    this.mask = size - 1;
    this.#nextSweep -= shift;
    this.#used = live;
    this.#longest = 0;
    for (let e = 0; e < live; e++) {
      const from = e * WORDS;
      let j = homeOf(tmp[from + H1]!, tmp[from + H2]!) & this.mask;
      let probes = 0;
      while (w[j * WORDS + END] !== 0) {
        j = (j + 1) & this.mask;
        probes++;
      }
      this.#longest = Math.max(this.#longest, probes);
      const to = j * WORDS;
      w[to + H1] = tmp[from + H1]!;
      w[to + H2] = tmp[from + H2]!;
      w[to + COUNT] = tmp[from + COUNT]!;
      w[to + END] = tmp[from + END]!;
    }
  }
}

export class WindowTable {
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #seed1: number;
  readonly #seed2: number;
  readonly #segments: Segment[] = [];
  #base: number;
  // The last hash and its segment, kept in fields so hashing allocates nothing.
  #k1 = 0;
  #k2 = 0;
  #segment!: Segment;

  constructor(opts: WindowTableOptions) {
    this.#windowMs = opts.windowMs;
    this.#now = opts.now ?? Date.now;
    const perSegment = Math.max(MIN_SEGMENT_SLOTS, (opts.maxSlots ?? DEFAULT_MAX_SLOTS) >> SEGMENT_BITS);
    for (let i = 0; i < SEGMENTS; i++) this.#segments.push(new Segment(perSegment, opts.windowMs));
    const seed = randomBytes(8);
    this.#seed1 = seed.readUInt32LE(0);
    this.#seed2 = seed.readUInt32LE(4);
    this.#base = this.#now() - 1;
  }

  /**
   * Charges `points` against `quota`. A refused charge is still counted, as the Redis counters count it (a
   * client over its quota stays over it), unless `onlyIfAllowed` is set: then a refusal changes nothing.
   */
  consume(key: string, points: number, quota: number, onlyIfAllowed = false): WindowState {
    const now = this.#rel();
    let slot = this.#find(key, now);
    const seg = this.#segment;
    if (slot < 0) {
      if (onlyIfAllowed && points > quota)
        return { allowed: false, consumed: 0, endsAt: this.#abs(now + this.#windowMs) };
      slot = seg.place(this.#k1, this.#k2, now);
      seg.fill(slot, this.#k1, this.#k2, now + this.#windowMs);
    }
    const before = seg.count(slot);
    const consumed = Math.min(0xffffffff, before + points);
    const endsAt = this.#abs(seg.end(slot));
    const allowed = consumed <= quota;
    if (!allowed && onlyIfAllowed) return { allowed, consumed: before, endsAt };
    seg.setCount(slot, consumed);
    return { allowed, consumed, endsAt };
  }

  /** The current window's state without charging; undefined when the key has no live window. */
  peek(key: string): { consumed: number; endsAt: number } | undefined {
    const slot = this.#find(key, this.#rel());
    const seg = this.#segment;
    return slot < 0 ? undefined : { consumed: seg.count(slot), endsAt: this.#abs(seg.end(slot)) };
  }

  /** Gives `points` back to the window that ends at `endsAt`, and to no other. Returns whether it did. */
  refund(key: string, points: number, endsAt: number): boolean {
    const slot = this.#find(key, this.#rel());
    const seg = this.#segment;
    if (slot < 0 || this.#abs(seg.end(slot)) !== endsAt) return false;
    seg.setCount(slot, Math.max(0, seg.count(slot) - points));
    return true;
  }

  delete(key: string): void {
    const slot = this.#find(key, this.#rel());
    // Ended, not emptied: the probe chains through this slot stay intact.
    if (slot >= 0) this.#segment.setEnd(slot, 1);
  }

  /** Clients with a live window. */
  get size(): number {
    const now = this.#rel();
    let n = 0;
    for (const seg of this.#segments) for (let i = 0; i <= seg.mask; i++) if (seg.end(i) > now) n++;
    return n;
  }

  get slots(): number {
    let n = 0;
    for (const seg of this.#segments) n += seg.mask + 1;
    return n;
  }

  /** Bytes held by the arrays. */
  get bytes(): number {
    return this.slots * 16;
  }

  #rel(): number {
    let rel = this.#now() - this.#base;
    if (rel >= REBASE_AFTER_MS) {
      const shift = rel - 1;
      for (const seg of this.#segments) seg.rebuild(0, rel, shift);
      this.#base += shift;
      rel = this.#now() - this.#base;
    }
    return rel;
  }

  #abs(rel: number): number {
    return this.#base + rel;
  }

  /** Hashes `key` into #k1/#k2 and picks its segment. */
  #hash(key: string): void {
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
    // The top bits pick the segment; the home slot within it comes from the low bits of homeOf.
    this.#segment = this.#segments[homeOf(this.#k1, this.#k2) >>> (32 - SEGMENT_BITS)]!;
  }

  /** The slot of `key`'s live window in its segment, or -1 (the hash and segment stay in fields for place). */
  #find(key: string, now: number): number {
    this.#hash(key);
    return this.#segment.find(this.#k1, this.#k2, now);
  }
}
