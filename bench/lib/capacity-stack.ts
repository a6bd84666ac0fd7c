// The service as the capacity simulation runs it: the simulator, a Redis of the run's own (its counters count
// only this run), X sessions for the account-backed reads, every reader at its own address behind a trusted proxy.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type Stack } from '../../test/helpers/stack.ts';
import { startPrivateRedis, type RedisBackend } from '../../test/helpers/private-redis.ts';
import type { Target } from './capacity-sim.ts';

export const SESSIONS = 3;

/** A sessions file with `count` simulated accounts (any cookie pair is an account to the simulator). */
export function sessionsFile(dir: string, count = SESSIONS): string {
  const path = join(dir, 'sessions.jsonl');
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ username: `capacity${i + 1}`, auth_token: `capacity_tok_${i + 1}`, ct0: `capacity_ct0_${i + 1}` }),
  );
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

export interface CapacityStack extends Target {
  stack: Stack;
  close(): Promise<void>;
}

/** `redis` defaults to a private redis-server; pass another backend (a cluster) to measure that instead. */
export async function startCapacityStack(redis?: RedisBackend): Promise<CapacityStack> {
  const store = redis ?? (await startPrivateRedis());
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-capacity-'));
  try {
    const stack = await startStack(
      {
        ...store.env,
        THREADMARK_PROVIDERS: 'fxtwitter,syndication,x',
        THREADMARK_X_SESSIONS: sessionsFile(dir),
        THREADMARK_TRUST_PROXY: 'true',
        THREADMARK_CACHE_TTL_S: '3600',
      },
      // The model counts what reads cost; the push scheduler's idle job-queue polling is a fixed cost per
      // instance, not per read, and would blur each class's measured Redis bytes.
      { push: false },
    );
    return {
      url: stack.url,
      sim: stack.sim,
      redis: store,
      stack,
      async close() {
        await stack.close();
        if (!redis) await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (!redis) await store.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
