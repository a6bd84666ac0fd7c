// Who an upstream media fetch is made for, and the port that charges it. The composition root hands in the charge;
// the proxy, the zip export and the media store call it once per file they fetch from X, before fetching it, so a
// file served from memory costs nothing and a file fetched always costs someone.

/** The client a fetch is made for: its address, and its API key's id when it sent a valid one. */
export interface Payer {
  address: string;
  keyId?: string;
}

/** Charges one upstream media fetch to `payer`; rejects with the refusal when its allowance is used up. */
export type ChargeMedia = (payer: Payer) => Promise<void>;

/** For callers that spend no one's allowance (the CLI fetching from its own machine). */
export const FREE: ChargeMedia = () => Promise.resolve();
