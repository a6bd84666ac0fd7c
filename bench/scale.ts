// `npm run scale`: the deployment of docs/deployment.md#a-cdn-in-front on loopback, with the shipped files: three
// instances sharing a Redis Cluster, HAProxy (deploy/haproxy.cfg) in front of them, Varnish (deploy/varnish.vcl) in
// front of HAProxy, the simulator behind. Runs 1,000 reads of the capacity model's mix through Varnish (a tenth of
// them browsers revalidating what they hold, in rounds a cache lifetime apart so copies expire and are
// revalidated), then checks the limits through HAProxy from single client addresses, and reports who answered.
// Bounded: about a minute. `-- --redis=private` uses one private redis-server instead, `--redis=redis://host:port`
// an existing Redis.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSimulator, type Simulator } from '../sim/server.ts';
import { simEnv, spawnInstance, type Instance } from '../test/helpers/instance.ts';
import { TEST_BASE } from '../test/helpers/stack.ts';
import { startPrivateRedis, type RedisBackend, type RedisCounters } from '../test/helpers/private-redis.ts';
import { startRedisCluster, type RedisCluster } from '../test/helpers/redis-cluster.ts';
import { startHaproxy, startVarnish, type Edge, type VarnishEdge } from '../test/helpers/edge.ts';
import { mixSequence, realisticMix, TARGETS } from './lib/capacity-sim.ts';
import { sessionsFile } from './lib/capacity-stack.ts';

const READS = 1000;
const ROUNDS = 4;
const TTL_S = 3;
const INSTANCES = 3;

const flag = (name: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? undefined;

/**
 * Where the instances keep shared state: by default a Redis Cluster of the run's own (three masters, three
 * replicas, from test/helpers/redis-cluster.ts), as the deployment guide draws it; `--redis=private` a single
 * private redis-server (its counters feed the Redis figures); `--redis=URL` an existing single Redis.
 */
async function sharedState(): Promise<RedisBackend> {
  const choice = flag('redis');
  if (choice === 'private') return startPrivateRedis();
  if (choice) {
    return {
      env: { THREADMARK_REDIS_URL: choice, THREADMARK_REDIS_PREFIX: `tm-scale:${process.pid}:` },
      counters: async () => ({ commands: 0, bytesIn: 0, bytesOut: 0, perCommand: {} }),
      close: async () => {},
    };
  }
  const cluster = await startRedisCluster();
  return {
    env: { THREADMARK_REDIS_CLUSTER: cluster.seeds },
    counters: async () => clusterCounters(cluster),
    close: () => cluster.stop(),
  };
}

/** Commands the instances sent to the cluster's masters (each node's INFO commandstats; the cluster's own housekeeping left out). */
function clusterCounters(cluster: RedisCluster): RedisCounters {
  const perCommand: Record<string, number> = {};
  let commands = 0;
  for (const port of cluster.masters()) {
    for (const m of cluster.cli(port, 'INFO', 'commandstats').matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
      if (m[1] === 'info' || m[1] === 'cluster' || m[1] === 'ping') continue;
      const n = Number(m[2]);
      perCommand[m[1]!] = (perCommand[m[1]!] ?? 0) + n;
      commands += n;
    }
  }
  let bytesIn = 0;
  let bytesOut = 0;
  for (const port of cluster.masters()) {
    const stats = cluster.cli(port, 'INFO', 'stats');
    bytesIn += Number(/^total_net_input_bytes:(\d+)/m.exec(stats)?.[1] ?? 0);
    bytesOut += Number(/^total_net_output_bytes:(\d+)/m.exec(stats)?.[1] ?? 0);
  }
  return { commands, bytesIn, bytesOut, perCommand };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * One GET from a loopback source address of its own (127.0.0.0/8 is all local): Varnish sees a different client
 * for each reader, so the per-client allowances behind it apply as they would to real readers.
 */
function getFrom(url: string, source: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress: source, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const CRAWLER = 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)';

/** What a reader sends besides the URL: most read Markdown, API clients ask for JSON, a few are crawlers. */
function readerHeaders(i: number): Record<string, string> {
  if (i % 5 === 1) return { accept: 'application/json', 'accept-encoding': 'gzip' };
  if (i % 10 === 3) return { 'user-agent': CRAWLER };
  return { 'accept-encoding': 'gzip, br' };
}

interface Tally {
  cdn: number;
  refused: number;
  instanceCache: number;
  upstream: number;
  clientRevalidations: number;
  notModified: number;
  other: Record<string, number>;
}

async function readThroughCdn(cdn: VarnishEdge, sim: Simulator, baseUrl: string): Promise<void> {
  const classes = realisticMix(baseUrl, 60);
  const seq = mixSequence(classes, READS, 7);
  const held = new Map<string, string>();
  const tally: Tally = {
    cdn: 0,
    refused: 0,
    instanceCache: 0,
    upstream: 0,
    clientRevalidations: 0,
    notModified: 0,
    other: {},
  };
  const before = await cdn.counters();
  const calls0 = Object.fromEntries(TARGETS.map((t) => [t, sim.calls({ target: t })]));
  const perRound = Math.ceil(READS / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    if (round > 0) await sleep(TTL_S * 1000 + 500);
    for (let i = round * perRound; i < Math.min(READS, (round + 1) * perRound); i++) {
      const { path } = seq[i]!;
      // A tenth of the reads come from browsers that hold the copy they were sent and revalidate it.
      const etag = i % 10 === 0 ? held.get(path) : undefined;
      if (etag) tally.clientRevalidations++;
      const headers = { ...readerHeaders(i), ...(etag ? { 'if-none-match': etag } : {}) };
      const source = `127.${1 + ((i >> 16) & 127)}.${(i >> 8) & 255}.${i & 255}`;
      const res = await getFrom(cdn.url + path, source, headers);
      const header = (name: string) => {
        const v = res.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      const tag = header('etag');
      if (tag && i % 10 === 0) held.set(path, tag);
      if (res.status === 304) tally.notModified++;
      if (res.status === 429) tally.refused++;
      else if (res.status !== 200 && res.status !== 304) tally.other[res.status] = (tally.other[res.status] ?? 0) + 1;
      if (res.status === 429) continue;
      if (header('x-cdn-cache') === 'hit') tally.cdn++;
      else if (header('x-cache') === 'hit') tally.instanceCache++;
      else tally.upstream++;
    }
  }
  await sleep(500); // background refreshes started by the last round
  const after = await cdn.counters();
  const c = (name: string) => (after[`MAIN.${name}`] ?? 0) - (before[`MAIN.${name}`] ?? 0);
  const per = (n: number) => ((n / READS) * 1000).toFixed(0).padStart(5);
  console.log(
    `\n${READS} reads of the mix through Varnish, ${ROUNDS} rounds ${TTL_S + 0.5} s apart (cache lifetime ${TTL_S} s):`,
  );
  console.log(`  answered by the CDN                        ${per(tally.cdn)} per 1,000`);
  console.log(`  answered by an instance's cache            ${per(tally.instanceCache)} per 1,000`);
  console.log(`  answered by an upstream read               ${per(tally.upstream)} per 1,000`);
  const calls = TARGETS.map((t) => `${t} ${sim.calls({ target: t }) - calls0[t]!}`).join(', ');
  console.log(`  refused (429)                              ${per(tally.refused)} per 1,000`);
  console.log(`  upstream calls (simulator counters)        ${calls}`);
  console.log(
    `  browser revalidations                      ${tally.clientRevalidations}, answered 304: ${tally.notModified}`,
  );
  console.log(`  Varnish revalidations answered 304 by the service (MAIN.fetch_304): ${c('fetch_304')}`);
  console.log(
    `  Varnish: hits ${c('cache_hit')} (in grace ${c('cache_hit_grace')}), misses ${c('cache_miss')}, ` +
      `passes ${c('s_pass')}, background fetches ${c('s_bgfetch')}, backend requests ${c('backend_req')}`,
  );
  if (Object.keys(tally.other).length) console.log(`  other statuses: ${JSON.stringify(tally.other)}`);
}

/** Requests `path` from one client address through the balancer until the first 429; returns the 200s. */
async function untilRefused(lb: Edge, paths: (i: number) => string, ip: string, max: number): Promise<number> {
  let ok = 0;
  for (let i = 0; i < max; i++) {
    const res = await fetch(lb.url + paths(i), { headers: { 'x-forwarded-for': ip, accept: 'application/json' } });
    await res.arrayBuffer();
    if (res.status === 429) return ok;
    if (res.status === 200) ok++;
  }
  return ok;
}

async function limits(lb: Edge, instances: Instance[]): Promise<void> {
  console.log('\nLimits through HAProxy, one client address each (the instances share the counters):');
  const logged = (i: Instance, needle: string) =>
    i.logs().filter((l) => typeof l.url === 'string' && l.url.includes(needle)).length;
  const search = await untilRefused(lb, (i) => `/api/v1/search?q=scale%20limit${i}`, '198.51.100.7', 20);
  const spread = instances.map((i) => logged(i, 'scale%20limit')).join(' / ');
  console.log(`  search-ip (5 live lookups a minute): ${search} allowed, then 429; requests per instance ${spread}`);
  const api = await untilRefused(lb, () => '/api/v1/profiles/bob', '198.51.100.8', 700);
  console.log(`  api-ip (600 requests a minute): ${api} allowed, then 429`);
  const exact = search === 5 && api === 600;
  console.log(`  ${exact ? 'exact across instances' : 'NOT EXACT'}`);
  if (!exact) process.exitCode = 1;
}

const started = Date.now();
const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
const redis = await sharedState();
const dir = mkdtempSync(join(tmpdir(), 'threadmark-scale-'));
const instances: Instance[] = [];
let lb: Edge | undefined;
let cdn: VarnishEdge | undefined;
try {
  const env = {
    ...simEnv(sim),
    ...redis.env,
    THREADMARK_PROVIDERS: 'fxtwitter,syndication,x',
    THREADMARK_X_SESSIONS: sessionsFile(dir),
    THREADMARK_CACHE_TTL_S: String(TTL_S),
    // Varnish writes the client's address, HAProxy appends Varnish's: two trusted hops.
    THREADMARK_TRUST_PROXY: '2',
  };
  instances.push(...(await Promise.all(Array.from({ length: INSTANCES }, () => spawnInstance(env)))));
  lb = await startHaproxy(instances.map((i) => ({ host: '127.0.0.1', port: i.port })));
  cdn = await startVarnish({ host: '127.0.0.1', port: lb.port });
  console.log(`${INSTANCES} instances behind HAProxy (${lb.url}) behind Varnish (${cdn.url}), simulator ${sim.url}`);
  await readThroughCdn(cdn, sim, TEST_BASE);
  await limits(lb, instances);
  const r = await redis.counters();
  if (r.commands)
    console.log(`\nRedis: ${r.commands} commands, ${(r.bytesIn + r.bytesOut).toLocaleString()} bytes in all`);
} finally {
  await cdn?.close();
  await lb?.close();
  await Promise.all(instances.map((i) => i.stop()));
  await redis.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`\n${((Date.now() - started) / 1000).toFixed(1)} s`);
