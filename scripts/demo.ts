// `npm run demo`: the platform simulator plus the service pointed at it, for a look without internet.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../sim/server.ts';
import { loadConfig } from '../src/config.ts';
import { createApp } from '../src/app.ts';

const simPort = Number(process.env.SIM_PORT ?? 8090);
const sim = await startSimulator({ host: '127.0.0.1', port: simPort });
// The simulator accepts any session, so the account-backed reads (X Lists, photo/video/user search) work in the
// demo too, unless the caller brought a sessions file of their own.
let sessions = process.env.THREADMARK_X_SESSIONS;
if (!sessions) {
  sessions = join(mkdtempSync(join(tmpdir(), 'threadmark-demo-')), 'sessions.jsonl');
  writeFileSync(sessions, JSON.stringify({ username: 'demo', auth_token: 'demo_token', ct0: 'demo_ct0' }) + '\n');
}
const config = loadConfig({
  ...process.env,
  THREADMARK_X_SESSIONS: sessions,
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
    `  curl '${config.baseUrl}/api/v1/posts?url=https://x.com/alice_dev/status/1900000000000000001&format=json'\n` +
    `  curl '${config.baseUrl}/i/lists/1900000000000090001'\n\n` +
    // Without a server to call, the CLI reads the real upstreams in process: point it at this demo.
    `the CLI, pointed at this demo:\n  export THREADMARK_SERVER=${config.baseUrl}\n` +
    `  npx threadmark profile alice_dev --since 2026-03-01 --until 2026-03-03 --with-replies\n\n` +
    `more examples: README.md and ${config.baseUrl}/docs\n\n`,
);
const stop = async () => {
  await app.close();
  await sim.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
