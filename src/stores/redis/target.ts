import type { HostPort, RedisTarget } from './connect.ts';

/** Which Redis the settings name (config.ts lets at most one of the three be set). */
export function redisTargetOf(c: {
  redisUrl?: string;
  redisCluster?: HostPort[];
  redisSentinels?: HostPort[];
  redisSentinelName?: string;
}): RedisTarget | undefined {
  if (c.redisCluster) return { cluster: c.redisCluster };
  if (c.redisSentinels) return { sentinels: c.redisSentinels, name: c.redisSentinelName ?? '' };
  return c.redisUrl ? { url: c.redisUrl } : undefined;
}
