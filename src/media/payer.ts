// Who an upstream media fetch is made for, and the port that charges it. The composition root hands in the charge
// (the provider chain's, so media fetches are counted with every other upstream call); the proxy, the zip export and
// the media store call it once per file they fetch from X, before fetching it, so a file served from memory costs
// nothing and a file fetched always costs someone.
import type { Payer } from '../domain/payer.ts';

export type { Payer };

/** Charges one upstream media fetch to `payer`; rejects with the refusal when its allowance is used up. */
export type ChargeMedia = (payer: Payer) => Promise<void>;

/** For callers that spend no one's allowance (the CLI fetching from its own machine). */
export const FREE: ChargeMedia = () => Promise.resolve();

/** The CLI's own machine: what its fetches are made for when no payer is named. It is charged nothing. */
export const LOCAL: Payer = {
  kind: 'address',
  id: 'local',
  charge: () => 'address',
  chargeSession: () => Promise.resolve(),
};
