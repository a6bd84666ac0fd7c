// The two store backends HTTP tests run against: embedded (in-process cache and limits, SQLite keys) and
// distributed (the real Redis, under a prefix of its own that is removed on close).
import type { Redis } from 'ioredis';
import { startStack, type Stack, type StackOptions } from './stack.ts';
import { REDIS_URL, deleteByPrefix, openTestRedis, redisSkip, uniquePrefix } from '../unit/stores/redis-env.ts';

export interface Backend {
  name: 'in-process' | 'redis';
  /** `skip` option for the suite: false when the backend is usable. */
  skip: string | false;
}

export const BACKENDS: readonly Backend[] = [
  { name: 'in-process', skip: false },
  { name: 'redis', skip: redisSkip },
];

export interface BackendStack extends Stack {
  /** Redis key root of this stack (redis backend only). */
  prefix?: string;
  /** A client for inspecting what the stack wrote (redis backend only). */
  redis?: Redis;
}

/** Starts the service on `backend`; a second instance shares the first one's simulator and prefix via `opts`. */
export async function startOn(
  backend: Backend,
  env: Record<string, string> = {},
  opts: StackOptions = {},
): Promise<BackendStack> {
  if (backend.name === 'in-process') return startStack(env, opts);
  const prefix = opts.redisPrefix ?? uniquePrefix();
  const s = await startStack({ THREADMARK_REDIS_URL: REDIS_URL, ...env }, { ...opts, redisPrefix: prefix });
  const redis = await openTestRedis();
  return {
    ...s,
    prefix,
    redis,
    async close() {
      await s.close();
      await deleteByPrefix(redis, prefix);
      redis.disconnect();
    },
  };
}
