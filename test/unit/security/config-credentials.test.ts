// Configuration errors are printed at start-up and end up in logs: they must never carry a credential.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig, maskCredentials } from '../../../src/config.ts';

const PASSWORD = 'hunter2-Sup3rSecret';

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message;
  }
  assert.fail('the configuration was accepted');
}

for (const [name, value] of [
  ['THREADMARK_REDIS_URL', `http://default:${PASSWORD}@redis.internal:6379`],
  ['THREADMARK_REDIS_URL', `redis://default:${PASSWORD}@redis.internal:port`],
  ['THREADMARK_REDIS_URL', `redis//:${PASSWORD}@redis.internal`],
  ['THREADMARK_REDIS_URL', `redis://:${PASSWORD}@@redis internal`],
  ['THREADMARK_FXTWITTER_URL', `ftp://fx:${PASSWORD}@fx.example`],
  ['THREADMARK_SYNDICATION_URL', `ftp://${PASSWORD}@syn.example/path`],
  ['THREADMARK_X_API_URL', `https://x:${PASSWORD}@x.example:99999/i/api`],
  ['THREADMARK_X_WEB_URL', `gopher://u:${PASSWORD}@x.example`],
  ['THREADMARK_BASE_URL', `mailto://u:${PASSWORD}@base.example`],
] as const) {
  test(`a malformed ${name} is named in the error without its user-info (${value.slice(0, 8)}…)`, () => {
    const message = errorOf({ [name]: value });
    assert.match(message, new RegExp(name));
    assert.ok(!message.includes(PASSWORD), message);
    assert.ok(!message.includes('hunter2'), message);
  });
}

test('the host part of a malformed URL is still shown, so the operator can tell which value is wrong', () => {
  const message = errorOf({ THREADMARK_REDIS_URL: `http://default:${PASSWORD}@redis.internal:6379` });
  assert.match(message, /redis\.internal:6379/);
  assert.match(message, /\*\*\*@/);
});

test('token and secret settings are never echoed', () => {
  for (const name of ['THREADMARK_ADMIN_TOKEN', 'THREADMARK_CURSOR_SECRET']) {
    const message = errorOf({ [name]: 'hunter2' });
    assert.match(message, new RegExp(name));
    assert.ok(!message.includes('hunter2'), message);
  }
});

test('a password passed as a query parameter of a malformed URL is masked too', () => {
  const message = errorOf({ THREADMARK_REDIS_URL: `http://redis.internal:6379/0?password=${PASSWORD}&db=1` });
  assert.ok(!message.includes(PASSWORD), message);
  assert.match(message, /db=1/);
});

test('maskCredentials leaves a URL without credentials as it is', () => {
  assert.equal(maskCredentials('redis://redis.internal:6379/0'), 'redis://redis.internal:6379/0');
  assert.equal(maskCredentials('not a url'), 'not a url');
  assert.equal(maskCredentials(`rediss://u:${PASSWORD}@h:1`), 'rediss://***@h:1');
});
