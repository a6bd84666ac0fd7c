// Starting the processes a benchmark talks to.
import { startChild, type Child } from './proc.ts';

export interface SimInfo {
  url: string;
  fxtwitterUrl: string;
  syndicationUrl: string;
  xApiUrl: string;
  /** THREADMARK_MEDIA_HOSTS pointing X's media hosts at the simulator. */
  mediaHosts: string;
}

export interface Target {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startSim(): Promise<{ info: SimInfo; stop: () => Promise<void> }> {
  const c = await startChild<SimInfo>('sim.ts');
  return { info: c.ready, stop: c.stop };
}

/** Distinct client addresses per request (X-Forwarded-For) keep a load run under the per-IP allowance. */
export const BENCH_ENV = { THREADMARK_TRUST_PROXY: 'true', THREADMARK_PROVIDERS: 'fxtwitter,syndication' };

export interface ServiceTarget extends Target {
  /** Requests the cache-hit replay has answered so far (null when the replay is off). */
  replayed(): Promise<number | null>;
}

export async function startService(
  sim: SimInfo,
  env: Record<string, string> = {},
  execArgv: string[] = [],
): Promise<ServiceTarget> {
  const c: Child<{ url: string; pid: number }> = await startChild('service.ts', {
    bundled: true,
    env: {
      THREADMARK_FXTWITTER_URL: sim.fxtwitterUrl,
      THREADMARK_SYNDICATION_URL: sim.syndicationUrl,
      THREADMARK_X_API_URL: sim.xApiUrl,
      ...BENCH_ENV,
      ...env,
    },
    execArgv,
  });
  const replayed = async () => {
    c.send('replayed');
    return (await c.next<{ replayed: number | null }>()).replayed;
  };
  return { ...c.ready, stop: c.stop, replayed };
}

/**
 * `bare.ts` (node:http), `bare-fastify.ts` (Fastify, a route handler) or `hook-fastify.ts` (Fastify, an onRequest
 * hook), replaying one captured response.
 */
export async function startBare(body: Buffer, headers: Record<string, string>, script = 'bare.ts'): Promise<Target> {
  const c: Child<{ url: string; pid: number }> = await startChild(script, {
    env: { BENCH_RESPONSE: JSON.stringify({ body: body.toString('base64'), headers }) },
  });
  return { ...c.ready, stop: c.stop };
}

/** `bare-proxy.ts`, bundled and run like the service: a node:http server answering with one plain GET of `upstream`. */
export async function startBareProxy(upstream: string): Promise<Target> {
  const c: Child<{ url: string; pid: number }> = await startChild('bare-proxy.ts', {
    bundled: true,
    env: { BENCH_UPSTREAM: upstream },
  });
  return { ...c.ready, stop: c.stop };
}

/** Simulator calls whose path contains `path` (the simulator counts every request it receives). */
export async function simCalls(sim: SimInfo, path: string): Promise<number> {
  const res = await fetch(`${sim.url}/__sim/calls?path=${encodeURIComponent(path)}`);
  return ((await res.json()) as { count: number }).count;
}
