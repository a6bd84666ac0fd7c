// Lints the deployment files, which cannot be run here (no Docker daemon): the compose file parsed as YAML and
// its environment run through the real config loader, the Dockerfile read instruction by instruction (and
// its HEALTHCHECK command executed against a live service), and the nginx config checked against both.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { freePort } from '../helpers/instance.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const DEPLOY = join(ROOT, 'deploy');
const read = (name: string) => readFileSync(join(DEPLOY, name), 'utf8');

interface Instruction {
  op: string;
  args: string;
}

/** Dockerfile instructions in order: continuation lines joined, comments and blank lines dropped. */
function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    const m = /^([A-Za-z]+)\s+(.*)$/.exec(full);
    assert.ok(m, `not an instruction: ${full}`);
    out.push({ op: m[1]!.toUpperCase(), args: m[2]!.trim() });
  }
  assert.equal(pending, '', 'dangling line continuation');
  return out;
}

/** The instructions of the last build stage (from its FROM on). */
function finalStage(all: Instruction[]): Instruction[] {
  const from = all.map((i) => i.op).lastIndexOf('FROM');
  return all.slice(from);
}

/** Docker's exec form: a JSON array of strings. */
function execForm(args: string): string[] {
  const parsed = JSON.parse(args) as unknown;
  assert.ok(Array.isArray(parsed) && parsed.every((a) => typeof a === 'string'), `not exec form: ${args}`);
  return parsed;
}

function healthcheckCommand(stage: Instruction[]): string[] {
  const hc = stage.find((i) => i.op === 'HEALTHCHECK');
  assert.ok(hc, 'HEALTHCHECK in the final stage');
  const m = /^((?:--[\w-]+=\S+\s+)*)CMD\s+(.*)$/.exec(hc.args);
  assert.ok(m, `HEALTHCHECK [options] CMD [...]: ${hc.args}`);
  return execForm(m[2]!);
}

/** Compose's ${VAR:-default} and ${VAR:?error} against the given variables, as `docker compose` does. */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_m, name: string, kind?: string, rest?: string) => {
    const v = vars[name];
    if (v !== undefined && v !== '') return v;
    if (kind === '?') throw new Error(`compose would refuse to start: ${rest}`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

const dockerfile = instructions(read('Dockerfile'));
const stage = finalStage(dockerfile);
const compose = parse(read('compose.yaml'), { merge: true }) as {
  services: Record<string, any>;
  volumes?: Record<string, unknown>;
};
const nginx = read('nginx.conf');
const appServices = Object.entries(compose.services).filter(([, s]) => s.build?.dockerfile === 'deploy/Dockerfile');

describe('deploy/Dockerfile', () => {
  test('every stage builds on node:24-slim', () => {
    const froms = dockerfile.filter((i) => i.op === 'FROM');
    assert.ok(froms.length >= 1);
    for (const f of froms) assert.match(f.args, /^node:24-slim(\s+AS\s+\w+)?$/i);
  });

  test('dependencies come from the lockfile with npm ci', () => {
    const copyLock = dockerfile.findIndex((i) => i.op === 'COPY' && /package-lock\.json/.test(i.args));
    const ci = dockerfile.findIndex((i) => i.op === 'RUN' && /\bnpm ci\b/.test(i.args));
    assert.ok(copyLock >= 0 && ci > copyLock, 'COPY package-lock.json before RUN npm ci');
    assert.ok(
      !dockerfile.some((i) => i.op === 'RUN' && /\bnpm install\b/.test(i.args)),
      'npm install would ignore the lockfile',
    );
  });

  test('the final stage runs as a non-root user, set before CMD', () => {
    const users = stage.filter((i) => i.op === 'USER');
    assert.ok(users.length > 0, 'USER in the final stage');
    const user = users.at(-1)!.args.split(':')[0];
    assert.notEqual(user, 'root');
    assert.notEqual(user, '0');
    assert.ok(stage.findIndex((i) => i === users.at(-1)) < stage.findIndex((i) => i.op === 'CMD'));
  });

  test('CMD runs the bundle as `npm start` does, with node in exec form (signals reach the service)', () => {
    const cmds = stage.filter((i) => i.op === 'CMD');
    assert.equal(cmds.length, 1);
    const argv = execForm(cmds[0]!.args);
    // The script execs node in place of npm's shell, so that npm's signals reach the service.
    const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } })
      .scripts.start;
    assert.equal(`exec ${argv.join(' ')}`, script);
    assert.ok(argv.includes('dist/main.mjs'));
    assert.ok(!argv.includes('npm'));
    const stop = stage.find((i) => i.op === 'STOPSIGNAL');
    assert.ok(!stop || stop.args === 'SIGTERM');
  });

  test('the port it exposes is the PORT it sets', () => {
    const expose = stage.find((i) => i.op === 'EXPOSE');
    const env = stage
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    assert.ok(expose);
    assert.match(env, new RegExp(`\\bPORT=${expose.args}\\b`));
  });

  test('every path it copies from the build context exists', () => {
    for (const copy of dockerfile.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))) {
      const parts = copy.args.split(/\s+/);
      for (const src of parts.slice(0, -1)) assert.ok(existsSync(join(ROOT, src)), src);
    }
  });

  describe('HEALTHCHECK', () => {
    let s: Stack;
    before(async () => {
      s = await startStack();
    });
    after(() => s.close());

    async function run(port: number): Promise<number | null> {
      const [cmd, ...args] = healthcheckCommand(stage);
      assert.equal(cmd, 'node');
      const child = spawn(process.execPath, args, { env: { PORT: String(port) }, stdio: 'ignore' });
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    }

    test('probes /healthz: exit 0 against a running service', async () => {
      assert.match(healthcheckCommand(stage).join(' '), /\/healthz/);
      assert.equal(await run(Number(new URL(s.url).port)), 0);
    });

    test('exit 1 when nothing answers', async () => {
      assert.equal(await run(await freePort()), 1);
    });
  });
});

describe('deploy/compose.yaml', () => {
  const vars = { THREADMARK_CURSOR_SECRET: 'a-shared-cursor-secret-for-tests' };

  test('two service instances from the Dockerfile, Redis and a reverse proxy', () => {
    assert.equal(appServices.length, 2);
    for (const [, s] of appServices) assert.equal(s.build.context, '..');
    assert.match(compose.services.redis?.image ?? '', /^redis:/);
    assert.match(compose.services.proxy?.image ?? '', /^nginx:/);
  });

  test('each instance has a valid distributed configuration', () => {
    for (const [name, s] of appServices) {
      const env = Object.fromEntries(
        Object.entries(s.environment as Record<string, string>).map(([k, v]) => [k, interpolate(String(v), vars)]),
      );
      const config = loadConfig(env);
      assert.equal(config.trustProxy, 1, name);
      const redis = new URL(config.redisUrl ?? '');
      assert.ok(redis.hostname in compose.services, `${name}: Redis host ${redis.hostname} is a compose service`);
      assert.equal(config.cursorSecret, vars.THREADMARK_CURSOR_SECRET, name);
    }
  });

  test('the cursor secret must be supplied: compose refuses to start without it', () => {
    const [, s] = appServices[0]!;
    assert.throws(() => interpolate(String(s.environment.THREADMARK_CURSOR_SECRET), {}), /refuse/);
  });

  test('instances wait for a healthy Redis; Redis has a healthcheck', () => {
    for (const [name, s] of appServices) assert.equal(s.depends_on?.redis?.condition, 'service_healthy', name);
    assert.deepEqual(compose.services.redis.healthcheck.test, ['CMD', 'redis-cli', 'ping']);
  });

  test('the proxy waits for healthy instances and mounts deploy/nginx.conf', () => {
    const proxy = compose.services.proxy;
    for (const [name] of appServices) assert.equal(proxy.depends_on?.[name]?.condition, 'service_healthy', name);
    const mount = (proxy.volumes as string[]).find((v) => v.includes('nginx'));
    assert.ok(mount);
    assert.ok(existsSync(join(DEPLOY, mount.split(':')[0]!)));
    assert.ok((proxy.ports as string[]).length > 0);
  });

  test('the stop grace period outlasts the service drain deadline (10 s)', () => {
    for (const [name, s] of appServices) assert.ok(Number.parseInt(String(s.stop_grace_period), 10) > 10, name);
  });
});

describe('deploy/nginx.conf', () => {
  const expose = stage.find((i) => i.op === 'EXPOSE')!.args;

  test('the upstream lists every instance on the exposed port', () => {
    const servers = [...nginx.matchAll(/^\s*server\s+([\w.-]+):(\d+)\b/gm)].map((m) => `${m[1]}:${m[2]}`);
    assert.deepEqual(servers.sort(), appServices.map(([name]) => `${name}:${expose}`).sort());
  });

  test('X-Forwarded-For is overwritten with the peer address, never appended', () => {
    assert.match(nginx, /^\s*proxy_set_header\s+X-Forwarded-For\s+\$remote_addr;/m);
    assert.doesNotMatch(nginx.replace(/#.*$/gm, ''), /\$proxy_add_x_forwarded_for/);
  });

  test('keep-alive to the instances, closed by nginx before the service would (65 s)', () => {
    assert.match(nginx, /^\s*keepalive\s+\d+;/m);
    const timeout = /^\s*keepalive_timeout\s+(\d+)s;/m.exec(nginx);
    assert.ok(timeout && Number(timeout[1]) < 65);
    assert.match(nginx, /proxy_http_version\s+1\.1;/);
    assert.match(nginx, /proxy_set_header\s+Connection\s+"";/);
  });

  test('/metrics is not reachable through the proxy', () => {
    assert.match(nginx, /location\s*=\s*\/metrics\s*\{\s*deny all;\s*\}/);
  });
});
