// `npm run demo`: the platform simulator plus the service pointed at it, for a look without internet.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../sim/server.ts';
import { loadConfig } from '../src/config.ts';
import { composeRuntime } from '../src/compose.ts';
import { POLICIES } from '../src/stores/limits/policies.ts';
import { launchedByScript, whenLauncherGone } from '../src/ops/launcher.ts';

const HELP = `npm run demo [-- --help]

Starts the platform simulator (a deterministic stand-in for X and its readers) and the service pointed at it,
so every example works without internet or accounts.

Environment:
  PORT       the service's port (default 8080)
  SIM_PORT   the simulator's port (default 8090)
  HOST       the service's listen address (default 0.0.0.0; the simulator stays on 127.0.0.1)
  THREADMARK_X_SESSIONS   a sessions file of your own (default: one simulated session)
  Any other THREADMARK_* setting applies as it does to npm start.

The demo raises the per-address allowances of live searches, account-backed reads and exports, so a walk through
the examples does not run into them; npm start keeps the contract's quotas.
`;

/**
 * Per-address allowances fit for exploring: following the README's search and export examples uses up the
 * contract's 5 live searches a minute and 5 exports per 15 minutes. Only the demo sets these.
 */
const DEMO_QUOTAS = { 'search-ip': 100, 'account-ip': 200, 'export-ip': 100 } as const;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(HELP);
  process.exit(0);
}

/** A start-up failure in one line, as `npm start` gives it: a taken port names the setting that moves it. */
function failStart(err: unknown, port: number, setting: string): never {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'EADDRINUSE'
      ? `port ${port} (${setting}) is in use: stop what holds it or set ${setting} to a free port`
      : code === 'EACCES'
        ? `port ${port} (${setting}) may not be opened by this user: set ${setting} to a port above 1023`
        : err instanceof Error
          ? err.message
          : String(err);
  process.stderr.write(`threadmark demo: ${why}\n`);
  process.exit(1);
}

const simPort = Number(process.env.SIM_PORT ?? 8090);
const sim = await startSimulator({ host: '127.0.0.1', port: simPort }).catch((err: unknown) =>
  failStart(err, simPort, 'SIM_PORT'),
);
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
const app = await composeRuntime(config, { quotas: DEMO_QUOTAS });
let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  await Promise.allSettled([app.close(), sim.close()]);
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
// `npm run demo` ended by its pid: the demo lives no longer than the npm that started it, as `npm start` does.
if (launchedByScript(process.env)) whenLauncherGone(() => void stop());
await app.server.listen({ port: config.port, host: config.host }).catch(async (err: unknown) => {
  closing = true;
  await Promise.allSettled([app.close(), sim.close()]);
  failStart(err, config.port, 'PORT');
});

const per = (s: number) => (s === 60 ? 'a minute' : `per ${s / 60} minutes`);
const allowances = Object.entries(DEMO_QUOTAS)
  .map(([name, quota]) => {
    const p = POLICIES[name as keyof typeof DEMO_QUOTAS];
    return `    ${name.padEnd(11)} ${quota} ${per(p.windowS)} (npm start: ${p.quota})`;
  })
  .join('\n');
const base = config.baseUrl;
process.stdout.write(
  `\nthreadmark demo\n` +
    `  service:   ${base}   (PORT=${config.port}; set PORT to move it)\n` +
    `  simulator: ${sim.url}   (SIM_PORT=${sim.port}; set SIM_PORT to move it)\n` +
    `  docs:      ${base}/docs   (open it in a browser)\n` +
    `  allowances raised for exploring, per address:\n${allowances}\n\n` +
    `try:\n  curl '${base}/alice_dev/status/1900000000000000001'\n` +
    `  curl '${base}/api/v1/posts?url=https://x.com/alice_dev/status/1900000000000000001&format=json'\n` +
    `  curl '${base}/i/lists/1900000000000090001'\n\n` +
    // Without a server to call, the CLI reads the real upstreams in process: point it at this demo.
    `the CLI, pointed at this demo:\n  export THREADMARK_SERVER=${base}\n` +
    `  npx threadmark profile alice_dev --since 2026-03-01 --until 2026-03-03 --with-replies\n\n` +
    `more examples: README.md and ${base}/docs\n\n`,
);
