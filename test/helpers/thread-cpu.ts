// CPU time of this process's main thread, the one that runs the event loop. A stall of the event loop is work
// done on that thread; the whole process's CPU time (`process.cpuUsage`) also counts V8's garbage-collection
// helpers and libuv's pool, which run beside the loop and, on a busy machine, can double the figure without
// delaying anything. Linux reports each thread's time in /proc; elsewhere the process's time stands in (it can
// only count more).
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports times in hundredths of a second. */
const TICK_MS = 10;
const STAT = `/proc/self/task/${process.pid}/stat`;

function fromProc(): number | undefined {
  try {
    const stat = readFileSync(STAT, 'utf8');
    // Fields after the command name (which may hold spaces), from the state: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/** Milliseconds of CPU the main thread has used (in 10 ms steps on Linux). */
export function mainThreadCpuMs(): number {
  const ms = fromProc();
  if (ms !== undefined) return ms;
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
