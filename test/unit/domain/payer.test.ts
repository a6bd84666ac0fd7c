// The payer of a background read several followers keep alive: each charge goes to the first follower, from a
// turn that moves on, whose allowance takes it; when none can pay, the charge fails and nothing is sent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distinctPayers, payerInTurn, type Payer } from '../../../src/domain/payer.ts';

function payer(id: string, points: number, log: string[]): Payer {
  let left = points;
  const take = async (what: string) => {
    if (left <= 0) throw new Error(`${id} has nothing left`);
    left -= 1;
    log.push(`${id}:${what}`);
  };
  return {
    kind: id.startsWith('key') ? 'key' : 'address',
    id,
    charge: async (call) => (await take(call), id.startsWith('key') ? 'key' : 'address'),
    chargeSession: () => take('session'),
  };
}

test('followers take turns, and one with nothing left is passed over', async () => {
  const log: string[] = [];
  const a = payer('key-a', 1, log);
  const b = payer('10.0.0.1', 5, log);
  assert.equal(await payerInTurn([a, b], 0).charge('poll'), 'key');
  assert.equal(await payerInTurn([a, b], 1).charge('poll'), 'address');
  assert.equal(await payerInTurn([a, b], 2).charge('poll'), 'address', 'a is spent: b pays');
  await payerInTurn([a, b], 0).chargeSession();
  assert.deepEqual(log, ['key-a:poll', '10.0.0.1:poll', '10.0.0.1:poll', '10.0.0.1:session']);
});

test('when no follower can pay, the charge fails with the last refusal', async () => {
  const log: string[] = [];
  const none = payerInTurn([payer('key-a', 0, log), payer('10.0.0.1', 0, log)], 0);
  await assert.rejects(Promise.resolve(none.charge('poll')), /10\.0\.0\.1 has nothing left/);
  assert.deepEqual(log, []);
  assert.throws(() => payerInTurn([], 0), /at least one payer/);
});

test('a key or address following twice pays as one', () => {
  const log: string[] = [];
  const a = payer('key-a', 1, log);
  assert.deepEqual(
    distinctPayers([a, payer('key-a', 1, log), payer('10.0.0.1', 1, log)]).map((p) => p.id),
    ['key-a', '10.0.0.1'],
  );
});
