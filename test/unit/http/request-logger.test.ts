// The request logger (src/http/observe/request-logger.ts): a request writes the lines a pino child of the root would have written,
// with its request id, and one that writes none (or only below the level) never has a child made for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino } from 'pino';
import { requestLoggers } from '../../../src/http/observe/request-logger.ts';

function sink(): { lines: Array<Record<string, unknown>>; stream: Writable } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { lines, stream };
}

/** A pino logger at info that counts the children made from it. */
function countingParent() {
  let made = 0;
  const parent = pino({ level: 'info' }, new Writable({ write: (_c, _e, cb) => cb() }));
  const counting = Object.assign(Object.create(parent) as typeof parent, {
    child: (...args: Parameters<typeof parent.child>) => {
      made++;
      return parent.child(...args);
    },
  });
  return { counting, made: () => made };
}

test('a request logs through the root logger with its request id, as a pino child does', async () => {
  const { lines, stream } = sink();
  const app = Fastify({
    logger: false,
    childLoggerFactory: requestLoggers(pino({ level: 'info' }, stream)),
    genReqId: () => 'req-1',
  });
  app.get('/', (req) => {
    req.log.debug('below the level');
    req.log.info({ part: 'a' }, 'a line');
    req.log.child({ step: 2 }).warn('from a child');
    return { level: req.log.level };
  });
  try {
    const res = await app.inject({ url: '/' });
    assert.deepEqual(res.json(), { level: 'info' });
    await new Promise((r) => setImmediate(r));
    const mine = lines.filter((l) => l.reqId === 'req-1' && !/request/.test(String(l.msg)));
    assert.deepEqual(
      mine.map((l) => [l.level, l.msg, l.part, l.step]),
      [
        [30, 'a line', 'a', undefined],
        [40, 'from a child', undefined, 2],
      ],
    );
  } finally {
    await app.close();
  }
});

test('no child is made for a request that writes nothing at an enabled level', () => {
  const { counting, made } = countingParent();
  const log = requestLoggers(counting)(undefined, { reqId: 'r' }, {});
  log.debug('dropped');
  log.trace({ x: 1 }, 'dropped');
  assert.equal(made(), 0);
  assert.equal(log.level, 'info');
  log.info('written');
  log.error('written too');
  assert.equal(made(), 1);
});

test('a route with its own level or serializers gets its child at once', () => {
  const { counting, made } = countingParent();
  const log = requestLoggers(counting)(undefined, { reqId: 'r' }, { level: 'debug' });
  assert.equal(made(), 1);
  assert.equal(log.level, 'debug');
});
