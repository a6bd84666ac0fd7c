// Redis Cluster (THREADMARK_REDIS_CLUSTER): ioredis' cluster client over the seed nodes, and what scripts need to
// run on it. Every script and multi-key command of the stores keeps its keys in one slot; where the keys of one
// batch belong to different records or clients (the shared hit check), the batch is split by slot and sent as one
// script call per slot, all issued in one turn, so no call waits for another: one round trip per node.
import { engines } from '../../engines.ts';
import type { Cluster } from 'ioredis';
import { NODE_OPTIONS, type HostPort, type RedisClient } from './connect.ts';

/**
 * Seed nodes in, the whole cluster out. Same outage behaviour as a single Redis: no offline queue, short command
 * timeouts; a master that dies is replaced by its replica after the cluster's node timeout, and the client follows
 * the new slot map (refreshed on MOVED, on a failed node and every few seconds).
 */
export function createClusterClient(nodes: HostPort[]): Cluster {
  const { Cluster: ClusterClient } = engines.ioredis();
  const { retryStrategy: _perNode, enableOfflineQueue, ...redisOptions } = NODE_OPTIONS;
  const cluster = new ClusterClient(nodes, {
    lazyConnect: true,
    enableOfflineQueue,
    redisOptions,
    scaleReads: 'master',
    slotsRefreshTimeout: 1000,
    slotsRefreshInterval: 2000,
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    maxRedirections: 4,
    clusterRetryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
  });
  cluster.on('error', () => {});
  return cluster;
}

export function isCluster(redis: RedisClient): redis is Cluster {
  return redis.isCluster;
}

// CRC16/XMODEM, the checksum Redis Cluster maps keys to its 16384 slots with.
const CRC_TABLE = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  let c = i << 8;
  for (let b = 0; b < 8; b++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
  CRC_TABLE[i] = c;
}

/** The slot of a key, honouring a `{hash tag}` (the first non-empty one), as the cluster computes it. */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  let part = key;
  if (open >= 0) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) part = key.slice(open + 1, close);
  }
  let crc = 0;
  for (const byte of Buffer.from(part, 'utf8')) crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[((crc >> 8) ^ byte) & 0xff]!;
  return crc & 0x3fff;
}

/**
 * Splits items by the slot of their key (`keyOf`), so each group can be one script or multi-key command on a
 * cluster; a single Redis is one group, in the original order.
 */
export function groupBySlot<T>(redis: RedisClient, items: readonly T[], keyOf: (item: T) => string): T[][] {
  if (!isCluster(redis)) return [items.slice()];
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const slot = keySlot(keyOf(item));
    const g = groups.get(slot);
    if (g) g.push(item);
    else groups.set(slot, [item]);
  }
  return [...groups.values()];
}

/** `{name}`: keys sharing it share a slot. On a single Redis the braces are just characters. */
export function hashTag(name: string): string {
  return `{${name}}`;
}
