// Child process (run with --expose-gc): a fresh service whose in-process cache is filled with 10,000 posts,
// reporting RSS before and after, what the LRU kept, and whether its byte bound held.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { composeRuntime } from '../../src/compose.ts';
import { MemoryCache, DEFAULT_CACHE_MAX_BYTES } from '../../src/stores/cache/memory.ts';
import type { Post } from '../../src/domain/models.ts';
import type { Sourced } from '../../src/domain/sourced.ts';
import { IDS } from '../../sim/corpus.ts';
import { limiterPayer, refusingCharge } from '../../src/stores/limits/payers.ts';

const POSTS = Number(process.env.BENCH_FILL_POSTS ?? 10_000);
const SMALL_BOUND = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mb = (n: number) => Math.round((n / 1048576) * 10) / 10;
const settle = () => {
  gc();
  gc();
  return process.memoryUsage();
};

const dir = mkdtempSync(join(tmpdir(), 'threadmark-bench-'));
const config = loadConfig({ THREADMARK_KEYS_DB: join(dir, 'keys.db'), ...process.env, HOST: '127.0.0.1', PORT: '0' });
const app = await composeRuntime(config, { logger: false });
await app.server.listen({ host: '127.0.0.1', port: 0 });
const addr = app.server.server.address();
const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

// Real posts from the simulator corpus (text, media, polls, quotes) as templates; each copy gets its own
// id and text so nothing is shared between entries.
const templates: Sourced<Post>[] = [];
const payer = limiterPayer({ kind: 'address', id: '127.0.0.1' }, refusingCharge(app.services.stores.limiter));
for (const id of [...IDS.thread, IDS.noteTweet, IDS.article, IDS.cardLink, IDS.communityNote]) {
  templates.push(await app.services.posts.post(id, { mode: 'shared', payer }));
}
const idle = settle();

const cache = app.services.stores.cache;
const freshMs = config.cacheTtlS * 1000;
const staleMs = Math.max(freshMs * 12, 3_600_000);
const copies: Array<{ value: Post; source: string }> = [];
const t0 = performance.now();
for (let i = 0; i < POSTS; i++) {
  const t = templates[i % templates.length]!;
  const value = structuredClone(t.value);
  value.id = String(2_100_000_000_000_000_000n + BigInt(i));
  value.url = `https://x.com/${value.author.handle}/status/${value.id}`;
  value.text = `${value.text} (copy ${i})`;
  const entry = { value, source: t.source };
  copies.push(entry);
  await cache.set(`post:${value.id}`, entry, freshMs, staleMs);
}
const fillMs = performance.now() - t0;
const last = copies.at(-1)!.value;
copies.length = 0;
const full = settle();

// The entries are real cache entries: the newest is answered from the cache over HTTP.
const res = await fetch(`${url}/api/v1/posts?handle=${last.author.handle}&id=${last.id}&thread=off`);
await res.arrayBuffer();

const memory = cache as MemoryCache;
// The byte bound, exercised: the same posts through an LRU bounded at 1 MB.
const small = new MemoryCache({ maxEntries: POSTS, maxBytes: SMALL_BOUND });
for (let i = 0; i < POSTS; i++) {
  const t = templates[i % templates.length]!;
  await small.set(`post:${i}`, { value: t.value, source: t.source }, freshMs, staleMs);
}

process.send!({
  posts: POSTS,
  idleRssMb: mb(idle.rss),
  filledRssMb: mb(full.rss),
  idleHeapMb: mb(idle.heapUsed),
  filledHeapMb: mb(full.heapUsed),
  entriesKept: memory.size,
  accountedMb: mb(memory.calculatedSize),
  boundMb: mb(DEFAULT_CACHE_MAX_BYTES),
  defaultBoundHeld: memory.calculatedSize <= DEFAULT_CACHE_MAX_BYTES ? 1 : 0,
  smallBoundEntries: small.size,
  smallBoundKb: Math.round(small.calculatedSize / 1024),
  smallBoundHeld: small.calculatedSize <= SMALL_BOUND ? 1 : 0,
  fillMs: Math.round(fillMs),
  newestServedFromCache: res.status === 200 && res.headers.get('x-cache') === 'hit' ? 1 : 0,
});
await app.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
