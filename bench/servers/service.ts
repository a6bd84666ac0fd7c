// Child process: the service as `npm start` runs it (production logger settings included), configured by the
// environment the harness passes, listening on a loopback port it reports over IPC.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { composeRuntime } from '../../src/compose.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-bench-'));
const config = loadConfig({ THREADMARK_KEYS_DB: join(dir, 'keys.db'), ...process.env, HOST: '127.0.0.1', PORT: '0' });
const app = await composeRuntime(config);
await app.server.listen({ host: '127.0.0.1', port: 0 });
const addr = app.server.server.address();
const port = typeof addr === 'object' && addr ? addr.port : 0;
process.send!({ url: `http://127.0.0.1:${port}`, pid: process.pid });

// The harness asks how many requests the cache-hit replay answered, to tell the fast path from the normal one.
process.on('message', (m) => {
  if (m === 'replayed') process.send!({ replayed: app.server.responseLayer?.served ?? null });
});

// A normal exit, so --cpu-prof can write its profile.
process.on('SIGTERM', () => {
  app
    .close()
    .catch(() => {})
    .finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
});
