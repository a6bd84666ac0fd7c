// What the API-key guard learned about the caller, read by key-aware handlers.
import type { FastifyRequest } from 'fastify';

export type KeyStatus = 'anonymous' | 'valid' | 'invalid' | 'unverified';

export interface KeyState {
  status: KeyStatus;
  id?: string;
  accountQuota?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: KeyState;
  }
}

export function keyStateOf(req: FastifyRequest): KeyState {
  return req.apiKey ?? { status: 'anonymous' };
}
