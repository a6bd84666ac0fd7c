// `npm run demo`: the platform simulator plus the service pointed at it, for a look without internet.
import { startSimulator } from '../sim/server.ts';
import { loadConfig } from '../src/config.ts';
import { createApp } from '../src/app.ts';

const simPort = Number(process.env.SIM_PORT ?? 8090);
const sim = await startSimulator({ host: '127.0.0.1', port: simPort });
const config = loadConfig({
  ...process.env,
  THREADMARK_FXTWITTER_URL: sim.fxtwitterUrl,
  THREADMARK_SYNDICATION_URL: sim.syndicationUrl,
  THREADMARK_X_API_URL: sim.xApiUrl,
  THREADMARK_X_WEB_URL: sim.xWebUrl,
});
const app = await createApp(config);
await app.server.listen({ port: config.port, host: config.host });
process.stdout.write(
  `\nthreadmark demo\n  service:   ${config.baseUrl}\n  simulator: ${sim.url}\n\n` +
    `try:\n  curl '${config.baseUrl}/alice_dev/status/1900000000000000001'\n` +
    `  curl '${config.baseUrl}/api/v1/posts?url=https://x.com/alice_dev/status/1900000000000000001&format=json'\n\n`,
);
const stop = async () => {
  await app.close();
  await sim.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
