// `npm run demo`: the platform simulator plus the service pointed at it, for a look without internet.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../sim/server.ts';
import { loadConfig } from '../src/config.ts';
import { composeRuntime } from '../src/compose.ts';
import { POLICIES } from '../src/stores/limits/policies.ts';
import { launchedByScript, whenLauncherGone } from '../src/ops/launcher.ts';
import { openKeyStore } from '../src/stores/index.ts';

const HELP = `npm run demo [-- --help]

Starts the platform simulator (a deterministic stand-in for X and its readers) and the service pointed at it,
so every example works without internet or accounts.

Environment:
  PORT       the service's port (default 8080)
  SIM_PORT   the simulator's port (default 8090)
  HOST       the service's listen address (default 0.0.0.0; the simulator stays on 127.0.0.1)
  THREADMARK_X_SESSIONS   a sessions file of your own (default: one simulated session)
  THREADMARK_KEYS_DB      the key store (default: a fresh one in a temporary folder, with one demo key)
  Any other THREADMARK_* setting applies as it does to npm start.

The demo raises the per-address allowances of live searches, account-backed reads and exports, so a walk through
the examples does not run into them; npm start keeps the contract's quotas. It also accepts webhook callbacks on
this machine (http://127.0.0.1:…), which npm start refuses, and reads watched sources every 5 seconds.
`;

/** Watched sources read every few seconds, so a simulated post reaches a demo watch while one looks. */
const DEMO_WATCH_INTERVALS = 'profile=5000,search=5000,thread=5000,list=5000';

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
// The demo's state (sessions, keys, watches, secrets) lives in a folder of its own, not in the working directory.
const state = mkdtempSync(join(tmpdir(), 'threadmark-demo-'));
let sessions = process.env.THREADMARK_X_SESSIONS;
if (!sessions) {
  sessions = join(state, 'sessions.jsonl');
  writeFileSync(sessions, JSON.stringify({ username: 'demo', auth_token: 'demo_token', ct0: 'demo_ct0' }) + '\n');
}
const config = loadConfig({
  THREADMARK_KEYS_DB: join(state, 'keys.db'),
  THREADMARK_WEBHOOK_ALLOW_PRIVATE: 'true',
  THREADMARK_WATCH_INTERVALS_MS: DEMO_WATCH_INTERVALS,
  ...process.env,
  THREADMARK_X_SESSIONS: sessions,
  THREADMARK_MEDIA_HOSTS: sim.mediaHosts,
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

// A key for the examples that need one (watches, a keyed allowance), made the way `threadmark keys create` does.
const store = await openKeyStore(config);
const demoKey = await store.keys.create({ name: 'demo' }).finally(() => store.close());

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
    `the CLI, pointed at this demo (paste these lines into the terminal you run it in):\n` +
    `  export THREADMARK_SERVER=${base}\n` +
    `  export THREADMARK_MEDIA_HOSTS='${sim.mediaHosts}'\n` +
    `  export THREADMARK_API_KEY=${demoKey.key}\n` +
    `  npx threadmark profile alice_dev --since 2026-03-01 --until 2026-03-03 --with-replies\n\n` +
    `watches and webhooks (the key above is the demo's; local callbacks such as http://127.0.0.1:9099 are accepted\n` +
    `because this is the demo: npm start refuses them; watched sources are read every 5 s):\n` +
    `  npx threadmark watch create /alice_dev --callback http://127.0.0.1:9099/hook\n` +
    `  curl -X POST '${sim.url}/__sim/posts' -H 'content-type: application/json' \\\n` +
    `    -d '{"author":"alice_dev","text":"A new post"}'   # a simulated post: the watch fires\n\n` +
    `more examples: README.md and ${base}/docs\n\n`,
);
