// Operator files the X provider re-reads without a restart (sessions, operations). Polling the file's stat
// rather than fs.watch survives editors and deploy tools that replace the file instead of writing in place.
import { unwatchFile, watchFile, type Stats } from 'node:fs';

/** How often a watched file's size and mtime are checked. */
export const WATCH_INTERVAL_MS = 500;

/** Calls `changed` after each change of `path`; returns the function that stops watching. */
export function watchPath(path: string, changed: () => void, intervalMs = WATCH_INTERVAL_MS): () => void {
  const listener = (cur: Stats, prev: Stats) => {
    if (cur.mtimeMs !== prev.mtimeMs || cur.size !== prev.size) changed();
  };
  watchFile(path, { persistent: false, interval: intervalMs }, listener);
  return () => unwatchFile(path, listener);
}
