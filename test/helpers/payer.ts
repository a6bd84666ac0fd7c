// A payer for unit tests of the chain and the domain: charges nothing, so a test sees only what it is about.
import type { Payer } from '../../src/domain/payer.ts';
import type { RunOptions } from '../../src/providers/chain.ts';

export const FREE_PAYER: Payer = {
  kind: 'address',
  id: 'test',
  charge: () => 'address',
  chargeSession: async () => {},
};

/** Chain options of a plain read for FREE_PAYER. */
export const FREE_READ: RunOptions = { payer: FREE_PAYER, call: 'read' };
