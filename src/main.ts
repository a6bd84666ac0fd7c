// Process entry: validated config, listen, graceful shutdown.
import { ConfigError, loadConfig } from './config.ts';
import { composeRuntime } from './compose.ts';
import { launchedByScript, whenLauncherGone } from './ops/launcher.ts';

async function main(): Promise<void> {
  let app;
  try {
    app = await composeRuntime(loadConfig());
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`threadmark: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const config = app.services.config;
  let closing = false;
  const shutdown = (reason: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal: reason }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  // `npm start` killed by its pid: whichever process got the signal, the service drains as if it had.
  if (launchedByScript(process.env)) whenLauncherGone(() => shutdown('launcher exited'));
  // Fastify has no logger of its own (server.ts): the line it would write, written by the service's.
  app.log.info(`Server listening at ${await app.server.listen({ port: config.port, host: config.host })}`);
  await app.ops?.listen({ port: config.opsPort, host: config.host });
}

main().catch((err) => {
  process.stderr.write(`threadmark: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
