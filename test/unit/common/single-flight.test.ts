import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SingleFlight } from '../../../src/common/single-flight.ts';

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

test('callers of one key while it is pending share one call; other keys run their own', async () => {
  const flights = new SingleFlight<string, number>();
  const gate = deferred<number>();
  let calls = 0;
  const call = () => {
    calls++;
    return gate.promise;
  };
  const a = flights.run('a', call);
  const b = flights.run('a', call);
  const other = flights.run('b', async () => 7);
  assert.equal(a, b);
  assert.equal(flights.size, 2);
  gate.resolve(1);
  assert.deepEqual(await Promise.all([a, b, other]), [1, 1, 7]);
  assert.equal(calls, 1);
  assert.equal(flights.size, 0);
});

test('a settled call is not kept: the next caller starts anew, after a failure too', async () => {
  const flights = new SingleFlight<string, number>();
  await assert.rejects(
    flights.run('k', async () => {
      throw new Error('boom');
    }),
    /boom/,
  );
  assert.equal(flights.size, 0);
  assert.equal(await flights.run('k', async () => 2), 2);
  assert.equal(await flights.run('k', async () => 3), 3);
});

test('a call that throws before its first await still settles and frees its key', async () => {
  const flights = new SingleFlight<string, number>();
  const sync = (): Promise<number> => {
    throw new Error('at once');
  };
  await assert.rejects(flights.run('k', sync), /at once/);
  assert.equal(flights.size, 0);
});
