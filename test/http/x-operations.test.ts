// X operations as data through the real server: a web deploy that rotates a query id breaks the
// account-backed read with a clear x_error, and writing the new id into THREADMARK_X_OPERATIONS heals it
// without a restart; a bad edit is ignored and the table in force stays.
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type Stack, problemOf } from '../helpers/stack.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { xAccounts } from '../../sim/routes/x-accounts.ts';
import { xDeploy } from '../../sim/x-deploy.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-x-ops-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const sessions = join(dir, 'sessions.jsonl');
writeFileSync(sessions, JSON.stringify({ username: 'ops1', auth_token: 'ops_token_1', ct0: 'ops_ct0_1' }) + '\n');

let stack: Stack | undefined;
beforeEach(() => {
  xAccounts.reset();
  xDeploy.reset();
});
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function waitFor(check: () => Promise<boolean>, what: string, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('THREADMARK_X_OPERATIONS', () => {
  test('a rotated query id fails with x_error naming the cause; the override file heals it without a restart', async () => {
    const file = join(dir, 'heal.json');
    writeFileSync(file, '{}');
    stack = await startStack({ THREADMARK_PROVIDERS: 'x', THREADMARK_X_SESSIONS: sessions, THREADMARK_X_OPERATIONS: file, THREADMARK_CACHE_TTL_S: '0' });
    const s = stack;
    const path = `/${HANDLES.alice}?format=json`;
    assert.equal((await s.get(path)).status, 200);

    const fresh = xDeploy.rotate('UserByScreenName');
    const broken = await s.get(path);
    assert.equal(broken.status, 502);
    const problem = await problemOf(broken);
    assert.equal(problem.code, 'x_error');
    assert.match(String(problem.detail), /UserByScreenName: query id or features out of date \(HTTP 404\).*THREADMARK_X_OPERATIONS/);

    writeFileSync(file, JSON.stringify({ UserByScreenName: { queryId: fresh } }));
    await waitFor(async () => (await s.get(path)).status === 200, 'the re-read override');
    assert.ok(s.sim.calls({ target: 'x', path: `/graphql/${fresh}/UserByScreenName` }) >= 1);

    // A broken edit is reported in the log and ignored: the id in force keeps working.
    writeFileSync(file, '{"UserByScreenName": {"queryId": "bad id"}}');
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal((await s.get(path)).status, 200);
  });
});
