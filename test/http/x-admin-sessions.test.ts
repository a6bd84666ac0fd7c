// Session health and management through the real server: GET/POST/DELETE /admin/sessions (admin token, no
// secrets out), locked and logged-out sessions parked with their state, the sessions file re-read without a
// restart, run-time sessions shared through Redis in distributed mode, /metrics and GET /api per operation.
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import { OPERATION_NAMES } from '../../src/providers/x/operations.ts';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type Stack, problemOf } from '../helpers/stack.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { xAccounts } from '../../sim/routes/x-accounts.ts';
import { xDeploy } from '../../sim/x-deploy.ts';
import { REDIS_URL, redisSkip, uniquePrefix } from '../unit/stores/redis-env.ts';

const ADMIN = 'admin-token-for-x-sessions';
const auth = { authorization: `Bearer ${ADMIN}` };
const dir = mkdtempSync(join(tmpdir(), 'threadmark-x-admin-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let seq = 0;
function sessionsFile(names: string[]): { path: string; tokens: string[] } {
  const tokens = names.map((n) => `adm${++seq}_${n}_secret_token`);
  const path = join(dir, `sessions-${seq}.jsonl`);
  writeFileSync(
    path,
    tokens.map((t, i) => JSON.stringify({ username: names[i], auth_token: t, ct0: `ct0_${t}` })).join('\n') + '\n',
  );
  return { path, tokens };
}

interface View {
  username: string;
  state: string;
  origin: string;
  availableInS: number;
  deadReason?: string;
  operations: Record<string, { remaining?: number; limit?: number; resetAt?: string; availableInS: number }>;
}
interface List {
  sessions: View[];
  usable: Record<string, number>;
}

let stacks: Stack[] = [];
beforeEach(() => {
  xAccounts.reset();
  xDeploy.reset();
});
afterEach(async () => {
  await Promise.all(stacks.map((s) => s.close()));
  stacks = [];
});
async function xStack(
  sessions: string,
  env: Record<string, string> = {},
  opts: Parameters<typeof startStack>[1] = {},
): Promise<Stack> {
  const s = await startStack(
    {
      THREADMARK_PROVIDERS: 'x',
      THREADMARK_X_SESSIONS: sessions,
      THREADMARK_ADMIN_TOKEN: ADMIN,
      THREADMARK_CACHE_TTL_S: '0',
      ...env,
    },
    opts,
  );
  stacks.push(s);
  return s;
}
const list = async (s: Stack): Promise<List> =>
  (await (await s.get('/admin/sessions', { headers: auth })).json()) as List;
const post = (s: Stack, body: unknown) =>
  s.get('/admin/sessions', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('GET /admin/sessions', () => {
  test('needs the admin token; lists each session by username with its state and per-operation windows, never a cookie', async () => {
    xAccounts.setLimits({ limit: 5, windowS: 600 });
    const { path, tokens } = sessionsFile(['ops_a', 'ops_b', 'ops_c']);
    xAccounts.lock(tokens[1]!);
    xAccounts.logout(tokens[2]!);
    const s = await xStack(path);
    assert.equal((await s.get('/admin/sessions')).status, 401);
    assert.equal(
      (await s.get('/admin/sessions', { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status,
      401,
    );

    for (const id of [IDS.daveRoot, IDS.carolReplyToDave])
      assert.equal((await s.get(`/${HANDLES.dave}/status/${id}?format=json`)).status, 200);
    const res = await s.get('/admin/sessions', { headers: auth });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const text = await res.text();
    for (const t of tokens) {
      assert.ok(!text.includes(t), 'no auth_token in the listing');
      assert.ok(!text.includes(`ct0_${t}`), 'no ct0 in the listing');
    }
    const body = JSON.parse(text) as List;
    const by = Object.fromEntries(body.sessions.map((v) => [v.username, v]));
    assert.deepEqual([by.ops_b!.state, by.ops_b!.deadReason], ['locked', 'account locked (code 326)']);
    assert.deepEqual([by.ops_c!.state, by.ops_c!.deadReason], ['logged_out', 'could not authenticate (code 32)']);
    assert.ok(by.ops_b!.availableInS > 86000 && by.ops_c!.availableInS > 86000, 'parked for a day');
    assert.equal(by.ops_a!.state, 'ok');
    assert.equal(by.ops_a!.origin, 'file');
    const w = by.ops_a!.operations.TweetDetail!;
    assert.deepEqual([w.remaining, w.limit, w.availableInS], [3, 5, 0]);
    assert.ok(Date.parse(w.resetAt!) > Date.now() + 590_000);
    assert.equal(body.usable.TweetDetail, 1);
    assert.equal(body.usable.SearchTimeline, 1);
  });
});

describe('POST and DELETE /admin/sessions', () => {
  test('add a session at run time, use it, replace it, remove it', async () => {
    const { path, tokens } = sessionsFile(['file_one']);
    xAccounts.lock(tokens[0]!);
    const s = await xStack(path);
    // The only file session is locked: nothing can serve the read (x is the only provider).
    const refused = await s.get(`/${HANDLES.alice}?format=json`);
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '86400');

    const bad = await post(s, { username: 'new one', auth_token: 'SECRET_VALUE_1', ct0: 'x' });
    assert.equal(bad.status, 400);
    const badText = await bad.text();
    assert.match(badText, /invalid_body/);
    assert.ok(!badText.includes('SECRET_VALUE_1'), 'a rejected body is not echoed');
    assert.equal((await post(s, { username: 'added_one', auth_token: 'tok', ct0: 'c', extra: 1 })).status, 400);

    const created = await post(s, { username: 'added_one', auth_token: 'added_secret_tok', ct0: 'added_secret_ct0' });
    assert.equal(created.status, 201);
    const view = (await created.json()) as View;
    assert.deepEqual([view.username, view.state, view.origin], ['added_one', 'ok', 'admin']);
    assert.ok(!JSON.stringify(view).includes('added_secret'));

    const served = await s.get(`/${HANDLES.alice}?format=json`);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('x-source'), 'x');

    assert.equal(
      (await post(s, { username: 'added_one', auth_token: 'added_secret_tok2', ct0: 'added_secret_ct02' })).status,
      200,
      'same username: replaced',
    );
    assert.equal((await list(s)).sessions.filter((v) => v.username === 'added_one').length, 1);

    const del = () => s.get('/admin/sessions/added_one', { method: 'DELETE', headers: auth });
    assert.equal((await del()).status, 204);
    const again = await del();
    assert.equal(again.status, 404);
    assert.equal((await problemOf(again)).code, 'not_found');
    assert.deepEqual(
      (await list(s)).sessions.map((v) => v.username),
      ['file_one'],
    );
    assert.equal((await s.get('/admin/sessions/added_one', { method: 'DELETE' })).status, 401);
  });

  test('the sessions file is re-read when it changes: new accounts serve without a restart', async () => {
    const { path, tokens } = sessionsFile(['first']);
    xAccounts.logout(tokens[0]!);
    const s = await xStack(path);
    assert.equal((await s.get(`/${HANDLES.alice}?format=json`)).status, 503);
    writeFileSync(
      path,
      [
        JSON.stringify({ username: 'first', auth_token: tokens[0], ct0: `ct0_${tokens[0]}` }),
        JSON.stringify({ username: 'second', auth_token: 'second_tok', ct0: 'second_ct0' }),
      ].join('\n') + '\n',
    );
    await eventually(async () => (await list(s)).sessions.length === 2, 'the re-read file');
    const st = Object.fromEntries((await list(s)).sessions.map((v) => [v.username, v.state]));
    assert.deepEqual(st, { first: 'logged_out', second: 'ok' }, 'health follows an unchanged session across re-reads');
    assert.equal((await s.get(`/${HANDLES.alice}?format=json`)).status, 200);
  });
});

describe('distributed mode', { skip: redisSkip }, () => {
  test('a session added or removed on one instance is in rotation on every instance', async () => {
    const { path } = sessionsFile(['shared_file']);
    const prefix = uniquePrefix();
    const a = await xStack(path, { THREADMARK_REDIS_URL: REDIS_URL }, { redisPrefix: prefix });
    const b = await xStack(path, { THREADMARK_REDIS_URL: REDIS_URL }, { redisPrefix: prefix, sim: a.sim });
    assert.equal(
      (await post(a, { username: 'cluster_one', auth_token: 'cluster_tok', ct0: 'cluster_ct0' })).status,
      201,
    );
    await eventually(
      async () => (await list(b)).sessions.some((v) => v.username === 'cluster_one' && v.origin === 'admin'),
      'the session on b',
    );
    assert.equal((await b.get('/admin/sessions/shared_file', { method: 'DELETE', headers: auth })).status, 204);
    await eventually(
      async () => (await list(a)).sessions.map((v) => v.username).join() === 'cluster_one',
      'the removal on a',
    );
  });
});

describe('per-operation health', () => {
  test('/metrics counts answers per operation (success, failure, stale) and usable sessions; GET /api shows each operation', async () => {
    const { path, tokens } = sessionsFile(['m_one', 'm_two']);
    xAccounts.lock(tokens[0]!);
    const s = await xStack(path);
    assert.equal((await s.get(`/${HANDLES.alice}?format=json`)).status, 200);
    xDeploy.rotate('UserByScreenName');
    assert.equal((await s.get(`/${HANDLES.bob}?format=json`)).status, 502);

    const metrics = await (await s.get('/metrics')).text();
    const line = (re: RegExp) => metrics.split('\n').find((l) => re.test(l));
    assert.match(
      line(
        /^threadmark_upstream_operation_answers_total\{provider="x",operation="UserByScreenName",result="success"\}/,
      ) ?? '',
      / 1$/,
    );
    assert.match(
      line(
        /^threadmark_upstream_operation_answers_total\{provider="x",operation="UserByScreenName",result="failure"\}/,
      ) ?? '',
      / 1$/,
      'the locked session',
    );
    assert.match(
      line(
        /^threadmark_upstream_operation_answers_total\{provider="x",operation="UserByScreenName",result="stale"\}/,
      ) ?? '',
      / 1$/,
    );
    assert.match(line(/^threadmark_upstream_sessions_usable\{provider="x",operation="SearchTimeline"\}/) ?? '', / 1$/);

    const doc = (await (await s.get('/api')).json()) as {
      health: {
        providers: Array<{
          name: string;
          operations?: Record<string, { state: string; stale: number; usableSessions: number; queryId: string }>;
        }>;
      };
    };
    const ops = doc.health.providers.find((p) => p.name === 'x')!.operations!;
    assert.deepEqual(
      [ops.UserByScreenName!.state, ops.UserByScreenName!.stale, ops.UserByScreenName!.usableSessions],
      ['stale', 1, 1],
    );
    assert.equal(ops.TweetDetail!.state, 'ok');
    assert.deepEqual(Object.keys(ops).sort(), [...OPERATION_NAMES].sort(), 'every operation, the list ones included');
  });
});
