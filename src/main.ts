// Process entry: validated config, listen, graceful shutdown.
import { ConfigError, loadConfig } from './config.ts';
import { composeRuntime } from './compose.ts';

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
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.server.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  await app.server.listen({ port: config.port, host: config.host });
  await app.ops?.listen({ port: config.opsPort, host: config.host });
}

main().catch((err) => {
  process.stderr.write(`threadmark: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
