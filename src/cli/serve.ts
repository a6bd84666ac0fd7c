// `threadmark serve`: the service exactly as `npm start` runs it (src/main.ts reads process.env itself).

export interface ServeFlags {
  port?: string;
  host?: string;
}

export async function runServe(flags: ServeFlags): Promise<void> {
  if (flags.port !== undefined) process.env.PORT = flags.port;
  if (flags.host !== undefined) process.env.HOST = flags.host;
  // main.ts validates the configuration, listens and owns shutdown on SIGTERM/SIGINT.
  await import('../main.ts');
}
