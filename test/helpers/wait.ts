// Waiting on a real process from a test: for a condition to hold, and for a port to stop accepting connections.
import { once } from 'node:events';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** True when a TCP connection to the loopback port is refused; false when it is accepted. */
export async function refused(port: number): Promise<boolean> {
  const sock = connect(port, '127.0.0.1');
  try {
    await once(sock, 'connect');
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ECONNREFUSED';
  } finally {
    sock.destroy();
  }
}

/** Polls `cond` every `stepMs` until it holds; throws naming `what` after `limitMs`. */
export async function until(
  cond: () => boolean | Promise<boolean>,
  what: string,
  { limitMs = 5000, stepMs = 20 }: { limitMs?: number; stepMs?: number } = {},
): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(stepMs);
  }
}
