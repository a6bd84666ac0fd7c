// A small named map shared by every instance of a cluster (a Redis hash under the deployment's prefix), for
// operator state that must be the same everywhere (run-time X sessions). Embedded mode has none.
import { isReady, type RedisClient } from './redis/connect.ts';

export interface SharedHash {
  /** Every field, or undefined while Redis is unreachable. */
  all(): Promise<Record<string, string> | undefined>;
  /** False while Redis is unreachable. */
  set(field: string, value: string): Promise<boolean>;
}

export function redisHash(redis: RedisClient, key: string): SharedHash {
  return {
    async all() {
      if (!isReady(redis)) return undefined;
      try {
        return await redis.hgetall(key);
      } catch {
        return undefined;
      }
    },
    async set(field, value) {
      if (!isReady(redis)) return false;
      try {
        await redis.hset(key, field, value);
        return true;
      } catch {
        return false;
      }
    },
  };
}
