// CPU time of this process's main thread, the one that runs the event loop. A stall of the event loop is work
// done on that thread; the whole process's CPU time (`process.cpuUsage`) also counts V8's garbage-collection
// helpers and libuv's pool, which run beside the loop and, on a busy machine, can double the figure without
// delaying anything. Linux reports each thread's time in /proc: to the nanosecond in `schedstat` (when the
// kernel keeps scheduler statistics), in hundredths of a second in `stat`. Elsewhere the process's time stands
// in (it can only count more).
import { readFileSync } from 'node:fs';

const TASK = `/proc/self/task/${process.pid}`;
/** Linux's USER_HZ: `stat` reports times in hundredths of a second. */
const TICK_MS = 10;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function fromSchedstat(): number | undefined {
  // Time on a CPU (ns), time waiting for one (ns), slices.
  const ns = Number(read(`${TASK}/schedstat`)?.split(' ')[0]);
  return Number.isFinite(ns) ? ns / 1e6 : undefined;
}

function fromStat(): number | undefined {
  const stat = read(`${TASK}/stat`);
  if (stat === undefined) return undefined;
  // Fields after the command name (which may hold spaces), from the state: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** Milliseconds of CPU the main thread has used. */
export function mainThreadCpuMs(): number {
  const ms = fromSchedstat() ?? fromStat();
  if (ms !== undefined) return ms;
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
