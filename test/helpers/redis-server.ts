// A private, throwaway redis-server on a spare loopback port, for tests that stop and start Redis under a
// running service. CI (THREADMARK_REQUIRE_REDIS=1) must fail rather than skip when the binary is missing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createConnection } from 'node:net';
import { freePort } from './instance.ts';

const BINARY = process.env.THREADMARK_TEST_REDIS_SERVER ?? 'redis-server';

const installed = !spawnSync(BINARY, ['--version'], { stdio: 'ignore' }).error;
if (!installed && process.env.THREADMARK_REQUIRE_REDIS) {
  throw new Error(`THREADMARK_REQUIRE_REDIS is set but ${BINARY} cannot be run`);
}

/** `skip` option for suites that start their own Redis. */
export const redisServerSkip: string | false = installed
  ? false
  : `${BINARY} not installed (set THREADMARK_REQUIRE_REDIS=1 to make this a failure)`;

/** Answers PING on the port? */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection(port, '127.0.0.1');
    let got = '';
    s.setTimeout(500, () => s.destroy());
    s.on('connect', () => s.write('PING\r\n'));
    s.on('data', (d: Buffer) => {
      got += d.toString();
      if (got.includes('\r\n')) s.end();
    });
    s.on('close', () => resolve(got.startsWith('+PONG')));
    s.on('error', () => {});
  });
}

export class RedisServer {
  #child: ChildProcess | undefined;
  constructor(readonly port: number) {}

  static async onFreePort(): Promise<RedisServer> {
    return new RedisServer(await freePort());
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.#child = spawn(
      BINARY,
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    const deadline = Date.now() + 10_000;
    while (!(await pong(this.port))) {
      if (this.#child.exitCode !== null) throw new Error(`redis-server exited with ${this.#child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on ${this.port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Kills it outright, as a crash would. */
  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = once(child, 'exit');
    child.kill('SIGKILL');
    await gone;
  }
}
