// The child-process helper must not leave a service running when it gives up on it: an orphaned instance kept a
// test file's process alive forever after a slow start under load (a hung suite instead of a failed hook).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnInstance } from '../helpers/instance.ts';

test('an instance that does not report its port in time is killed, and the start is refused', async () => {
  const env = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', THREADMARK_PROVIDERS: 'fxtwitter' };
  const before = Date.now();
  await assert.rejects(spawnInstance(env, 50), /did not report its port within 50 ms/);
  assert.ok(Date.now() - before < 5_000);
});
