// The capacity model's traffic mix run against the simulator with the real stores: each read class is measured
// once cold and warm (its ClassCost), then a mix of reads with a skewed popularity is run, and what Redis
// (INFO commandstats and byte counters of a server of the run's own) and the simulator (calls and bytes per
// target) saw is compared with what the formulas of bench/lib/capacity-model.ts predict from those costs.
import { getCorpus, HANDLES } from '../../sim/corpus.ts';
import { seededRandom } from '../../sim/prng.ts';
import { xAccounts } from '../../sim/routes/x-accounts.ts';
import type { Simulator } from '../../sim/server.ts';
import { counterDelta, type RedisBackend, type RedisCounters } from '../../test/helpers/private-redis.ts';
import { hitsOf, perRead, type ClassCost, type MixClass } from './capacity-model.ts';

export const TARGETS = ['fxtwitter', 'syndication', 'x'] as const;

export interface ClassDef {
  name: string;
  share: number;
  /** Paths read in the mix. */
  keys: string[];
  /** Paths measured for the class's cost, never read in the mix. */
  calibration: string[];
}

export interface Target {
  url: string;
  sim: Simulator;
  redis: RedisBackend;
}

/**
 * The realistic mix: mostly post permalinks pasted and re-read, then profiles, searches, follower pages (an
 * account-backed operation), profile feeds and oEmbed. Keys come from the simulator's corpus: posts that start
 * their own conversation, reader accounts, distinct search terms.
 */
export function realisticMix(baseUrl: string, keysPerClass = 60): ClassDef[] {
  const corpus = getCorpus();
  const handleOf = new Map<string, string>();
  for (const [handle, u] of corpus.usersByHandle) handleOf.set(u.id, handle);
  const readers = [...corpus.usersByHandle.values()].filter(
    (u) => /^reader_\d+$/.test(u.handle) && !u.protected && !u.suspended,
  );
  // Ordinary accounts: the corpus's named fixtures (a 12-post thread with media, a hostile account, ...) are the
  // edge cases of the tests, and a handful of them would decide a mean.
  const open = new Set(
    [...corpus.usersByHandle.values()]
      .filter((u) => !u.protected && !u.suspended && (/^reader_\d+$/.test(u.handle) || u.handle === HANDLES.prolific))
      .map((u) => u.handle),
  );
  const posts = [...corpus.posts.values()].filter((p) => {
    const handle = handleOf.get(p.authorId);
    return p.conversationId === p.id && !p.deleted && !p.quoteId && !p.replyToId && handle && open.has(handle);
  });
  // One path in four is a calibration path: enough of the population that its mean cost is the class's.
  const n = Math.ceil((keysPerClass * 4) / 3);
  const take = <T>(xs: T[], k: number, offset = 0) => xs.slice(offset, offset + k);
  const postPaths = take(posts, n).map((p) => `/${handleOf.get(p.authorId)}/status/${p.id}`);
  const profile = take(readers, n).map((u) => `/${u.handle}`);
  const followers = take(readers, n, n).map((u) => `/api/v1/profiles/${u.handle}/followers`);
  const feeds = take(readers, n, 2 * n).map((u) => `/${u.handle}/rss`);
  const searches = Array.from({ length: n }, (_, i) => `/api/v1/search?q=${encodeURIComponent(`capacity term${i}`)}`);
  // The photos feed needs X sessions: the account-backed share of the mix.
  const media = Array.from(
    { length: n },
    (_, i) => `/api/v1/search?q=${encodeURIComponent(`capacity media${i}`)}&feed=photos`,
  );
  const oembed = take(posts, n, n).map(
    (p) => `/api/v1/oembed?url=${encodeURIComponent(`${baseUrl}/${handleOf.get(p.authorId)}/status/${p.id}`)}`,
  );
  // Popularity (the Zipf rank) must not follow the corpus's order, which lists its few large threads first.
  const rnd = seededRandom(7);
  const shuffled = (xs: string[]) =>
    xs
      .map((x) => [rnd(), x] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, x]) => x);
  const def = (name: string, share: number, all: string[]): ClassDef => {
    const paths = shuffled(all);
    return {
      name,
      share,
      calibration: paths.filter((_, i) => i % 4 === 1),
      keys: paths.filter((_, i) => i % 4 !== 1),
    };
  };
  return [
    def('post', 0.55, postPaths),
    def('profile', 0.15, profile),
    def('search', 0.1, searches),
    def('media search', 0.05, media),
    def('followers', 0.05, followers),
    def('feed', 0.05, feeds),
    def('oembed', 0.05, oembed),
  ];
}

/** `count` reads of the mix: a class by its share, a key by Zipf popularity (s = 1) within the class. */
export function mixSequence(
  classes: readonly ClassDef[],
  count: number,
  seed = 42,
): Array<{ cls: string; path: string }> {
  const rnd = seededRandom(seed);
  const out: Array<{ cls: string; path: string }> = [];
  for (let i = 0; i < count; i++) {
    let u = rnd();
    const cls = classes.find((c) => (u -= c.share) < 0) ?? classes[classes.length - 1]!;
    const weights = cls.keys.map((_, k) => 1 / (k + 1));
    let w = rnd() * weights.reduce((a, b) => a + b, 0);
    const k = weights.findIndex((x) => (w -= x) < 0);
    out.push({ cls: cls.name, path: cls.keys[k < 0 ? cls.keys.length - 1 : k]! });
  }
  return out;
}

let clientSeq = 0;
/** Every read from an address of its own: the per-client allowances stay out of the way, as with real readers. */
async function read(t: Target, path: string): Promise<{ status: number; cache: string | null }> {
  clientSeq++;
  const ip = `10.${(clientSeq >> 16) & 255}.${(clientSeq >> 8) & 255}.${clientSeq & 255}`;
  const res = await fetch(t.url + path, { headers: { 'x-forwarded-for': ip, accept: 'text/markdown' } });
  await res.arrayBuffer();
  return { status: res.status, cache: res.headers.get('x-cache') };
}

interface Reading {
  redis: RedisCounters;
  calls: Record<string, number>;
  bytes: number;
}

async function reading(t: Target): Promise<Reading> {
  const calls: Record<string, number> = {};
  for (const target of TARGETS) calls[target] = t.sim.calls({ target });
  return { redis: await t.redis.counters(), calls, bytes: t.sim.bytesSent() };
}

/** What taking a reading costs Redis (INFO replies count in its byte counters). */
async function readingOverhead(t: Target): Promise<RedisCounters> {
  const a = await t.redis.counters();
  const b = await t.redis.counters();
  return counterDelta(a, b);
}

function diff(a: Reading, b: Reading, overhead: RedisCounters) {
  const redis = counterDelta(a.redis, b.redis, overhead);
  const calls: Record<string, number> = {};
  for (const target of TARGETS) calls[target] = (b.calls[target] ?? 0) - (a.calls[target] ?? 0);
  return { redis, calls, bytes: b.bytes - a.bytes };
}

/** Each class's cost: its calibration keys read once cold, then `warm` times each. */
export async function calibrate(t: Target, classes: readonly ClassDef[], warm = 2): Promise<Record<string, ClassCost>> {
  const overhead = await readingOverhead(t);
  const out: Record<string, ClassCost> = {};
  for (const cls of classes) {
    // Each kind of read as one batch over the class's calibration keys: a reading of the counters costs about
    // as much as a read, so it is taken once per batch, not once per read.
    const sums = { miss: [0, 0], hit: [0, 0], repeat: [0, 0] };
    const calls: Record<string, number> = {};
    let upBytes = 0;
    let repeats = 0;
    for (let i = 0; i <= warm; i++) {
      const kind = i === 0 ? 'miss' : i === 1 ? 'hit' : 'repeat';
      const a = await reading(t);
      for (const path of cls.calibration) {
        const r = await read(t, path);
        if (r.status !== 200) throw new Error(`calibration read ${path}: ${r.status}`);
      }
      const d = diff(a, await reading(t), overhead);
      sums[kind][0]! += d.redis.commands;
      sums[kind][1]! += d.redis.bytesIn + d.redis.bytesOut;
      if (kind === 'repeat') repeats += cls.calibration.length;
      if (kind !== 'miss') continue;
      upBytes += d.bytes;
      for (const [k, v] of Object.entries(d.calls)) if (v) calls[k] = (calls[k] ?? 0) + v;
    }
    const keys = cls.calibration.length;
    for (const k of Object.keys(calls)) calls[k]! /= keys;
    out[cls.name] = {
      upstreamCalls: calls,
      upstreamBytes: upBytes / keys,
      redisOps: { miss: sums.miss[0]! / keys, hit: sums.hit[0]! / keys, repeat: sums.repeat[0]! / repeats },
      redisBytes: { miss: sums.miss[1]! / keys, hit: sums.hit[1]! / keys, repeat: sums.repeat[1]! / repeats },
    };
  }
  return out;
}

export interface Comparison {
  figure: string;
  predicted: number;
  measured: number;
}

/** Runs `count` reads of the mix and sets each measured total beside the formulas' prediction. */
export async function runMix(
  t: Target,
  classes: readonly ClassDef[],
  costs: Readonly<Record<string, ClassCost>>,
  count: number,
): Promise<{ comparisons: Comparison[]; mix: MixClass[]; hits: number; statuses: Record<number, number> }> {
  const seq = mixSequence(classes, count);
  const overhead = await readingOverhead(t);
  const a = await reading(t);
  let hits = 0;
  const statuses: Record<number, number> = {};
  for (const { path } of seq) {
    const r = await read(t, path);
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (r.cache === 'hit') hits++;
  }
  const d = diff(a, await reading(t), overhead);
  const mix: MixClass[] = classes.map((c) => {
    const perKey = new Map<string, number>();
    for (const s of seq) if (s.cls === c.name) perKey.set(s.path, (perKey.get(s.path) ?? 0) + 1);
    const reads = [...perKey.values()].reduce((a, b) => a + b, 0);
    return { name: c.name, share: reads / seq.length, ...hitsOf([...perKey.values()]) };
  });
  const per = perRead(mix, costs);
  const predictedHits = mix.reduce((acc, c) => acc + c.share * c.hitRatio, 0) * count;
  const comparisons: Comparison[] = [
    { figure: 'reads answered from the service cache', predicted: predictedHits, measured: hits },
    { figure: 'Redis commands', predicted: per.redisOps * count, measured: d.redis.commands },
    {
      figure: 'Redis bytes (in + out)',
      predicted: per.redisBytes * count,
      measured: d.redis.bytesIn + d.redis.bytesOut,
    },
    { figure: 'upstream bytes', predicted: per.upstreamBytes * count, measured: d.bytes },
  ];
  for (const target of TARGETS) {
    const predicted = (per.upstreamCalls[target] ?? 0) * count;
    const measured = d.calls[target] ?? 0;
    if (predicted > 0 || measured > 0) comparisons.push({ figure: `upstream calls (${target})`, predicted, measured });
  }
  return { comparisons, mix, hits, statuses };
}

/** Whether `measured` is within `tolerance` of `predicted` (relative). */
export function within(c: Comparison, tolerance = 0.2): boolean {
  if (c.predicted === 0) return c.measured === 0;
  return Math.abs(c.measured - c.predicted) / c.predicted <= tolerance;
}

/**
 * Formula 4 against the simulator's X accounts: with `sessions` sessions each allowed `limit` calls of an operation
 * per window, distinct account-backed misses succeed until sessions × limit calls are spent, then the service
 * answers 503. Returns the reads that succeeded and what the formula says they should be.
 */
export async function sessionsCheck(
  t: Target,
  sessions: number,
  limit: number,
  callsPerMiss: number,
): Promise<Comparison & { refused: number }> {
  xAccounts.setLimits({ limit });
  try {
    let ok = 0;
    let refused = 0;
    for (let i = 0; i < sessions * limit * 2 && refused === 0; i++) {
      const r = await read(t, `/api/v1/search?q=${encodeURIComponent(`capacity window${i}`)}&feed=photos`);
      if (r.status === 200) ok++;
      else if (r.status === 503) refused++;
      else throw new Error(`account-backed read: ${r.status}`);
    }
    return {
      figure: 'account-backed misses per window',
      predicted: (sessions * limit) / callsPerMiss,
      measured: ok,
      refused,
    };
  } finally {
    xAccounts.reset();
  }
}
