// The service as a real child process (`node --import tsx src/main.ts`, PORT=0) with its pino log captured,
// for tests that need several instances or a process-level view (distributed mode, Redis outages, load).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { Simulator } from '../../sim/server.ts';
import { upstreamEnv } from './stack.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

export interface LogLine {
  level: number;
  msg: string;
  [k: string]: unknown;
}

export interface Instance {
  url: string;
  port: number;
  child: ChildProcess;
  /** Every JSON log line written to stdout so far. */
  logs(): LogLine[];
  get(path: string, init?: RequestInit): Promise<Response>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Environment pointing an instance at the simulator on loopback, with a free port chosen by the kernel. */
export function simEnv(sim: Simulator): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...upstreamEnv(sim),
  };
}

export async function spawnInstance(env: Record<string, string>, timeoutMs = 60_000): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  let partial = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const port = await new Promise<number>((resolve, reject) => {
    // A child that never reports its port is killed: left running, it would keep the test file's process (and
    // the whole suite) alive after its hooks have failed.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`instance did not report its port within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance exited (${code}) before listening; stderr: ${stderr}`));
    });
    child.stdout.on('data', (d: Buffer) => {
      partial += d.toString('utf8');
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      for (const text of parts) {
        let line: LogLine;
        try {
          line = JSON.parse(text) as LogLine;
        } catch {
          continue;
        }
        lines.push(line);
        const m = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(line.msg ?? '');
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      }
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    child,
    logs: () => lines,
    get: (path, init) => fetch(url + path, init),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const [code] = await exited;
      return code;
    },
  };
}

/** A loopback port free right now (closed again before returning). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
