// Starts the platform simulator and the real service on loopback ports for HTTP tests.
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { loadConfig } from '../../src/config.ts';
import { composeRuntime, type Runtime, type RuntimeOptions } from '../../src/compose.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEST_BASE = 'http://threadmark.test';

export interface Stack {
  sim: Simulator;
  app: Runtime;
  /** Loopback URL the service listens on. */
  url: string;
  get(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Root of the Redis keys when THREADMARK_REDIS_URL is set; tests sharing one Redis stay apart with their own. */
  redisPrefix?: string;
  /** A running simulator to share (a second instance of the service); it is left running on close. */
  sim?: Simulator;
  /** Socket timeouts of the server (tests shorten them). */
  timeouts?: RuntimeOptions['timeouts'];
  /** false = no fast path of the response layer: every request through Fastify. */
  fastPath?: boolean;
  /** Listen port (default: any free one), for a base URL that must name the real address. */
  port?: number;
  /** false = no scheduled reads of watched sources (nor their job queue's traffic to Redis). */
  push?: boolean;
}

/** The settings that point a service (in-process, child process or CLI) at the simulator. */
export function upstreamEnv(sim: Simulator): Record<string, string> {
  return {
    THREADMARK_BASE_URL: TEST_BASE,
    THREADMARK_FXTWITTER_URL: sim.fxtwitterUrl,
    THREADMARK_SYNDICATION_URL: sim.syndicationUrl,
    THREADMARK_X_API_URL: sim.xApiUrl,
    THREADMARK_X_WEB_URL: sim.xWebUrl,
    THREADMARK_MEDIA_HOSTS: sim.mediaHosts,
    THREADMARK_PROVIDERS: 'fxtwitter,syndication',
    THREADMARK_UPSTREAM_TIMEOUT_MS: '2000',
  };
}

export async function startStack(env: Record<string, string> = {}, opts: StackOptions = {}): Promise<Stack> {
  const sim = opts.sim ?? (await startSimulator({ host: '127.0.0.1', port: 0 }));
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-test-'));
  const config = loadConfig({
    ...upstreamEnv(sim),
    LOG_LEVEL: 'silent',
    THREADMARK_KEYS_DB: join(dir, 'keys.db'),
    ...env,
  });
  // A service that does not start (a key store that cannot open, say) fails the test file at once: the simulator
  // started for it is closed, else its listening socket would keep the file's process, and the run, waiting.
  let app: Runtime;
  try {
    app = await composeRuntime(config, {
      logger: false,
      redisPrefix: opts.redisPrefix,
      timeouts: opts.timeouts,
      fastPath: opts.fastPath,
      ...(opts.push === false ? { push: false as const } : {}),
    });
  } catch (err) {
    if (!opts.sim) await sim.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  try {
    await app.server.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  } catch (err) {
    await app.close();
    if (!opts.sim) await sim.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const addr = app.server.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    sim,
    app,
    url,
    get: (path, init) => fetch(url + path, init),
    async close() {
      await app.close();
      if (!opts.sim) await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function problemOf(
  res: Response,
): Promise<{ code: string; status: number; type: string; [k: string]: unknown }> {
  return (await res.json()) as { code: string; status: number; type: string };
}
