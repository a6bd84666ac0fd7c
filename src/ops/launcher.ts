// A service started through `npm start` lives no longer than the npm that started it. Killing npm by its pid
// would otherwise leave the service re-parented to init, still holding its port: the service cannot count on
// receiving the signal its launcher did (npm SIGKILLed forwards nothing), so it notices the launcher is gone.

/** Whether npm (or another package manager running a package.json script) launched this process. */
export function launchedByScript(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.npm_lifecycle_event);
}

/**
 * Calls `onGone` once, when this process has been re-parented (its parent exited, by any signal, SIGKILL included).
 * Polls the parent pid: no platform tells a child that its parent died, short of Linux's prctl. The timer never
 * keeps the process alive by itself.
 */
export function whenLauncherGone(onGone: () => void, intervalMs = 250): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
